#pragma once
// Dense symmetric positive definite systems of kernel-matrix size: a tiled Cholesky
// factorisation parallel over tiles (double, or single precision for a preconditioner),
// conjugate gradient, and a parallel symmetric product. Tiles and row chunks have fixed
// sizes and every BLAS/LAPACK call inside a tile is single-threaded, so results never
// depend on the number of threads.
#include <functional>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Row-major single-precision matrix: the float copy of a system that is factorised
// in single precision and refined in double (kernel_ridge's mixed-precision solve).
using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Overwrites the lower triangle of A with L, A = L Lᵀ (the strict upper triangle is
// neither read nor meaningful afterwards). Returns false when a pivot is not positive
// or not finite (A not numerically PD in the matrix's precision).
bool cholesky_in_place(DenseMatrix& A, int threads);
bool cholesky_in_place(FloatMatrix& A, int threads);
// Solves L Lᵀ X = B for L from cholesky_in_place.
Eigen::MatrixXd cholesky_solve(const DenseMatrix& L, const Eigen::MatrixXd& B);
// The same with a single-precision factor: b is rounded to float, solved, widened back.
Vector cholesky_solve_float(const FloatMatrix& L, const Vector& b);
// The lower triangle of A rounded to float (the strict upper triangle left zero), in
// parallel over fixed row chunks.
FloatMatrix lower_to_float(const DenseMatrix& A, int threads);

// A X for a dense (row-major, full) A: fixed row chunks in parallel.
Eigen::MatrixXd parallel_multiply(const DenseMatrix& A, const Eigen::MatrixXd& X, int threads);

struct CgResult {
    Vector x;
    int iterations = 0;
    double relative_residual = 0;  // ||b - A x|| / ||b||
    bool converged = false;
};
// Jacobi-preconditioned conjugate gradient for A x = b, A symmetric positive definite
// given by its product; stops at ||r|| <= tol ||b|| or after max_iter iterations.
CgResult conjugate_gradient(const std::function<Vector(const Vector&)>& apply, const Vector& diagonal,
                            const Vector& b, double tol, int max_iter);

// Conjugate gradient with a general preconditioner z = P r, started from x0. The
// Polak-Ribière step (flexible CG) tolerates a preconditioner applied in lower precision.
// Stops at ||b - A x|| <= tol ||b|| (checked on the true residual, recomputed in full at the
// end), after max_iter iterations, or when `stall` iterations in a row fail to halve the
// best residual so far (the preconditioner is too poor for this system).
CgResult preconditioned_cg(const std::function<Vector(const Vector&)>& apply,
                           const std::function<Vector(const Vector&)>& precondition, const Vector& b, Vector x0,
                           double tol, int max_iter, int stall);

}  // namespace kestrel
