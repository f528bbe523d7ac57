// Tiled right-looking Cholesky: factor a diagonal tile, solve the tiles below it,
// update the trailing tiles. Each tile operation is a single-threaded Eigen kernel;
// the parallelism is across tiles, whose boundaries never move.
#include "kestrel/kernel_methods/spd_solve.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kestrel {

namespace {
constexpr Index kTile = 256;
constexpr Index kChunk = 256;  // rows per task in parallel_multiply
// Below this many multiply-adds a fork-join costs more than it saves (L-BFGS calls
// parallel_multiply thousands of times on small problems).
constexpr double kParallelWork = 1 << 21;
}  // namespace

bool cholesky_in_place(DenseMatrix& A, int threads) {
    const Index n = A.rows();
    const Index nt = (n + kTile - 1) / kTile;
    auto lo = [](Index t) { return t * kTile; };
    auto len = [n](Index t) { return std::min(kTile, n - t * kTile); };
    for (Index k = 0; k < nt; ++k) {
        Eigen::MatrixXd diag = A.block(lo(k), lo(k), len(k), len(k));
        Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(diag);
        if (llt.info() != Eigen::Success) return false;
        for (Index i = 0; i < len(k); ++i)
            if (!(diag(i, i) > 0) || !std::isfinite(diag(i, i))) return false;
        A.block(lo(k), lo(k), len(k), len(k)) = diag;
        const auto Lkk = diag.triangularView<Eigen::Lower>();
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && nt - k > 2)
        for (Index i = k + 1; i < nt; ++i) {
            // A_ik <- A_ik L_kkᵀ⁻¹, as (L_kk⁻¹ A_ikᵀ)ᵀ on a column-major copy.
            Eigen::MatrixXd t = A.block(lo(i), lo(k), len(i), len(k)).transpose();
            Lkk.solveInPlace(t);
            A.block(lo(i), lo(k), len(i), len(k)) = t.transpose();
        }
        std::vector<std::pair<Index, Index>> tiles;
        for (Index i = k + 1; i < nt; ++i)
            for (Index j = k + 1; j <= i; ++j) tiles.emplace_back(i, j);
        const auto nq = static_cast<Index>(tiles.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && nq > 1)
        for (Index q = 0; q < nq; ++q) {
            const auto [i, j] = tiles[static_cast<std::size_t>(q)];
            A.block(lo(i), lo(j), len(i), len(j)).noalias() -=
                A.block(lo(i), lo(k), len(i), len(k)) * A.block(lo(j), lo(k), len(j), len(k)).transpose();
        }
    }
    return true;
}

Eigen::MatrixXd cholesky_solve(const DenseMatrix& L, const Eigen::MatrixXd& B) {
    Eigen::MatrixXd X = B;
    L.triangularView<Eigen::Lower>().solveInPlace(X);
    L.triangularView<Eigen::Lower>().transpose().solveInPlace(X);
    return X;
}

Eigen::MatrixXd parallel_multiply(const DenseMatrix& A, const Eigen::MatrixXd& X, int threads) {
    const Index n = A.rows();
    Eigen::MatrixXd out(n, X.cols());
    const Index chunks = (n + kChunk - 1) / kChunk;
    const bool parallel = threads > 1 && chunks > 1 &&
                          static_cast<double>(n) * static_cast<double>(A.cols()) * static_cast<double>(X.cols()) >=
                              kParallelWork;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (Index c = 0; c < chunks; ++c) {
        const Index r0 = c * kChunk, r = std::min(kChunk, n - r0);
        out.middleRows(r0, r).noalias() = A.middleRows(r0, r) * X;
    }
    return out;
}

CgResult conjugate_gradient(const std::function<Vector(const Vector&)>& apply, const Vector& diagonal,
                            const Vector& b, double tol, int max_iter) {
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

}  // namespace kestrel
