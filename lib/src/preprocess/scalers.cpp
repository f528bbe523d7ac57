// Feature scaling steps: standard (zero mean, unit variance) and minmax (to [-1, 1],
// LIBSVM svm-scale's default range), plus mean imputation of missing values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/cell_scans.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/preprocess/column_selector.hpp"
#include "kestrel/preprocess/encoders.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {
namespace {

Json to_array(const Vector& v) { return Json(std::vector<double>(v.data(), v.data() + v.size())); }

Vector from_array(const Json& j, const char* key) {
    const auto v = j.at(key).get<std::vector<double>>();
    for (double x : v)
        if (!std::isfinite(x)) throw ModelStateError(std::string("non-finite value in ") + key);
    return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
}

void check_width(const Features& X, Index expected, const std::string& kind) {
    if (X.cols() != expected)
        throw DataError(kind + ": data has " + std::to_string(X.cols()) + " features, the step expects " +
                        std::to_string(expected));
}

// Whether every column with a non-zero shift has an entry stored in every row.
bool shifted_columns_stored(const SparseMatrix& m, const Vector& shift) {
    Eigen::VectorXi stored = Eigen::VectorXi::Zero(m.cols());
    for (Index i = 0; i < m.nonZeros(); ++i) ++stored[m.innerIndexPtr()[i]];
    for (Index j = 0; j < m.cols(); ++j)
        if (shift[j] != 0.0 && stored[j] != m.rows()) return false;
    return true;
}

// The columns a scaler fitted with roles scales: the numeric ones. nullopt when the
// roles do not describe X, or when X is sparse and a numeric column is not stored in
// every row (a LIBSVM file, whose absent entries are zeros: the plain sparse fit,
// with_mean=False, applies).
// Rows spread over ranks (`sharded`): stored in every row of every rank.
std::optional<std::vector<Index>> scaled_columns(const Features& X, const std::vector<Index>& roles, bool sharded) {
    if (roles.empty() || static_cast<Index>(roles.size()) != X.cols()) return std::nullopt;
    std::vector<Index> numeric;
    for (std::size_t j = 0; j < roles.size(); ++j)
        if (roles[j] == kNumericColumn) numeric.push_back(static_cast<Index>(j));
    if (X.is_sparse()) {
        Vector marker = Vector::Zero(X.cols());
        for (Index j : numeric) marker[j] = 1;
        double missing = shifted_columns_stored(X.sparse_ref(), marker) ? 0.0 : 1.0;
        sum_over_ranks(sharded, std::span<double>(&missing, 1));
        if (missing > 0) return std::nullopt;
    }
    return numeric;
}

// The given columns of X as a dense matrix. A scaler fits its numeric columns on this
// copy whether the rows are dense or sparse (a one-hot output), so both give the same bits.
DenseMatrix gather_columns(const Features& X, const std::vector<Index>& columns) {
    DenseMatrix out(X.rows(), static_cast<Index>(columns.size()));
    if (!X.is_sparse()) {
        const DenseView m = X.dense_ref();
        for (std::size_t k = 0; k < columns.size(); ++k) out.col(static_cast<Index>(k)) = m.col(columns[k]);
        return out;
    }
    out.setZero();
    std::vector<Index> place(static_cast<std::size_t>(X.cols()), -1);
    for (std::size_t k = 0; k < columns.size(); ++k) place[static_cast<std::size_t>(columns[k])] = static_cast<Index>(k);
    const SparseMatrix& m = X.sparse_ref();
    for (Index r = 0; r < m.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(m, r); it; ++it)
            if (const Index k = place[static_cast<std::size_t>(it.col())]; k >= 0) out(r, k) = it.value();
    return out;
}

// A scaler's (shift, scale) fitted on `columns` of `width`, spread to all of them:
// 0 and 1 (left as they are) elsewhere.
void spread_to_width(const Vector& part_shift, const Vector& part_scale, const std::vector<Index>& columns, Index width,
                     Vector& shift, Vector& scale) {
    shift = Vector::Zero(width);
    scale = Vector::Ones(width);
    for (std::size_t k = 0; k < columns.size(); ++k) {
        shift[columns[k]] = part_shift[static_cast<Index>(k)];
        scale[columns[k]] = part_scale[static_cast<Index>(k)];
    }
}

// A scaler fitted with column roles: a scaler of its kind fitted on the numeric columns
// gathered, its (shift, scale) spread to the width; when the roles cannot be used, fitted
// on every column, with the non-numeric ones left as they are. `members` names the
// scaler's (shift, scale). Returns whether the numeric columns were fitted gathered (read
// as values: dense, or stored in every sparse row). `sharded`: X is this rank's part of
// rows spread over ranks, and the scalers fit with fit_sharded.
template <class Scaler, class Members>
bool fit_numeric_columns(Scaler& self, const Features& X, const std::vector<Index>& roles, Members members,
                         bool sharded = false) {
    const std::optional<std::vector<Index>> numeric = scaled_columns(X, roles, sharded);
    auto [shift, scale] = members(self);
    const auto fit = [sharded](Scaler& s, const Features& F) { sharded ? s.fit_sharded(F) : s.fit(F); };
    if (!numeric) {
        fit(self, X);
        for (std::size_t j = 0; j < roles.size(); ++j)
            if (roles[j] != kNumericColumn) shift[static_cast<Index>(j)] = 0, scale[static_cast<Index>(j)] = 1;
        return false;
    }
    if (!X.is_sparse() && numeric->size() == static_cast<std::size_t>(X.cols())) {
        fit(self, X);  // every column numeric: the gathered copy would be X itself
        return true;
    }
    Scaler part;
    fit(part, Features(gather_columns(X, *numeric)));
    const auto [part_shift, part_scale] = members(part);
    spread_to_width(part_shift, part_scale, *numeric, X.cols(), shift, scale);
    return true;
}

// (x - shift) * scale of each dense cell, read from the rows and written to a new matrix in
// one pass: the same two roundings per cell as Eigen's broadcast expressions, without their
// copy first and their per-cell broadcast (a fit's scaling was a tenth of a logistic fit).
DenseMatrix affine_rows(const DenseView& X, const Vector& shift, const Vector& scale) {
    DenseMatrix out(X.rows(), X.cols());
    const Index d = X.cols();
    const double* s = shift.data();
    const double* c = scale.data();
    for (Index i = 0; i < X.rows(); ++i) {
        const double* x = X.data() + i * X.outerStride();
        double* o = out.data() + i * d;
        for (Index j = 0; j < d; ++j) o[j] = (x[j] - s[j]) * c[j];
    }
    return out;
}

// Applies x -> (x - shift) * scale column-wise. Sparse data keeps its sparsity when
// shift is zero. A shift on sparse rows makes them dense: done when the step was fitted
// on dense rows (`fitted_dense`: the model then expects dense rows, such as a LIBSVM
// file read dense for training and sparse by kestrel-predict's stream), refused
// otherwise rather than done silently to data that was sparse all along.
Features affine(const Features& X, const Vector& shift, const Vector& scale, const char* kind,
                bool fitted_dense) {
    // A model file whose scaler is wider or narrower than the data (found by fuzzing).
    check_width(X, scale.size(), kind);
    if (X.is_sparse() && shift.cwiseAbs().maxCoeff() != 0.0 && shifted_columns_stored(X.sparse_ref(), shift)) {
        // Every shifted column is stored in every row (a sparse one-hot output's numeric
        // columns): shift the stored values, the same expression per cell as the dense branch.
        SparseMatrix m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it)
                it.valueRef() = (it.value() - shift[it.col()]) * scale[it.col()];
        return m;
    }
    if (X.is_sparse() && fitted_dense && shift.cwiseAbs().maxCoeff() != 0.0) {
        // The same expression as the dense branch, so the rows equal those read dense.
        DenseMatrix m = X.to_dense();
        m = ((m.rowwise() - shift.transpose()).array().rowwise() * scale.transpose().array()).matrix();
        return m;
    }
    if (X.is_sparse()) {
        if (shift.cwiseAbs().maxCoeff() != 0.0)
            throw UsageError(option_named("scale") + " " + kind + " would make sparse data dense; use " +
                             option_named("scale") +
                             " standard (which only rescales sparse columns) or scale the file "
                             "beforehand");
        SparseMatrix m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) it.valueRef() *= scale[it.col()];
        return m;
    }
    return affine_rows(X.dense_ref(), shift, scale);
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

// The same moments computed on each column divided by its largest magnitude, for
// columns whose sums or squares overflow (values near 1e300: squares exceed the
// double range and the plain formula gives an infinite deviation, which would wipe
// the column out). Only used when the plain moments are not finite, so ordinary data
// keeps its bit-exact results.
void column_moments_rescaled(const Features& X, Vector& mean, Vector& sd) {
    const Index d = X.cols();
    const auto n = static_cast<double>(X.rows());
    Vector peak = Vector::Zero(d);
    if (X.is_sparse()) {
        const auto& m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it)
                peak[it.col()] = std::max(peak[it.col()], std::abs(it.value()));
    } else {
        peak = X.dense_ref().cwiseAbs().colwise().maxCoeff().transpose();
    }
    peak = peak.unaryExpr([](double p) { return p > 0 && std::isfinite(p) ? p : 1.0; });
    Vector sum = Vector::Zero(d), sq = Vector::Zero(d);
    if (X.is_sparse()) {
        const auto& m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
                const double u = it.value() / peak[it.col()];
                sum[it.col()] += u;
                sq[it.col()] += u * u;
            }
        const Vector mu = sum / n;
        mean = mu.cwiseProduct(peak);
        sd = (sq / n - mu.cwiseProduct(mu)).cwiseMax(0.0).cwiseSqrt().cwiseProduct(peak);
        return;
    }
    const auto& m = X.dense_ref();
    const DenseMatrix u = m * peak.cwiseInverse().asDiagonal();
    const Vector mu = u.colwise().mean().transpose();
    mean = mu.cwiseProduct(peak);
    sd = ((u.rowwise() - mu.transpose()).array().square().colwise().sum() / n).sqrt().transpose();
    sd = sd.cwiseProduct(peak);
}

// Whether a column that is not constant got a deviation so small that its squares
// underflowed (values near 1e-300): the rescaled moments then recover it.
bool has_underflowed(const Features& X, const Vector& sd) {
    constexpr double kTiny = 1e-150;
    if (!(sd.array() < kTiny).any()) return false;
    if (!X.is_sparse()) {
        const auto& m = X.dense_ref();
        for (Index j = 0; j < m.cols(); ++j)
            if (sd[j] < kTiny && m.col(j).maxCoeff() != m.col(j).minCoeff()) return true;
        return false;
    }
    // Sparse: a column with a stored nonzero differs from its implicit zeros, or from
    // another stored value (a column stored full and constant is the only exception).
    const auto& m = X.sparse_ref();
    Vector first = Vector::Constant(m.cols(), std::numeric_limits<double>::quiet_NaN());
    Eigen::VectorXi stored = Eigen::VectorXi::Zero(m.cols());
    bool varies = false;
    for (Index r = 0; r < m.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
            const Index j = it.col();
            if (sd[j] >= kTiny || it.value() == 0) continue;
            if (std::isnan(first[j])) first[j] = it.value();
            else if (first[j] != it.value()) varies = true;
            ++stored[j];
        }
    for (Index j = 0; j < m.cols() && !varies; ++j) varies = stored[j] > 0 && stored[j] < m.rows();
    return varies;
}

// Per-column mean and deviation (or min and max) of the non-missing cells, for a
// dense table with NaN cells (a model that takes missing values natively): scikit-learn's
// scalers ignore NaN in fit and keep it in transform, as affine() does.
void nan_moments(const DenseView& m, Vector& mean, Vector& sd) {
    mean = Vector::Zero(m.cols());
    sd = Vector::Zero(m.cols());
    for (Index j = 0; j < m.cols(); ++j) {
        double sum = 0;
        Index n = 0;
        for (Index r = 0; r < m.rows(); ++r)
            if (!std::isnan(m(r, j))) sum += m(r, j), ++n;
        if (n == 0) continue;
        const double mu = sum / static_cast<double>(n);
        double sq = 0;
        for (Index r = 0; r < m.rows(); ++r)
            if (!std::isnan(m(r, j))) sq += (m(r, j) - mu) * (m(r, j) - mu);
        mean[j] = mu;
        sd[j] = std::sqrt(sq / static_cast<double>(n));
    }
}

void nan_range(const DenseView& m, Vector& lo, Vector& hi) {
    lo = Vector::Zero(m.cols());
    hi = Vector::Zero(m.cols());
    for (Index j = 0; j < m.cols(); ++j) {
        bool any = false;
        for (Index r = 0; r < m.rows(); ++r) {
            const double x = m(r, j);
            if (std::isnan(x)) continue;
            lo[j] = any ? std::min(lo[j], x) : x;
            hi[j] = any ? std::max(hi[j], x) : x;
            any = true;
        }
    }
}

bool dense_with_nan(const Features& X) { return !X.is_sparse() && has_nan_cell(X.dense_ref()); }

// ---- the same statistics over rows spread over MPI ranks (Transformer::fit_on_shards) ----

// Per-column minimum and maximum of every rank's values (NaN skipped; a sparse row's
// absent entries are zeros, as the dense copy the one-process fit reads): one message of
// 2d maxima. A column without a value anywhere gets lo = +inf, hi = −inf.
void column_range_over_ranks(const Features& X, Vector& lo, Vector& hi) {
    const Index d = X.cols();
    Vector top = Vector::Constant(2 * d, -std::numeric_limits<double>::infinity());  // max x, then max −x
    const auto see = [&](Index j, double x) {
        if (std::isnan(x)) return;
        top[j] = std::max(top[j], x);
        top[d + j] = std::max(top[d + j], -x);
    };
    if (X.is_sparse()) {
        const SparseMatrix& m = X.sparse_ref();
        Eigen::VectorXi stored = Eigen::VectorXi::Zero(d);
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
                see(it.col(), it.value());
                ++stored[it.col()];
            }
        for (Index j = 0; j < d; ++j)
            if (stored[j] < m.rows()) see(j, 0.0);
    } else {
        const DenseView m = X.dense_ref();
        for (Index j = 0; j < d; ++j)
            for (Index r = 0; r < m.rows(); ++r) see(j, m(r, j));
    }
    max_over_ranks(true, std::span<double>(top.data(), static_cast<std::size_t>(top.size())));
    hi = top.head(d);
    lo = -top.tail(d);
}

// The moments column_moments, column_moments_rescaled and nan_moments give on one
// process, over every rank's rows: dense in two rounds, as their two passes (the count
// and sum of each column's non-NaN cells, then Σ(u − mean)²); sparse in one, as its
// one-pass formula (Σu, Σu²). u = x · (1/peak) dense, x / peak sparse, as the rescaled
// moments divide (peak = 1: u = x exactly). `any_nan`: some rank's dense rows hold NaN.
void column_moments_over_ranks(const Features& X, const Vector& peak, Vector& mean, Vector& sd, bool& any_nan) {
    const Index d = X.cols();
    const auto span_of = [](Vector& v) { return std::span<double>(v.data(), static_cast<std::size_t>(v.size())); };
    Vector first = Vector::Zero(2 * d + 1);  // per column: count (dense) or Σu² (sparse), Σu; then the rows
    first[2 * d] = static_cast<double>(X.rows());
    if (X.is_sparse()) {
        const SparseMatrix& m = X.sparse_ref();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
                const double u = it.value() / peak[it.col()];
                first[it.col()] += u * u;
                first[d + it.col()] += u;
            }
        sum_over_ranks(true, span_of(first));
        const double n = first[2 * d];
        const Vector mu = first.segment(d, d) / n;
        sd = (first.head(d) / n - mu.cwiseProduct(mu)).cwiseMax(0.0).cwiseSqrt().cwiseProduct(peak);
        mean = mu.cwiseProduct(peak);
        any_nan = false;
        return;
    }
    const DenseView m = X.dense_ref();
    const Vector inverse = peak.cwiseInverse();
    for (Index j = 0; j < d; ++j)
        for (Index r = 0; r < m.rows(); ++r)
            if (const double x = m(r, j); !std::isnan(x)) first[j] += 1, first[d + j] += x * inverse[j];
    sum_over_ranks(true, span_of(first));
    any_nan = (first.head(d).array() < first[2 * d]).any();
    Vector mu = Vector::Zero(d);
    for (Index j = 0; j < d; ++j)
        if (first[j] > 0) mu[j] = first[d + j] / first[j];
    Vector squares = Vector::Zero(d);
    for (Index j = 0; j < d; ++j)
        for (Index r = 0; r < m.rows(); ++r)
            if (const double x = m(r, j); !std::isnan(x)) {
                const double c = x * inverse[j] - mu[j];
                squares[j] += c * c;
            }
    sum_over_ranks(true, span_of(squares));
    sd = Vector::Zero(d);
    for (Index j = 0; j < d; ++j)
        if (first[j] > 0) sd[j] = std::sqrt(squares[j] / first[j]) * peak[j];
    mean = mu.cwiseProduct(peak);
}

// 1 / sd per column; constant columns (and those whose 1 / sd overflows) are left
// unscaled, as scikit-learn leaves them, never divided by zero.
Vector scale_for(const Vector& sd) {
    return sd.unaryExpr([](double s) { return s > 0 && std::isfinite(1.0 / s) ? 1.0 / s : 1.0; });
}

class StandardScaler final : public Transformer {
public:
    std::string kind() const override { return "standard"; }
    void fit(const Features& X) override {
        if (dense_with_nan(X)) {
            Vector sd;
            nan_moments(X.dense_ref(), mean_, sd);
            scale_ = scale_for(sd);
            return;
        }
        Vector sd;
        column_moments(X, mean_, sd);
        if (!mean_.allFinite() || !sd.allFinite() || has_underflowed(X, sd)) column_moments_rescaled(X, mean_, sd);
        if (X.is_sparse()) mean_.setZero();  // sklearn's with_mean=False for sparse input
        scale_ = scale_for(sd);
    }
    // Categorical codes and 0/1 columns are not scaled (scikit-learn users scale the
    // numeric columns only, in a ColumnTransformer).
    void fit(const Features& X, const std::vector<Index>& roles) override {
        fit_numeric_columns(*this, X, roles, [](StandardScaler& s) { return std::tie(s.mean_, s.scale_); });
    }
    bool fits_on_shards() const override { return true; }
    void fit_on_shards(const Features& X, const std::vector<Index>& roles) override {
        fit_numeric_columns(
            *this, X, roles, [](StandardScaler& s) { return std::tie(s.mean_, s.scale_); }, true);
    }
    // fit() on every rank's rows: the same moments, the same fallbacks for columns whose
    // squares overflow or underflow (decided on the summed moments, so on every rank alike).
    void fit_sharded(const Features& X) {
        Vector sd;
        bool any_nan = false;
        column_moments_over_ranks(X, Vector::Ones(X.cols()), mean_, sd, any_nan);
        if (!any_nan) {
            bool rescale = !mean_.allFinite() || !sd.allFinite();
            Vector lo, hi;
            if (rescale || (sd.array() < 1e-150).any()) {
                column_range_over_ranks(X, lo, hi);
                // has_underflowed: a tiny deviation in a column whose values differ
                for (Index j = 0; j < X.cols() && !rescale; ++j) rescale = sd[j] < 1e-150 && hi[j] > lo[j];
            }
            if (rescale) {
                const Vector peak = lo.cwiseAbs().cwiseMax(hi.cwiseAbs()).unaryExpr(
                    [](double p) { return p > 0 && std::isfinite(p) ? p : 1.0; });
                column_moments_over_ranks(X, peak, mean_, sd, any_nan);
            }
        }
        if (X.is_sparse()) mean_.setZero();
        scale_ = scale_for(sd);
    }
    // Its mean is non-zero only when fitted on dense rows (sparse: with_mean=False).
    Features transform(const Features& X) const override { return affine(X, mean_, scale_, "standard", true); }
    std::optional<std::vector<Index>> output_sources(Index in_width) const override { return same_columns(in_width); }
    Json to_json() const override { return {{"type", kind()}, {"mean", to_array(mean_)}, {"scale", to_array(scale_)}}; }
    void from_json(const Json& j) override {
        mean_ = from_array(j, "mean");
        scale_ = from_array(j, "scale");
        if (mean_.size() != scale_.size()) throw ModelStateError("standard scaler: mean and scale differ in length");
    }

private:
    Vector mean_, scale_;  // x' = (x - mean) * scale
};

class MinMaxScaler final : public Transformer {
public:
    std::string kind() const override { return "minmax"; }
    void fit(const Features& X) override {
        fitted_dense_ = !X.is_sparse();
        DenseMatrix scratch;
        const DenseView m = X.dense(scratch);
        Vector lo, hi;
        if (has_nan_cell(m)) {
            nan_range(m, lo, hi);
        } else {
            lo = m.colwise().minCoeff().transpose();
            hi = m.colwise().maxCoeff().transpose();
        }
        set_range(lo, hi);
    }
    void fit(const Features& X, const std::vector<Index>& roles) override {
        // Numeric columns fitted as values: a later sparse row without them stored holds
        // zeros there, shifted as dense.
        if (fit_numeric_columns(*this, X, roles, [](MinMaxScaler& s) { return std::tie(s.shift_, s.scale_); }))
            fitted_dense_ = true;
    }
    bool fits_on_shards() const override { return true; }
    void fit_on_shards(const Features& X, const std::vector<Index>& roles) override {
        if (fit_numeric_columns(
                *this, X, roles, [](MinMaxScaler& s) { return std::tie(s.shift_, s.scale_); }, true))
            fitted_dense_ = true;
    }
    // fit() on every rank's rows: minima and maxima are exact, so the step is the
    // one-process step to the bit.
    void fit_sharded(const Features& X) {
        fitted_dense_ = !X.is_sparse();
        Vector lo, hi;
        column_range_over_ranks(X, lo, hi);
        for (Index j = 0; j < X.cols(); ++j)
            if (lo[j] > hi[j]) lo[j] = hi[j] = 0;  // no value in any row (nan_range's 0)
        set_range(lo, hi);
    }
    Features transform(const Features& X) const override { return affine(X, shift_, scale_, "minmax", fitted_dense_); }
    std::optional<std::vector<Index>> output_sources(Index in_width) const override { return same_columns(in_width); }
    Json to_json() const override {
        Json j = {{"type", kind()}, {"shift", to_array(shift_)}, {"scale", to_array(scale_)}};
        if (fitted_dense_) j["fitted_dense"] = true;  // absent in older files: those refuse sparse rows
        return j;
    }
    void from_json(const Json& j) override {
        shift_ = from_array(j, "shift");
        scale_ = from_array(j, "scale");
        if (shift_.size() != scale_.size()) throw ModelStateError("minmax scaler: shift and scale differ in length");
        fitted_dense_ = j.value("fitted_dense", false);
    }

private:
    void set_range(const Vector& lo, const Vector& hi) {
        // Map [lo, hi] to [-1, 1]: x' = (x - mid) * 2 / (hi - lo). Constant columns map to 0.
        // Halved before adding or subtracting: lo + hi and hi - lo overflow for values
        // near the double's limit; halving is exact, so ordinary data is unchanged.
        shift_ = lo / 2 + hi / 2;
        scale_ = (hi / 2 - lo / 2).unaryExpr([](double r) { return r > 0 ? 1.0 / r : 0.0; });
    }

    Vector shift_, scale_;
    bool fitted_dense_ = false;  // fitted on dense rows: sparse rows are densified at transform
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
        check_width(X, fill_.size(), kind());
        if (X.is_sparse()) return X;
        DenseMatrix m(X.dense_ref());
        for (Index r = 0; r < m.rows(); ++r)
            for (Index c = 0; c < m.cols(); ++c)
                if (std::isnan(m(r, c))) m(r, c) = fill_[c];
        return m;
    }
    std::optional<std::vector<Index>> output_sources(Index in_width) const override { return same_columns(in_width); }
    Json to_json() const override { return {{"type", kind()}, {"fill", to_array(fill_)}}; }
    void from_json(const Json& j) override { fill_ = from_array(j, "fill"); }

private:
    Vector fill_;
};

}  // namespace

std::vector<Index> same_columns(Index width) {
    std::vector<Index> out(static_cast<std::size_t>(width));
    for (Index j = 0; j < width; ++j) out[static_cast<std::size_t>(j)] = j;
    return out;
}

std::unique_ptr<Transformer> make_transformer(const std::string& kind) {
    if (kind == "standard") return std::make_unique<StandardScaler>();
    if (kind == "minmax") return std::make_unique<MinMaxScaler>();
    if (kind == "impute_mean") return std::make_unique<MeanImputer>();
    if (is_impute_step(kind)) return make_impute_step(kind);
    if (is_onehot_step(kind)) return make_onehot_step(kind);
    if (kind.rfind("select_columns", 0) == 0) return make_column_selector(kind);
    if (is_poly_step(kind)) return make_poly_step(kind);
    throw UsageError("unknown preprocessing step '" + kind + "' (valid: standard, minmax, impute, impute_mean, onehot, select_columns, poly)");
}

std::unique_ptr<Transformer> transformer_from_json(const Json& j) {
    auto t = make_transformer(j.at("type").get<std::string>());
    t->from_json(j);
    return t;
}

}  // namespace kestrel
