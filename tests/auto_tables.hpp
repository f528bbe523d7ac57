#pragma once
// Small made-up tables the kestrel-auto tests search (unit/model_selection/auto_*_test.cpp,
// unit/tasks/auto_*_test.cpp): each built in code, deterministic, and chosen for what
// the models do on it; and the held-out score the stack tests check fold scores against.
#include <cmath>
#include <string>
#include <utility>

#include "kestrel/core/dataset.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel::test {

// A classifier's log loss on rows it is given (a fold's held-out rows): what the search
// records as that fold's score.
inline double held_out_log_loss(const Model& m, const Dataset& held_out) {
    Predictions p;
    p.task = Task::classification;
    p.classes = held_out.classes;
    p.y_true = held_out.y;
    p.proba = m.predict_proba(held_out.X);
    p.y_pred = m.predict(held_out.X);
    return compute_metric("log_loss", p);
}

// Two noisy interleaved classes on 2 features: no model is perfect, scores differ.
inline Dataset noisy_two_classes(Index n) {
    Dataset d;
    DenseMatrix X(n, 2);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / static_cast<double>(n);
        X(i, 0) = std::sin(37.0 * t) + 0.3 * static_cast<double>(i % 3);
        X(i, 1) = std::cos(23.0 * t) * 2.0 + static_cast<double>(i % 2);
        d.y[i] = (X(i, 0) + 0.5 * X(i, 1) + 0.4 * std::sin(91.0 * t) > 0.6) ? 1 : 0;
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    d.classes = {"a", "b"};
    return d;
}

// XOR of the signs: a tree learns it, a linear model cannot (about 1/2 accuracy).
inline Dataset xor_classes(Index n) {
    Dataset d;
    DenseMatrix X(n, 2);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        X(i, 0) = static_cast<double>(i % 10) - 4.5;
        X(i, 1) = static_cast<double>((i / 10) % 10) - 4.5;
        d.y[i] = (X(i, 0) > 0) != (X(i, 1) > 0) ? 1 : 0;
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    d.classes = {"a", "b"};
    return d;
}

// A smooth regression target on 2 features: a bag's average differs from any one fold model.
inline Dataset wave(Index n) {
    Dataset d;
    DenseMatrix X(n, 2);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / static_cast<double>(n);
        X(i, 0) = std::sin(17.0 * t);
        X(i, 1) = std::cos(29.0 * t) + 0.1 * static_cast<double>(i % 3);
        d.y[i] = 2 * X(i, 0) - X(i, 1) + 0.3 * std::sin(101.0 * t);
    }
    d.X = Features(std::move(X));
    d.task = Task::regression;
    d.feature_names = {"u", "v"};
    return d;
}

}  // namespace kestrel::test
