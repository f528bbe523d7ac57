#pragma once
// Probability calibration of a fitted classifier's scores (scikit-learn 1.2's
// CalibratedClassifierCV with ensemble=False, once the out-of-fold scores are given):
// a binary model has one calibrator on its positive-class score; a k-class model one per
// class on its one-vs-rest score column, whose outputs are then normalised per row.
// Knows no model: it maps score matrices to probability matrices.
#include <span>
#include <string>
#include <vector>

#include "kestrel/calibration/isotonic.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

class Calibration {
public:
    // "sigmoid" or "isotonic"; UsageError naming the option calibrate otherwise.
    static void check_method(const std::string& method);

    // `scores`: one row per training row, each scored by a model that did not see it;
    // one column (binary: the score of class 1) or one per class. `class_index` holds
    // 0..n_classes-1. UsageError when a column count does not fit the class count.
    static Calibration fit(const std::string& method, const Matrix& scores, const Vector& class_index, Index n_classes,
                           std::span<const double> weights = {});

    // Calibrated probabilities, n × n_classes: binary [1 - p, p]; k classes each column's
    // calibrated score divided by the row's sum (1/k each when the sum is 0), and values
    // within 1e-5 above 1 set to 1, as scikit-learn.
    Matrix probabilities(const Matrix& scores) const;

    const std::string& method() const { return method_; }
    Index n_classes() const { return n_classes_; }
    // The score columns it takes: 1 for two classes, else the class count.
    Index n_columns() const { return n_classes_ == 2 ? 1 : n_classes_; }
    // The fitted maps, one per column: sigmoid's (a, b) (p = 1 / (1 + exp(a s + b))), or
    // isotonic's knots (the other method's lists are empty). For writing a model out.
    const std::vector<double>& sigmoid_a() const { return a_; }
    const std::vector<double>& sigmoid_b() const { return b_; }
    const std::vector<IsotonicFit>& isotonic_maps() const { return isotonic_; }

    // {"method", "classes", "calibrators": [{"a","b"} | {"x","y"}]}
    Json to_json() const;
    // DataError with what is wrong.
    static Calibration from_json(const Json& j);

private:
    std::string method_;
    Index n_classes_ = 0;
    std::vector<double> a_, b_;               // sigmoid: one (a, b) per column
    std::vector<IsotonicFit> isotonic_;        // isotonic: one map per column
    double calibrated(Index column, double score) const;
};

}  // namespace kestrel
