#include "kestrel/calibration/calibration.hpp"

#include <cmath>
#include <cstdint>

#include "kestrel/calibration/sigmoid.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

void Calibration::check_method(const std::string& method) {
    if (method != "sigmoid" && method != "isotonic")
        throw UsageError(option_named("calibrate") + ": '" + method + "' is not one of sigmoid, isotonic");
}

Calibration Calibration::fit(const std::string& method, const Matrix& scores, const Vector& class_index,
                             Index n_classes, std::span<const double> weights) {
    check_method(method);
    Calibration c;
    c.method_ = method;
    c.n_classes_ = n_classes;
    if (n_classes < 2) throw UsageError("calibration needs two classes or more");
    if (scores.cols() != c.n_columns())
        throw UsageError("calibration of " + std::to_string(n_classes) + " classes needs " +
                         std::to_string(c.n_columns()) + " score columns, the model gives " +
                         std::to_string(scores.cols()));
    const auto n = static_cast<std::size_t>(scores.rows());
    std::vector<double> column(n), target(n);
    std::vector<std::int8_t> label(n);
    for (Index k = 0; k < c.n_columns(); ++k) {
        // Binary: the single column is class 1's score (label_binarize's one column).
        const Index positive = n_classes == 2 ? 1 : k;
        for (std::size_t i = 0; i < n; ++i) {
            column[i] = scores(static_cast<Index>(i), k);
            const bool is_positive = static_cast<Index>(class_index[static_cast<Index>(i)]) == positive;
            target[i] = is_positive ? 1.0 : 0.0;
            label[i] = is_positive ? 1 : -1;
        }
        if (method == "sigmoid") {
            const SigmoidFit s = fit_sigmoid(column, label, weights);
            c.a_.push_back(s.a);
            c.b_.push_back(s.b);
        } else {
            c.isotonic_.push_back(fit_isotonic(column, target, weights));
        }
    }
    return c;
}

double Calibration::calibrated(Index column, double score) const {
    const auto k = static_cast<std::size_t>(column);
    if (method_ == "sigmoid") return sigmoid_probability(score, a_[k], b_[k]);
    return isotonic_[k](score);
}

Matrix Calibration::probabilities(const Matrix& scores) const {
    if (scores.cols() != n_columns())
        throw InternalError("calibration takes " + std::to_string(n_columns()) + " score columns, given " +
                            std::to_string(scores.cols()));
    Matrix p(scores.rows(), n_classes_);
    for (Index i = 0; i < scores.rows(); ++i) {
        if (n_classes_ == 2) {
            p(i, 1) = calibrated(0, scores(i, 0));
            p(i, 0) = 1.0 - p(i, 1);
        } else {
            for (Index k = 0; k < n_classes_; ++k) p(i, k) = calibrated(k, scores(i, k));
            const double sum = p.row(i).sum();
            if (sum != 0)
                p.row(i) /= sum;
            else
                p.row(i).setConstant(1.0 / static_cast<double>(n_classes_));
        }
        for (Index k = 0; k < n_classes_; ++k)
            if (p(i, k) > 1.0 && p(i, k) <= 1.0 + 1e-5) p(i, k) = 1.0;
    }
    return p;
}

Json Calibration::to_json() const {
    Json j;
    j["method"] = method_;
    j["classes"] = n_classes_;
    Json list = Json::array();
    for (Index k = 0; k < n_columns(); ++k) {
        const auto u = static_cast<std::size_t>(k);
        if (method_ == "sigmoid")
            list.push_back({{"a", a_[u]}, {"b", b_[u]}});
        else
            list.push_back({{"x", isotonic_[u].x}, {"y", isotonic_[u].y}});
    }
    j["calibrators"] = std::move(list);
    return j;
}

Calibration Calibration::from_json(const Json& j) {
    const auto fail = [](const std::string& why) { return DataError("calibration: " + why); };
    if (!j.is_object()) throw fail("not an object");
    Calibration c;
    c.method_ = j.at("method").get<std::string>();
    if (c.method_ != "sigmoid" && c.method_ != "isotonic") throw fail("unknown method '" + c.method_ + "'");
    if (!j.at("classes").is_number_integer() || j["classes"].get<std::int64_t>() < 2 ||
        j["classes"].get<std::int64_t>() > (std::int64_t{1} << 31))
        throw fail("class count must be an integer of 2 or more");
    c.n_classes_ = static_cast<Index>(j["classes"].get<std::int64_t>());
    const Json& list = j.at("calibrators");
    if (!list.is_array() || static_cast<Index>(list.size()) != c.n_columns())
        throw fail("expected " + std::to_string(c.n_columns()) + " calibrators");
    for (const Json& e : list) {
        if (c.method_ == "sigmoid") {
            const double a = e.at("a").get<double>(), b = e.at("b").get<double>();
            if (!std::isfinite(a) || !std::isfinite(b)) throw fail("sigmoid a and b must be finite");
            c.a_.push_back(a);
            c.b_.push_back(b);
            continue;
        }
        IsotonicFit f{e.at("x").get<std::vector<double>>(), e.at("y").get<std::vector<double>>()};
        if (f.x.empty() || f.x.size() != f.y.size()) throw fail("isotonic x and y must be non-empty and equally long");
        for (std::size_t i = 0; i < f.x.size(); ++i) {
            if (!std::isfinite(f.x[i]) || !std::isfinite(f.y[i])) throw fail("isotonic knots must be finite");
            if (i > 0 && !(f.x[i - 1] < f.x[i] && f.y[i - 1] <= f.y[i]))
                throw fail("isotonic knots must increase in x and not decrease in y");
        }
        c.isotonic_.push_back(std::move(f));
    }
    return c;
}

}  // namespace kestrel
