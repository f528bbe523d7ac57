// The weights and query columns of a training table, taken out of its features.
#include "kestrel/tasks/training_columns.hpp"

#include <charconv>
#include <cmath>
#include <optional>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "training_option_wording.hpp"

namespace kestrel {
namespace {

std::optional<long long> column_index_of(const std::string& s) {
    long long v = -1;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

// The feature column (0-based, in t.X) that `col` names.
Index resolve_training_column(const Table& t, const std::string& col, const detail::OptionWording& option,
                              const TrainingDataOptions& options) {
    if (!t.feature_names.empty()) {
        if (col == t.label_name) throw UsageError(option.with_value(col) + " is the label column");
        for (std::size_t j = 0; j < t.feature_names.size(); ++j)
            if (t.feature_names[j] == col) return static_cast<Index>(j);
        std::string names;
        for (const auto& n : t.feature_names) names += (names.empty() ? "" : ", ") + n;
        // Like a missing label column: the file, not the caller, lacks it (exit 2).
        throw DataError(t.source + ": " + option.words + " '" + col + "'" + option.aside() +
                        " not found; the columns are: " + names);
    }
    const auto v = column_index_of(col);
    if (t.X.is_sparse()) {
        if (!v || *v < 1)
            throw UsageError(option.alone() + ": a LIBSVM file names a column by its feature index (1, 2, ...)");
        if (*v > t.X.cols()) throw DataError(option.with_value(col) + ": " + t.source + " has no feature " + col);
        return static_cast<Index>(*v - 1);
    }
    if (!v) throw UsageError(option.alone() + ": a CSV file without a header names a column by its 0-based index");
    const std::string& label_col = options.read.label_col;
    const long long label = label_col.empty() ? 0 : column_index_of(label_col).value_or(0);
    if (*v == label) throw UsageError(option.with_value(col) + " is the label column");
    const long long j = *v > label ? *v - 1 : *v;
    if (j >= t.X.cols()) throw DataError(option.with_value(col) + ": " + t.source + " has no column " + col);
    return static_cast<Index>(j);
}

// Takes the column out of t.X (and its name and categories) and returns its cells; a
// column of words gives its category codes when `words` allows them.
Vector take_training_column(Table& t, const std::string& col, const detail::OptionWording& option,
                            const TrainingDataOptions& options, bool words) {
    const Index j = resolve_training_column(t, col, option, options);
    const Index d = t.X.cols(), n = t.X.rows();
    if (d < 2) throw UsageError(option.with_value(col) + " would leave no feature column");
    Vector w(n);
    if (t.X.is_sparse()) {
        const SparseMatrix& m = t.X.sparse_ref();
        std::vector<Eigen::Triplet<double, int>> rest;
        w.setZero();
        for (Index r = 0; r < m.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
                if (it.col() == j)
                    w[r] = it.value();
                else
                    rest.emplace_back(static_cast<int>(r), static_cast<int>(it.col() > j ? it.col() - 1 : it.col()),
                                      it.value());
            }
        SparseMatrix out(n, d - 1);
        out.setFromTriplets(rest.begin(), rest.end());
        t.X = Features(std::move(out));
    } else {
        const DenseView m = t.X.dense_ref();
        w = m.col(j);
        DenseMatrix out(n, d - 1);
        out.leftCols(j) = m.leftCols(j);
        out.rightCols(d - 1 - j) = m.rightCols(d - 1 - j);
        t.X = Features(std::move(out));
    }
    if (!t.feature_names.empty()) t.feature_names.erase(t.feature_names.begin() + j);
    if (!t.categories.empty()) {
        if (!words && !t.categories[static_cast<std::size_t>(j)].empty())
            throw DataError(t.source + ": " + option.with_value(col) + " is a column of words, not numbers");
        t.categories.erase(t.categories.begin() + j);
    }
    return w;
}

}  // namespace

Vector take_weights_column(Table& t, const TrainingDataOptions& options, Index first_row) {
    const detail::OptionWording option = detail::weights_wording();
    const Vector w = take_training_column(t, options.weights_column, option, options, false);
    const Index n = w.size();
    for (Index i = 0; i < n; ++i)
        if (!std::isfinite(w[i]) || w[i] < 0)
            throw DataError(t.source + ": " + option.with_value(options.weights_column) + ": the weight of data row " +
                            std::to_string(first_row + i + 1) + " is negative or not a number");
    return w;
}

bool take_group_column(Table& t, const TrainingDataOptions& options, QueryIdCheck check) {
    if (options.group_column.empty() || !t.labels) return false;
    const detail::OptionWording option = detail::group_wording();
    if (!t.labels->qid.empty())
        throw UsageError(option.with_value(options.group_column) + ": " + t.source +
                         " already gives each row's query (qid:N)");
    const Index j = resolve_training_column(t, options.group_column, option, options);
    const bool words = static_cast<std::size_t>(j) < t.categories.size() && !t.categories[static_cast<std::size_t>(j)].empty();
    const Vector ids = take_training_column(t, options.group_column, option, options, true);
    if (check == QueryIdCheck::here) check_query_ids(ids, t.labels->line, t.source);
    t.labels->qid.assign(ids.data(), ids.data() + ids.size());
    return words;
}

void check_model_takes_weights(const ModelSpec& spec) {
    if (registry().capabilities(*resolved_params(spec)).sample_weights) return;
    std::string valid;
    for (const auto& n : registry().names_with(&Capabilities::sample_weights)) valid += (valid.empty() ? "" : ", ") + n;
    throw UsageError(detail::weights_wording().alone() + ": model " + spec.model +
                     " does not learn from sample weights (models that do: " + valid + ")");
}

}  // namespace kestrel
