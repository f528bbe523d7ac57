// Cross-validation's training data read twice (group k-fold) or from two files (a fixed
// validation split).
#include "kestrel/tasks/training_cv_data.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_format.hpp"
#include "kestrel/tasks/training_columns.hpp"
#include "training_option_wording.hpp"

namespace kestrel {
namespace {

Features stack_feature_rows(const Features& a, const Features& b) {
    if (a.is_sparse() && b.is_sparse()) {
        const SparseMatrix& x = a.sparse_ref();
        const SparseMatrix& y = b.sparse_ref();
        SparseMatrix out(x.rows() + y.rows(), x.cols());
        std::vector<Eigen::Triplet<double, int>> t;
        t.reserve(static_cast<std::size_t>(x.nonZeros() + y.nonZeros()));
        for (Index r = 0; r < x.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(x, r); it; ++it)
                t.emplace_back(static_cast<int>(r), static_cast<int>(it.col()), it.value());
        for (Index r = 0; r < y.outerSize(); ++r)
            for (SparseMatrix::InnerIterator it(y, r); it; ++it)
                t.emplace_back(static_cast<int>(x.rows() + r), static_cast<int>(it.col()), it.value());
        out.setFromTriplets(t.begin(), t.end());
        return Features(std::move(out));
    }
    const DenseMatrix x = a.to_dense(), y = b.to_dense();
    DenseMatrix out(x.rows() + y.rows(), x.cols());
    out << x, y;
    return Features(std::move(out));
}

// The first record of a CSV file (of its text, when it is compressed): its header names
// are all we need from it.
std::string first_line_of_file(const std::string& path) {
    for (std::size_t bytes = kFormatSniffBytes;; bytes *= 4) {
        const std::string head = read_text_head(path, bytes);
        const auto nl = head.find('\n');
        if (nl != std::string::npos) return head.substr(0, nl + 1);
        if (head.size() < bytes) return head + "\n";
    }
}

// The header of the CSV file at `path` (first record `head`) read as a table: its feature
// names and label name. UsageError when the file is not CSV.
Table grouped_file_header(const std::string& path, const std::string& head, const ReadOptions& base,
                          const detail::OptionWording& option, const std::string& column) {
    const TableFormat& format = choose_table_format(path, head, base);
    if (format.id() != FileFormat::csv)
        throw UsageError(option.with_value(column) + " names a column of a CSV file; " + path + " is not one");
    ReadOptions header_only = base;
    format.settle(header_only, head);
    const char delim = header_only.delimiter;
    // The reader wants a data row after the header: one of zeros, as many as the fields.
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : head) {
        if (c == '"')
            quoted = !quoted;
        else if (c == delim && !quoted)
            ++fields;
    }
    std::string zeros = "0";
    for (std::size_t i = 1; i < fields; ++i) zeros += std::string(1, delim) + "0";
    header_only.labels_optional = true;
    return read_table_from_buffer(head + zeros + "\n", path, header_only);
}

// Each row of `t` (by its line) given its value in `groups`, read from the same file.
std::vector<std::string> groups_of_rows(const Table& t, const Table& groups, const detail::OptionWording& option) {
    std::vector<std::string> row_group;
    row_group.reserve(t.labels->line.size());
    std::size_t g = 0;
    for (std::uint64_t line : t.labels->line) {
        while (g < groups.labels->line.size() && groups.labels->line[g] < line) ++g;
        if (g == groups.labels->line.size() || groups.labels->line[g] != line)
            throw InternalError(option.alone() + ": row on line " + std::to_string(line) + " has no group");
        row_group.push_back(groups.labels->text[g]);
    }
    return row_group;
}

}  // namespace

GroupedTrainingData read_grouped_training_data(const TrainingDataOptions& options, const std::string& column,
                                               const ModelSpec& spec) {
    const std::string& path = options.path;
    const detail::OptionWording option = detail::group_folds_wording();
    if (path == "-")
        throw UsageError(option.alone() + " needs a data file, not standard input (the file is read twice)");
    const ReadOptions& base = options.read;
    if (!base.header) throw UsageError(option.with_value(column) + " names a column of a CSV file with a header row");
    const Table header = grouped_file_header(path, first_line_of_file(path), base, option, column);
    std::vector<std::string> features = header.feature_names;
    const auto it = std::find(features.begin(), features.end(), column);
    if (it == features.end()) {
        if (column == header.label_name) throw UsageError(option.with_value(column) + " is the label column");
        std::string all;
        for (const auto& f : features) all += (all.empty() ? "" : ", ") + f;
        throw UsageError(option.with_value(column) + ": no such column; the feature columns are: " + all);
    }
    features.erase(it);

    ReadOptions only_groups = base;
    only_groups.label_col = column;
    only_groups.feature_columns = std::vector<std::string>{};
    only_groups.missing = MissingPolicy::error;  // a row without a group cannot be placed
    only_groups.cache.clear();                    // the cache keeps the read of the rows below
    const Table groups = read_table(path, only_groups);

    ReadOptions rest = base;
    if (rest.label_col.empty()) rest.label_col = header.label_name.empty() ? "0" : header.label_name;
    rest.feature_columns = features;
    Table t = read_table(path, rest);
    if (!t.labels || !groups.labels) throw DataError(path + ": no label column");
    GroupedTrainingData out;
    out.row_groups = groups_of_rows(t, groups, option);
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    out.data = training_dataset(std::move(t), spec, options);
    return out;
}

void append_validation_rows(Dataset& d, const std::string& path, const TrainingDataOptions& options) {
    ReadOptions o = options.read;
    o.cache.clear();  // the training file's
    const bool grouped = !options.group_column.empty();
    if (!d.feature_names.empty() && o.header) {
        o.feature_columns = d.feature_names;
        if (grouped) o.feature_columns->push_back(options.group_column);
    }
    o.expected_features = d.cols() + (grouped ? 1 : 0);
    Table t = read_table(path, o);
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    if (!t.labels) throw DataError(t.source + ": no label column");
    take_group_column(t, options);
    if (d.has_queries() != !t.labels->qid.empty())
        throw DataError(t.source + (d.has_queries() ? ": the training rows have query groups, these rows none"
                                                    : ": these rows have query groups, the training rows none"));
    Vector y;
    if (d.task == Task::classification) {
        std::vector<std::string> classes = d.classes;
        y = encode_with_classes(*t.labels, classes);
        if (classes.size() != d.classes.size())
            throw DataError(t.source + ": class '" + classes[d.classes.size()] +
                            "' does not occur in the training file" + detail::validation_wording(options).aside());
    } else {
        y = numeric_targets(*t.labels, t.source);
    }
    const Index n1 = d.rows(), n2 = t.X.rows();
    d.X = stack_feature_rows(d.X, t.X.with_cols(d.cols()));
    Vector all(n1 + n2);
    all << d.y, y;
    d.y = std::move(all);
    if (d.has_queries()) {
        // Offset past the training ids, so that no query spans the two files.
        const double shift = d.qid.maxCoeff() + 1 - *std::min_element(t.labels->qid.begin(), t.labels->qid.end());
        Vector q(n1 + n2);
        q.head(n1) = d.qid;
        for (Index i = 0; i < n2; ++i) q[n1 + i] = t.labels->qid[static_cast<std::size_t>(i)] + shift;
        d.qid = std::move(q);
    }
    if (d.has_weights()) {
        Vector w = Vector::Ones(n1 + n2);
        w.head(n1) = d.weights;
        d.weights = std::move(w);
    }
}

}  // namespace kestrel
