#pragma once
// Shared by the linear tests: loading the reference data, building an estimator from
// its ModelInfo, and a central-difference gradient for checking objectives.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "estimator_test_util.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/optim/objective.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::linear_test {

using test::load;
using test::make;

// Fixed references, read once per test binary.
inline const Dataset& diabetes() {
    static const Dataset d = load("diabetes/train.csv", Task::regression);
    return d;
}
inline const Dataset& breast_cancer() {
    static const Dataset d = load("breast_cancer/train.scaled.csv", Task::classification);
    return d;
}
// The same rows scaled to [-1,1] (as svm-scale), in CSV and in LIBSVM form.
inline const Dataset& diabetes_scaled() {
    static const Dataset d = load("diabetes/train.scaled.csv", Task::regression);
    return d;
}
inline const Dataset& diabetes_scaled_libsvm() {
    static const Dataset d = load("diabetes/train.scaled.libsvm", Task::regression);
    return d;
}
inline const Dataset& iris() {
    static const Dataset d = load("iris/train.csv", Task::classification);
    return d;
}

inline Dataset with_sparse_features(const Dataset& d) {
    Dataset s = d;
    s.X = Features(SparseMatrix(d.X.to_dense().sparseView()));
    return s;
}

// Rows `rows` of d, in that order (duplicates allowed).
inline Dataset take_rows(const Dataset& d, std::vector<Index> rows) { return d.subset(rows); }

inline Vector central_difference_gradient(Objective& f, const Vector& w, double h = 1e-6) {
    Vector g(w.size()), scratch;
    for (Index j = 0; j < w.size(); ++j) {
        Vector wp = w, wm = w;
        wp[j] += h;
        wm[j] -= h;
        g[j] = (f.value_gradient(wp, scratch) - f.value_gradient(wm, scratch)) / (2 * h);
    }
    return g;
}

// max_j |a_j - b_j| / max(1, max_j |b_j|)
inline double relative_error(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace kestrel::linear_test
