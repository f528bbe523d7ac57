#pragma once
// Small synthetic datasets for tests that run over every model.
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel::test {

// k well-separated Gaussian blobs in d dimensions, n rows, labels "c0".."c{k-1}".
inline Dataset blobs(Index n, Index d, Index k, std::uint64_t seed = 7) {
    Rng rng(seed);
    Dataset ds;
    ds.task = Task::classification;
    DenseMatrix X(n, d);
    ds.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const Index c = i % k;
        ds.y[i] = static_cast<double>(c);
        for (Index j = 0; j < d; ++j) X(i, j) = (j % k == c ? 3.0 : 0.0) + rng.normal();
    }
    ds.X = X;
    for (Index c = 0; c < k; ++c) ds.classes.push_back("c" + std::to_string(c));
    for (Index j = 0; j < d; ++j) ds.feature_names.push_back("x" + std::to_string(j));
    ds.source = "blobs";
    return ds;
}

// y = 1 + 2 x0 - x1 + noise.
inline Dataset linear_regression(Index n, Index d, double noise = 0.1, std::uint64_t seed = 11) {
    Rng rng(seed);
    Dataset ds;
    ds.task = Task::regression;
    DenseMatrix X(n, d);
    ds.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
        ds.y[i] = 1.0 + 2.0 * X(i, 0) - (d > 1 ? X(i, 1) : 0.0) + noise * rng.normal();
    }
    ds.X = X;
    for (Index j = 0; j < d; ++j) ds.feature_names.push_back("x" + std::to_string(j));
    ds.source = "linear";
    return ds;
}

}  // namespace kestrel::test
