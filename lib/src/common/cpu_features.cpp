#include "kestrel/common/cpu_features.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace kestrel {

namespace {

CpuFeatures detect() {
    CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0, nullptr) < 7) return f;
    __cpuid_count(1, 0, a, b, c, d);
    const bool fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx) return f;
    // XCR0: which register state the OS saves on a context switch. Bits 1-2: XMM and YMM;
    // bits 5-7: the AVX-512 mask registers and the upper ZMM halves.
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    const bool ymm_saved = (lo & 0x6) == 0x6, zmm_saved = (lo & 0xe6) == 0xe6;
    __cpuid_count(7, 0, a, b, c, d);
    const bool avx2 = (b >> 5) & 1;
    const bool avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1);  // F DQ BW VL
    f.avx2_fma = ymm_saved && avx2 && fma;
    f.avx512 = f.avx2_fma && zmm_saved && avx512;
#endif
    return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = detect();
    return features;
}

}  // namespace kestrel
