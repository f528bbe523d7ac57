#include "common/weights_column.hpp"

#include <charconv>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::cli {
namespace {

std::optional<long long> as_index(const std::string& s) {
    long long v = -1;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

// The feature column (0-based, in t.X) that `flag` (--weights-col, --group-col) names.
Index resolve_column(const Table& t, const std::string& col, const std::string& flag, const DataFlags& data) {
    if (!t.feature_names.empty()) {
        if (col == t.label_name) throw UsageError(flag + " " + col + " is the label column");
        for (std::size_t j = 0; j < t.feature_names.size(); ++j)
            if (t.feature_names[j] == col) return static_cast<Index>(j);
        std::string names;
        for (const auto& n : t.feature_names) names += (names.empty() ? "" : ", ") + n;
        // Like a missing --label-col: the file, not the command line, lacks it (exit 2).
        throw DataError(t.source + ": " + (flag == "--weights-col" ? "weights" : "query") + " column '" + col + "' (" +
                        flag + ") not found; the columns are: " + names);
    }
    const auto v = as_index(col);
    if (t.X.is_sparse()) {
        if (!v || *v < 1)
            throw UsageError(flag + ": a LIBSVM file names a column by its feature index (1, 2, ...)");
        if (*v > t.X.cols()) throw DataError(flag + " " + col + ": " + t.source + " has no feature " + col);
        return static_cast<Index>(*v - 1);
    }
    if (!v) throw UsageError(flag + ": a CSV file without a header names a column by its 0-based index");
    const long long label = data.label_col.empty() ? 0 : as_index(data.label_col).value_or(0);
    if (*v == label) throw UsageError(flag + " " + col + " is the label column");
    const long long j = *v > label ? *v - 1 : *v;
    if (j >= t.X.cols()) throw DataError(flag + " " + col + ": " + t.source + " has no column " + col);
    return static_cast<Index>(j);
}

// Takes the column out of t.X (and its name and categories) and returns its cells; a
// column of words gives its category codes when `words` allows them.
Vector take_column(Table& t, const std::string& col, const std::string& flag, const DataFlags& data, bool words) {
    const Index j = resolve_column(t, col, flag, data);
    const Index d = t.X.cols(), n = t.X.rows();
    if (d < 2) throw UsageError(flag + " " + col + " would leave no feature column");
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
        const DenseMatrix& m = t.X.dense_ref();
        w = m.col(j);
        DenseMatrix out(n, d - 1);
        out.leftCols(j) = m.leftCols(j);
        out.rightCols(d - 1 - j) = m.rightCols(d - 1 - j);
        t.X = Features(std::move(out));
    }
    if (!t.feature_names.empty()) t.feature_names.erase(t.feature_names.begin() + j);
    if (!t.categories.empty()) {
        if (!words && !t.categories[static_cast<std::size_t>(j)].empty())
            throw DataError(t.source + ": " + flag + " " + col + " is a column of words, not numbers");
        t.categories.erase(t.categories.begin() + j);
    }
    return w;
}

}  // namespace

Vector take_weights_column(Table& t, const DataFlags& data) {
    const Vector w = take_column(t, data.weights_col, "--weights-col", data, false);
    const Index n = w.size();
    for (Index i = 0; i < n; ++i)
        if (!std::isfinite(w[i]) || w[i] < 0)
            throw DataError(t.source + ": --weights-col " + data.weights_col + ": the weight of data row " +
                            std::to_string(i + 1) + " is negative or not a number");
    return w;
}

void take_group_column(Table& t, const DataFlags& data) {
    if (data.group_col.empty() || !t.labels) return;
    if (!t.labels->qid.empty())
        throw UsageError("--group-col " + data.group_col + ": " + t.source + " already gives each row's query (qid:N)");
    const Vector ids = take_column(t, data.group_col, "--group-col", data, true);
    check_query_ids(ids, t.labels->line, t.source);
    t.labels->qid.assign(ids.data(), ids.data() + ids.size());
}

void check_model_takes_weights(const ModelSpec& spec) {
    if (registry().capabilities(*resolved_params(spec)).sample_weights) return;
    std::string valid;
    for (const auto& n : registry().names())
        if (registry().info(n).capabilities.sample_weights) valid += (valid.empty() ? "" : ", ") + n;
    throw UsageError("--weights-col: model " + spec.model +
                     " does not learn from sample weights (models that do: " + valid + ")");
}

}  // namespace kestrel::cli
