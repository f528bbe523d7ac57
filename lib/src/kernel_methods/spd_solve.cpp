// Tiled right-looking Cholesky: factor a diagonal tile, solve the tiles below it,
// update the trailing rows. Each tile operation is one single-threaded BLAS/LAPACK call
// (OpenBLAS, loaded on first use: blas_runtime.hpp); the parallelism is ours, across tiles whose boundaries never move,
// so the factor is bit-identical at any thread count. The row-major lower triangle is LAPACK's column-major upper
// triangle of the same memory: potrf/potrs run with uplo = 'U'.
#include "kestrel/kernel_methods/spd_solve.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "blas_runtime.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {

namespace {
constexpr Index kTile = 256;
constexpr Index kChunk = 256;  // rows per task in parallel_multiply
// Below this many multiply-adds a fork-join costs more than it saves (L-BFGS calls
// parallel_multiply thousands of times on small problems).
constexpr double kParallelProductWork = 1 << 21;

blasint as_blas(Index v) {
    return static_cast<blasint>(v);
}

// Fortran LAPACK's potrf on the column-major upper triangle; returns its info.
template <class T>
lapack_int potrf(T* a, Index n, Index ld) {
    const lapack_int m = static_cast<lapack_int>(n), lda = static_cast<lapack_int>(ld);
    lapack_int info = 0;
    if constexpr (std::is_same_v<T, float>)
        blas::api().spotrf("U", &m, a, &lda, &info, 1);
    else
        blas::api().dpotrf("U", &m, a, &lda, &info, 1);
    return info;
}

// B <- B L⁻ᵀ for the m x k tile B below the k x k factor L (row-major, lower).
template <class T>
void trsm_right(const T* L, T* B, Index m, Index k, Index ld) {
    if constexpr (std::is_same_v<T, float>)
        blas::api().strsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, as_blas(m), as_blas(k), 1.0f,
                          L, as_blas(ld), B, as_blas(ld));
    else
        blas::api().dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, as_blas(m), as_blas(k), 1.0,
                          L, as_blas(ld), B, as_blas(ld));
}

// C <- C - A Bᵀ (m x n, inner dimension k).
template <class T>
void gemm_minus(const T* A, const T* B, T* C, Index m, Index n, Index k, Index ld) {
    if constexpr (std::is_same_v<T, float>)
        blas::api().sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, as_blas(m), as_blas(n), as_blas(k), -1.0f, A,
                          as_blas(ld), B, as_blas(ld), 1.0f, C, as_blas(ld));
    else
        blas::api().dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, as_blas(m), as_blas(n), as_blas(k), -1.0, A,
                          as_blas(ld), B, as_blas(ld), 1.0, C, as_blas(ld));
}

// Lower triangle of C <- C - A Aᵀ (m x m, inner dimension k).
template <class T>
void syrk_minus(const T* A, T* C, Index m, Index k, Index ld) {
    if constexpr (std::is_same_v<T, float>)
        blas::api().ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, as_blas(m), as_blas(k), -1.0f, A, as_blas(ld), 1.0f,
                          C, as_blas(ld));
    else
        blas::api().dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, as_blas(m), as_blas(k), -1.0, A, as_blas(ld), 1.0, C,
                          as_blas(ld));
}

template <class T>
bool tiled_cholesky(T* a, Index n, Index ld, int threads) {
    auto at = [a, ld](Index r, Index c) { return a + r * ld + c; };
    for (Index k = 0; k < n; k += kTile) {
        const Index kb = std::min(kTile, n - k);
        T* Lkk = at(k, k);
        if (potrf(Lkk, kb, ld) != 0) return false;
        for (Index i = 0; i < kb; ++i) {
            const T d = Lkk[i * ld + i];
            if (!(d > 0) || !std::isfinite(d)) return false;
        }
        const Index below = n - k - kb;
        if (below == 0) break;
        const Index tiles = (below + kTile - 1) / kTile;
        const bool parallel = threads > 1 && tiles > 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (parallel)
        for (Index t = 0; t < tiles; ++t) {
            const Index i0 = k + kb + t * kTile;
            trsm_right(Lkk, at(i0, k), std::min(kTile, n - i0), kb, ld);
        }
        // Tile row t updates columns [k + kb, i0 + ib) of its rows: the longest rows first.
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (parallel)
        for (Index q = 0; q < tiles; ++q) {
            const Index t = tiles - 1 - q;
            const Index i0 = k + kb + t * kTile, ib = std::min(kTile, n - i0), j0 = k + kb;
            if (i0 > j0) gemm_minus(at(i0, k), at(j0, k), at(i0, j0), ib, i0 - j0, kb, ld);
            syrk_minus(at(i0, k), at(i0, i0), ib, kb, ld);
        }
    }
    return true;
}

}  // namespace

bool cholesky_in_place(DenseMatrix& A, int threads) {
    return tiled_cholesky(A.data(), A.rows(), A.cols(), threads);
}

bool cholesky_in_place(FloatMatrix& A, int threads) {
    return tiled_cholesky(A.data(), A.rows(), A.cols(), threads);
}

Eigen::MatrixXd cholesky_solve(const DenseMatrix& L, const Eigen::MatrixXd& B) {
    Eigen::MatrixXd X = B;
    const Index n = L.rows();
    if (n == 0 || X.cols() == 0) return X;
    const lapack_int m = static_cast<lapack_int>(n), nrhs = static_cast<lapack_int>(X.cols()),
                     lda = static_cast<lapack_int>(L.cols()), ldb = static_cast<lapack_int>(X.rows());
    lapack_int info = 0;
    blas::api().dpotrs("U", &m, &nrhs, L.data(), &lda, X.data(), &ldb, &info, 1);
    return X;
}

Vector cholesky_solve_float(const FloatMatrix& L, const Vector& b) {
    const Index n = L.rows();
    if (n == 0) return b;
    Eigen::VectorXf x = b.cast<float>();
    const lapack_int m = static_cast<lapack_int>(n), nrhs = 1, lda = static_cast<lapack_int>(L.cols());
    lapack_int info = 0;
    blas::api().spotrs("U", &m, &nrhs, L.data(), &lda, x.data(), &m, &info, 1);
    return x.cast<double>();
}

FloatMatrix lower_to_float(const DenseMatrix& A, int threads) {
    const Index n = A.rows();
    FloatMatrix F(n, A.cols());
    const Index chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && chunks > 1)
    for (Index c = 0; c < chunks; ++c) {
        for (Index i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
            F.row(i).head(i + 1) = A.row(i).head(i + 1).cast<float>();
            F.row(i).tail(A.cols() - i - 1).setZero();
        }
    }
    return F;
}

Eigen::MatrixXd parallel_multiply(const DenseMatrix& A, const Eigen::MatrixXd& X, int threads) {
    const Index n = A.rows();
    Eigen::MatrixXd out(n, X.cols());
    const Index chunks = (n + kChunk - 1) / kChunk;
    const bool parallel =
        threads > 1 && chunks > 1 &&
        static_cast<double>(n) * static_cast<double>(A.cols()) * static_cast<double>(X.cols()) >= kParallelProductWork;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (Index c = 0; c < chunks; ++c) {
        const Index r0 = c * kChunk, r = std::min(kChunk, n - r0);
        out.middleRows(r0, r).noalias() = A.middleRows(r0, r) * X;
    }
    return out;
}

CgResult conjugate_gradient(const std::function<Vector(const Vector&)>& apply, const Vector& diagonal, const Vector& b,
                            double tol, int max_iter) {
    CgResult res;
    const Index n = b.size();
    res.x = Vector::Zero(n);
    const double bnorm = b.norm();
    if (bnorm == 0) {
        res.converged = true;
        return res;
    }
    const Vector inv_diag = diagonal.unaryExpr([](double d) { return d > 0 ? 1.0 / d : 1.0; });
    Vector r = b;
    Vector z = inv_diag.cwiseProduct(r);
    Vector p = z;
    double rz = r.dot(z);
    for (int it = 0; it < max_iter; ++it) {
        interruption_point();
        const Vector Ap = apply(p);
        const double pAp = p.dot(Ap);
        if (!(pAp > 0)) break;  // not positive definite to working precision
        const double step = rz / pAp;
        res.x += step * p;
        r -= step * Ap;
        res.iterations = it + 1;
        res.relative_residual = r.norm() / bnorm;
        if (res.relative_residual <= tol) {
            res.converged = true;
            break;
        }
        z = inv_diag.cwiseProduct(r);
        const double rz_new = r.dot(z);
        p = z + (rz_new / rz) * p;
        rz = rz_new;
    }
    return res;
}

CgResult preconditioned_cg(const std::function<Vector(const Vector&)>& apply,
                           const std::function<Vector(const Vector&)>& precondition, const Vector& b, Vector x0,
                           double tol, int max_iter, int stall) {
    CgResult res;
    const Index n = b.size();
    res.x = x0.size() == n ? std::move(x0) : Vector::Zero(n);
    const double bnorm = b.norm();
    if (bnorm == 0) {
        res.x.setZero();
        res.converged = true;
        return res;
    }
    // Restarted from the true residual whenever the recurred one claims convergence:
    // the recurrence drifts from b - A x by rounding, and only the true one counts.
    double last_true = HUGE_VAL;
    while (true) {
        Vector r = b - apply(res.x);
        res.relative_residual = r.norm() / bnorm;
        if (res.relative_residual <= tol) {
            res.converged = true;
            return res;
        }
        if (res.iterations >= max_iter || !(res.relative_residual < 0.5 * last_true)) return res;
        last_true = res.relative_residual;
        double best = res.relative_residual;
        int since_best = 0;
        Vector z = precondition(r);
        Vector p = z;
        double rz = r.dot(z);
        while (res.iterations < max_iter) {
            const Vector Ap = apply(p);
            const double pAp = p.dot(Ap);
            if (!(pAp > 0) || !(rz > 0)) return res;  // not positive definite to working precision
            const double step = rz / pAp;
            res.x += step * p;
            const Vector r_old = r;
            r -= step * Ap;
            ++res.iterations;
            const double rel = r.norm() / bnorm;
            if (rel <= tol) break;
            if (rel < 0.5 * best) {
                best = rel;
                since_best = 0;
            } else if (++since_best >= stall) {
                res.relative_residual = (b - apply(res.x)).norm() / bnorm;
                return res;
            }
            z = precondition(r);
            const double rz_new = r.dot(z);
            p = z + (z.dot(r - r_old) / rz) * p;  // Polak-Ribière
            rz = rz_new;
        }
    }
}

}  // namespace kestrel
