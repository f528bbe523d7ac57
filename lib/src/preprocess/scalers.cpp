// Feature scaling steps: standard (zero mean, unit variance) and minmax (to [-1, 1],
// LIBSVM svm-scale's default range), plus mean imputation of missing values.
#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {
namespace {

Json to_array(const Vector& v) { return Json(std::vector<double>(v.data(), v.data() + v.size())); }

Vector from_array(const Json& j, const char* key) {
    const auto v = j.at(key).get<std::vector<double>>();
    for (double x : v)
        if (!std::isfinite(x)) throw std::runtime_error(std::string("non-finite value in ") + key);
    return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
}

// Applies x -> (x - shift) * scale column-wise. Sparse data keeps its sparsity when
// shift is zero; otherwise it would become dense, which we refuse rather than do silently.
Features affine(const Features& X, const Vector& shift, const Vector& scale, const char* kind) {
    if (X.is_sparse()) {
        if (shift.cwiseAbs().maxCoeff() != 0.0)
            throw UsageError(std::string("--scale ") + kind + " would make sparse data dense; use --scale standard "
                             "(which only rescales sparse columns) or scale the file beforehand");
        SparseMatrix m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) it.valueRef() *= scale[it.col()];
        return m;
    }
    DenseMatrix m = X.dense_ref();
    m = ((m.rowwise() - shift.transpose()).array().rowwise() * scale.transpose().array()).matrix();
    return m;
}

// Column means and standard deviations ignoring NaN (dense) or counting absent
// entries as zeros (sparse).
void column_moments(const Features& X, Vector& mean, Vector& sd) {
    const Index d = X.cols(), n = X.rows();
    mean = Vector::Zero(d);
    Vector sq = Vector::Zero(d);
    if (X.is_sparse()) {
        const auto& m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
                mean[it.col()] += it.value();
                sq[it.col()] += it.value() * it.value();
            }
        mean /= static_cast<double>(n);
        sd = (sq / static_cast<double>(n) - mean.cwiseProduct(mean)).cwiseMax(0.0).cwiseSqrt();
        return;
    }
    // Two passes for accuracy (no catastrophic cancellation on large offsets).
    const auto& m = X.dense_ref();
    mean = m.colwise().mean().transpose();
    sd = ((m.rowwise() - mean.transpose()).array().square().colwise().sum() / static_cast<double>(n)).sqrt().transpose();
}

class StandardScaler final : public Transformer {
public:
    std::string kind() const override { return "standard"; }
    void fit(const Features& X) override {
        Vector sd;
        column_moments(X, mean_, sd);
        if (X.is_sparse()) mean_.setZero();  // sklearn's with_mean=False for sparse input
        // Constant columns are left unscaled (sklearn does the same), never divided by zero.
        scale_ = sd.unaryExpr([](double s) { return s > 1e-300 ? 1.0 / s : 1.0; });
    }
    Features transform(const Features& X) const override { return affine(X, mean_, scale_, "standard"); }
    Json to_json() const override { return {{"type", kind()}, {"mean", to_array(mean_)}, {"scale", to_array(scale_)}}; }
    void from_json(const Json& j) override {
        mean_ = from_array(j, "mean");
        scale_ = from_array(j, "scale");
        if (mean_.size() != scale_.size()) throw std::runtime_error("standard scaler: mean and scale differ in length");
    }

private:
    Vector mean_, scale_;  // x' = (x - mean) * scale
};

class MinMaxScaler final : public Transformer {
public:
    std::string kind() const override { return "minmax"; }
    void fit(const Features& X) override {
        const DenseMatrix* m = nullptr;
        DenseMatrix scratch;
        m = &X.dense(scratch);
        const Vector lo = m->colwise().minCoeff().transpose();
        const Vector hi = m->colwise().maxCoeff().transpose();
        // Map [lo, hi] to [-1, 1]: x' = (x - mid) * 2 / (hi - lo). Constant columns map to 0.
        shift_ = (lo + hi) / 2;
        scale_ = (hi - lo).unaryExpr([](double r) { return r > 0 ? 2.0 / r : 0.0; });
    }
    Features transform(const Features& X) const override { return affine(X, shift_, scale_, "minmax"); }
    Json to_json() const override { return {{"type", kind()}, {"shift", to_array(shift_)}, {"scale", to_array(scale_)}}; }
    void from_json(const Json& j) override {
        shift_ = from_array(j, "shift");
        scale_ = from_array(j, "scale");
        if (shift_.size() != scale_.size()) throw std::runtime_error("minmax scaler: shift and scale differ in length");
    }

private:
    Vector shift_, scale_;
};

class MeanImputer final : public Transformer {
public:
    std::string kind() const override { return "impute_mean"; }
    void fit(const Features& X) override {
        if (X.is_sparse()) {
            fill_ = Vector::Zero(X.cols());
            return;
        }
        const auto& m = X.dense_ref();
        fill_ = Vector::Zero(m.cols());
        Eigen::VectorXi count = Eigen::VectorXi::Zero(m.cols());
        for (Index r = 0; r < m.rows(); ++r)
            for (Index c = 0; c < m.cols(); ++c)
                if (!std::isnan(m(r, c))) {
                    fill_[c] += m(r, c);
                    ++count[c];
                }
        for (Index c = 0; c < m.cols(); ++c) fill_[c] = count[c] ? fill_[c] / count[c] : 0.0;
    }
    Features transform(const Features& X) const override {
        if (X.is_sparse()) return X;
        DenseMatrix m = X.dense_ref();
        for (Index r = 0; r < m.rows(); ++r)
            for (Index c = 0; c < m.cols(); ++c)
                if (std::isnan(m(r, c))) m(r, c) = fill_[c];
        return m;
    }
    Json to_json() const override { return {{"type", kind()}, {"fill", to_array(fill_)}}; }
    void from_json(const Json& j) override { fill_ = from_array(j, "fill"); }

private:
    Vector fill_;
};

}  // namespace

std::unique_ptr<Transformer> make_transformer(const std::string& kind) {
    if (kind == "standard") return std::make_unique<StandardScaler>();
    if (kind == "minmax") return std::make_unique<MinMaxScaler>();
    if (kind == "impute_mean") return std::make_unique<MeanImputer>();
    throw UsageError("unknown preprocessing step '" + kind + "' (valid: standard, minmax, impute_mean)");
}

std::unique_ptr<Transformer> transformer_from_json(const Json& j) {
    auto t = make_transformer(j.at("type").get<std::string>());
    t->from_json(j);
    return t;
}

}  // namespace kestrel
