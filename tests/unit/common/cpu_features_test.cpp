// common/cpu_features: kestrel's own cpuid reading gives what GCC's __builtin_cpu_supports
// gives (the test binary may link libgcc's start-up constructor; the commands do not:
// tests/startup/check_startup.sh).
#include <doctest/doctest.h>

#include "kestrel/common/cpu_features.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_cpu_features_test {

using namespace kestrel;

TEST_CASE("cpu_features: AVX2+FMA and AVX-512 F/BW/DQ/VL as __builtin_cpu_supports reports them") {
    const CpuFeatures& f = cpu_features();
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const bool avx512 = avx2_fma && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    CHECK(f.avx2_fma == avx2_fma);
    CHECK(f.avx512 == avx512);
    MESSAGE("this CPU: avx2_fma=" << f.avx2_fma << " avx512=" << f.avx512);
#else
    CHECK_FALSE(f.avx2_fma);
    CHECK_FALSE(f.avx512);
#endif
    CHECK(&cpu_features() == &f);  // asked once, then kept
}

}  // namespace unit_common_cpu_features_test
}  // namespace
