#pragma once
// Shared by the tree tests: the reference data, and estimators built from their
// ModelInfo (as the registry would, without it).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "estimator_test_util.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::tree_test {

using test::load;
using test::make;

inline const Dataset& iris_train() {
    static const Dataset d = load("iris/train.csv", Task::classification);
    return d;
}
inline const Dataset& iris_test() {
    static const Dataset d = load("iris/test.csv", Task::classification);
    return d;
}
inline const Dataset& diabetes_train() {
    static const Dataset d = load("diabetes/train.csv", Task::regression);
    return d;
}
inline const Dataset& diabetes_test() {
    static const Dataset d = load("diabetes/test.csv", Task::regression);
    return d;
}

inline Dataset tiny(DenseMatrix X, Vector y, Task task, Index n_classes = 2) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = task;
    for (Index c = 0; c < (task == Task::classification ? n_classes : 0); ++c)
        d.classes.push_back("c" + std::to_string(c));
    return d;
}

inline double accuracy(const Vector& pred, const Vector& y) {
    double hits = 0;
    for (Index i = 0; i < y.size(); ++i) hits += pred[i] == y[i] ? 1 : 0;
    return hits / static_cast<double>(y.size());
}

inline double r2(const Vector& pred, const Vector& y) {
    const double mean = y.mean();
    return 1.0 - (y - pred).squaredNorm() / (y.array() - mean).square().sum();
}

}  // namespace kestrel::tree_test
