#pragma once
// Dense symmetric positive definite systems of kernel-matrix size: a tiled Cholesky
// factorisation parallel over tiles, conjugate gradient, and a parallel symmetric
// product. Tiles and row chunks have fixed sizes, so results never depend on the
// number of threads.
#include <functional>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Overwrites the lower triangle of A with L, A = L Lᵀ (the strict upper triangle is
// left as garbage). Returns false when a pivot is not positive (A not numerically PD).
bool cholesky_in_place(DenseMatrix& A, int threads);
// Solves L Lᵀ X = B for L from cholesky_in_place.
Eigen::MatrixXd cholesky_solve(const DenseMatrix& L, const Eigen::MatrixXd& B);

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

}  // namespace kestrel
