#pragma once
// XGBoost 1.7's links in float32 (src/common/math.h, src/objective/), for the gbdt models
// read from its files (Gbdt's xgboost_float32): its objectives transform the float32 margins
// in place. Private to gbdt_model.cpp; header-only so that it adds no source to the unity
// batches.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/boosting/losses.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/estimator.hpp"  // Matrix

namespace kestrel::detail {

// count:poisson, reg:gamma, reg:tweedie: expf.
inline double xgboost_exp(float margin) {
    return static_cast<double>(std::exp(margin));
}

// common::Sigmoid: 1 / (expf(min(−x, 88.7)) + 1 + 1e−16), every step in float.
inline float xgboost_sigmoid(float x) {
    constexpr float kEps = 1e-16F;
    const float e = std::exp(std::min(-x, 88.7F));
    const float denom = e + 1.0F + kEps;
    return 1.0F / denom;
}

// common::Softmax over one row's K float32 margins: the largest subtracted (fmaxf), each
// expf in float, their sum in double, each divided by the sum rounded to float.
inline void xgboost_softmax(float* f, Index K) {
    float top = f[0];
    for (Index c = 1; c < K; ++c) top = std::fmax(f[c], top);
    double sum = 0;
    for (Index c = 0; c < K; ++c) {
        f[c] = std::exp(f[c] - top);
        sum += static_cast<double>(f[c]);
    }
    for (Index c = 0; c < K; ++c) f[c] /= static_cast<float>(sum);
}

// Loss::probabilities as XGBoost's binary:logistic (P(classes[1]) in float, classes[0]'s
// 1 − P) and multi:softprob compute them from the float32 margins.
inline Matrix xgboost_probabilities(LossKind loss, const Matrix& raw) {
    const Index n = raw.rows();
    if (loss == LossKind::logistic) {
        Matrix p(n, 2);
        for (Index i = 0; i < n; ++i) {
            p(i, 1) = static_cast<double>(xgboost_sigmoid(static_cast<float>(raw(i, 0))));
            p(i, 0) = 1 - p(i, 1);
        }
        return p;
    }
    const Index K = raw.cols();
    Matrix p(n, K);
    std::vector<float> f(static_cast<std::size_t>(K));
    for (Index i = 0; i < n; ++i) {
        for (Index c = 0; c < K; ++c) f[static_cast<std::size_t>(c)] = static_cast<float>(raw(i, c));
        xgboost_softmax(f.data(), K);
        for (Index c = 0; c < K; ++c) p(i, c) = static_cast<double>(f[static_cast<std::size_t>(c)]);
    }
    return p;
}

}  // namespace kestrel::detail
