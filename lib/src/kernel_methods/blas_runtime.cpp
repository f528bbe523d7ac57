#include "blas_runtime.hpp"

#include "kestrel/core/shared_library.hpp"

namespace kestrel::blas {

namespace {

Api load() {
    const SharedLibrary lib("libopenblas.so.0", "the dense Cholesky solver", "libopenblas0-pthread");
    Api a{};
    lib.bind(a.strsm, "cblas_strsm");
    lib.bind(a.dtrsm, "cblas_dtrsm");
    lib.bind(a.sgemm, "cblas_sgemm");
    lib.bind(a.dgemm, "cblas_dgemm");
    lib.bind(a.ssyrk, "cblas_ssyrk");
    lib.bind(a.dsyrk, "cblas_dsyrk");
    lib.bind(a.spotrf, "spotrf_");
    lib.bind(a.dpotrf, "dpotrf_");
    lib.bind(a.spotrs, "spotrs_");
    lib.bind(a.dpotrs, "dpotrs_");
    void (*set_threads)(int) = nullptr;
    lib.bind(set_threads, "openblas_set_num_threads");
    set_threads(1);
    return a;
}

}  // namespace

const Api& api() {
    static const Api loaded = load();  // a throwing initialiser is retried by the next caller
    return loaded;
}

}  // namespace kestrel::blas
