#pragma once
// OpenBLAS, loaded on first use (core/shared_library.hpp says why it is not linked).
#include <cblas.h>
#include <lapack.h>

namespace kestrel::blas {

// The BLAS/LAPACK entry points the dense SPD solver uses, resolved from
// libopenblas.so.0 (its LAPACK is the Fortran interface: no LAPACKE layer needed).
struct Api {
    decltype(&::cblas_strsm) strsm;
    decltype(&::cblas_dtrsm) dtrsm;
    decltype(&::cblas_sgemm) sgemm;
    decltype(&::cblas_dgemm) dgemm;
    decltype(&::cblas_ssyrk) ssyrk;
    decltype(&::cblas_dsyrk) dsyrk;
    decltype(&::LAPACK_spotrf_base) spotrf;
    decltype(&::LAPACK_dpotrf_base) dpotrf;
    decltype(&::LAPACK_spotrs_base) spotrs;
    decltype(&::LAPACK_dpotrs_base) dpotrs;
};

// Loads the library once (thread-safe) and sets it to run each call on the calling
// thread: kestrel parallelises over tiles itself, so the rounding never depends on the
// thread count. Throws kestrel::Error (exit 3) naming the library when it cannot load.
const Api& api();

}  // namespace kestrel::blas
