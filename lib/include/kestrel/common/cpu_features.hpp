#pragma once
// What the CPU (and the operating system's saved register state) lets kestrel's dispatched
// loops use, read once with cpuid. kestrel asks cpuid itself rather than through
// __builtin_cpu_supports: that builtin links libgcc's start-up constructor, which runs about
// a dozen cpuid instructions in every process before main. In a virtual machine each one
// traps to the host (4-24 us here), so a 200-row train and predict paid ~0.1 ms for CPU
// features that a generic run never looks at. Asked lazily, the two leaves needed cost ~8 us
// and only in a process that reaches a dispatched loop.

namespace kestrel {

struct CpuFeatures {
    bool avx2_fma = false;  // AVX2 and FMA, with the OS saving the YMM registers
    bool avx512 = false;    // AVX-512 F, BW, DQ and VL, with the OS saving the ZMM and mask registers
};

// The features of the CPU this process runs on (asked at the first call, then kept).
const CpuFeatures& cpu_features();

}  // namespace kestrel
