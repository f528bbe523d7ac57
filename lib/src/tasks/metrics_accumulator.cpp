#include "kestrel/tasks/metrics_accumulator.hpp"

#include <charconv>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

using MetricsRowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

void append_metrics_rows(std::vector<double>& to, Index& cols, const Matrix& m) {
    if (m.size() == 0) return;
    cols = m.cols();
    const MetricsRowMajor r = m;
    to.insert(to.end(), r.data(), r.data() + r.size());
}

Matrix metrics_rows_to_matrix(const std::vector<double>& v, Index cols) {
    if (cols == 0 || v.empty()) return Matrix();
    return Eigen::Map<const MetricsRowMajor>(v.data(), static_cast<Index>(v.size()) / cols, cols);
}

}  // namespace

MetricsAccumulator::MetricsAccumulator(const Model& model, MetricsSettings settings, const Context& ctx)
    : model_(model), classify_(model.task() == Task::classification), settings_(std::move(settings)), ctx_(ctx),
      classes_(model.classes()) {}

void MetricsAccumulator::add(const Table& t, const Vector& predicted, const Matrix& proba, const Matrix& decision) {
    if (t.X.rows() == 0) return;
    if (!t.labels)
        throw DataError(t.source + ": " + option_named("metrics") + ": " + missing_label_reason() + "; " +
                        option_named("label_col") + " names the column to score against");
    warn_unrecorded_label(t);
    const std::vector<double> qid = query_ids(t);
    const Vector truth = classify_ ? encode_with_classes(*t.labels, classes_) : numeric_targets(*t.labels, t.source);
    y_true_.insert(y_true_.end(), truth.data(), truth.data() + truth.size());
    y_pred_.insert(y_pred_.end(), predicted.data(), predicted.data() + predicted.size());
    // Query ids (a ranking model's test file): kept with their lines, checked whole at the end.
    if (qid.empty() != qid_.empty() && !y_line_.empty())
        throw DataError(t.source + ": some rows have a query id (qid:N) and others none");
    qid_.insert(qid_.end(), qid.begin(), qid.end());
    y_line_.insert(y_line_.end(), t.labels->line.begin(), t.labels->line.end());
    source_ = t.source;
    append_metrics_rows(proba_, proba_cols_, proba);
    append_metrics_rows(decision_, decision_cols_, decision);
}

Predictions MetricsAccumulator::predictions() const {
    Predictions pr;
    pr.task = model_.task();
    pr.y_true = Eigen::Map<const Vector>(y_true_.data(), static_cast<Index>(y_true_.size()));
    pr.y_pred = Eigen::Map<const Vector>(y_pred_.data(), static_cast<Index>(y_pred_.size()));
    if (!qid_.empty() && !classify_) {
        pr.qid = Eigen::Map<const Vector>(qid_.data(), static_cast<Index>(qid_.size()));
        check_query_ids(pr.qid, y_line_, source_);
    }
    if (classify_) {
        pr.classes = classes_;
        pr.proba = metrics_rows_to_matrix(proba_, proba_cols_);
        pr.decision = metrics_rows_to_matrix(decision_, decision_cols_);
    }
    return pr;
}

// A CSV file scored by a model file that does not say which column its label was: once.
void MetricsAccumulator::warn_unrecorded_label(const Table& t) {
    if (label_checked_) return;
    label_checked_ = true;
    if (!settings_.label_column.empty() || t.fields == 0 || model_.label_column().known()) return;
    const std::string scored = t.label_name.empty() ? std::string("the first column") : "column '" + t.label_name + "'";
    ctx_.warning(settings_.model_path +
                 " does not record its label column (a model file older than format version 6, or trained on a "
                 "LIBSVM file): scoring against " +
                 scored + "; " + option_named("label_col") + " names the column to score against");
}

// The rows' query ids: qid:N, or from the group column's text: the number, or for words
// an id per distinct word.
std::vector<double> MetricsAccumulator::query_ids(const Table& t) {
    std::vector<double> qid = t.labels->qid;
    if (settings_.group_column.empty()) return qid;
    if (t.kept.empty())
        throw UsageError(option_named("group_col") + " " + settings_.group_column + " names a CSV column; " + t.source +
                         " is a LIBSVM file, whose rows give qid:N");
    for (const std::string& text : t.kept.back()) {
        double v = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
            v = -1.0 - static_cast<double>(words_.emplace(text, words_.size()).first->second);
        qid.push_back(v);
    }
    return qid;
}

// Why a file has no labels to score against.
std::string MetricsAccumulator::missing_label_reason() const {
    const LabelColumn& c = model_.label_column();
    if (!settings_.label_column.empty()) return "the data file has no label column '" + settings_.label_column + "'";
    if (!c.name.empty()) return "the data file has no column '" + c.name + "' (the model's label column)";
    if (c.index >= 0)
        return "the data file has no label field (the model's label was field " + std::to_string(c.index) +
               " of its training file, counting from 0)";
    return "the data file has no label column";
}

}  // namespace kestrel
