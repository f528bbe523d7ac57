#include "common/cv_flags.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>

#include "common/weights_column.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/io/csv.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::cli {

namespace {

Features stack_rows(const Features& a, const Features& b) {
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

// The first record of a CSV file: its header names are all we need from it.
std::string first_line(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path + ": cannot open file");
    std::string line;
    std::getline(in, line);
    return line + "\n";
}

bool is_number(const std::string& s, double& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Group ids 0..g-1 in sorted order of the values (numeric when every value is a
// number), as numpy.unique numbers sklearn's groups.
std::vector<Index> group_ids(const std::vector<std::string>& values) {
    bool numeric = true;
    std::vector<double> num(values.size());
    for (std::size_t i = 0; i < values.size() && numeric; ++i) numeric = is_number(values[i], num[i]);
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return numeric ? num[a] < num[b] : values[a] < values[b];
    });
    std::vector<Index> id(values.size());
    Index next = -1;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const bool same = i > 0 && values[order[i]] == values[order[i - 1]];
        const bool same_num = i > 0 && numeric && num[order[i]] == num[order[i - 1]];
        if (!(same || same_num)) ++next;
        id[order[i]] = next;
    }
    return id;
}

Dataset finish(Table t, const ModelSpec& spec, const DataFlags& data) {
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    if (!t.labels) throw DataError(t.source + ": no label column");
    return training_dataset(std::move(t), spec, data);
}

// Reads the data with the group column left out of the features, and each kept
// row's group value. Two reads of the file: the group column alone (its values may be
// words), then every other column; rows are matched by their line numbers, so rows
// dropped for missing features (--missing drop) drop their groups too.
std::pair<Dataset, std::vector<std::string>> read_grouped(const std::string& path, const std::string& column,
                                                          const ModelSpec& spec, const DataFlags& data, int threads) {
    if (path == "-") throw UsageError("--groups needs a data file, not standard input (the file is read twice)");
    ReadOptions base = data.options(threads);
    if (!base.header) throw UsageError("--groups " + column + " names a column of a CSV file with a header row");
    const std::string head = first_line(path);
    if (base.format == FileFormat::libsvm ||
        (base.format == FileFormat::automatic && detect_format(path, head) != FileFormat::csv))
        throw UsageError("--groups " + column + " names a column of a CSV file; " + path + " is not one");
    // The reader wants a data row after the header: one of zeros, as many as the fields.
    const char delim = base.delimiter ? base.delimiter : detect_delimiter(head);
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : head) {
        if (c == '"') quoted = !quoted;
        else if (c == delim && !quoted) ++fields;
    }
    std::string zeros = "0";
    for (std::size_t i = 1; i < fields; ++i) zeros += std::string(1, delim) + "0";
    ReadOptions header_only = base;
    header_only.labels_optional = true;
    header_only.format = FileFormat::csv;
    header_only.delimiter = delim;
    const Table header = read_table_from_buffer(head + zeros + "\n", path, header_only);
    std::vector<std::string> features = header.feature_names;
    const auto it = std::find(features.begin(), features.end(), column);
    if (it == features.end()) {
        if (column == header.label_name)
            throw UsageError("--groups " + column + " is the label column");
        std::string all;
        for (const auto& f : features) all += (all.empty() ? "" : ", ") + f;
        throw UsageError("--groups " + column + ": no such column; the feature columns are: " + all);
    }
    features.erase(it);

    ReadOptions only_groups = base;
    only_groups.label_col = column;
    only_groups.feature_columns = std::vector<std::string>{};
    only_groups.missing = MissingPolicy::error;  // a row without a group cannot be placed
    const Table groups = read_table(path, only_groups);

    ReadOptions rest = base;
    if (rest.label_col.empty()) rest.label_col = header.label_name.empty() ? "0" : header.label_name;
    rest.feature_columns = features;
    Table t = read_table(path, rest);
    if (!t.labels || !groups.labels) throw DataError(path + ": no label column");
    std::vector<std::string> row_group;
    row_group.reserve(t.labels->line.size());
    std::size_t g = 0;
    for (std::uint64_t line : t.labels->line) {
        while (g < groups.labels->line.size() && groups.labels->line[g] < line) ++g;
        if (g == groups.labels->line.size() || groups.labels->line[g] != line)
            throw InternalError("--groups: row on line " + std::to_string(line) + " has no group");
        row_group.push_back(groups.labels->text[g]);
    }
    return {finish(std::move(t), spec, data), std::move(row_group)};
}

// Appends the validation file's rows after the training rows; one split trains on
// the first and tests on the second.
void append_validation(Dataset& d, const std::string& path, const DataFlags& data, int threads) {
    ReadOptions o = data.options(threads);
    if (!d.feature_names.empty() && o.header) {
        o.feature_columns = d.feature_names;
        if (!data.group_col.empty()) o.feature_columns->push_back(data.group_col);
    }
    o.expected_features = d.cols() + (data.group_col.empty() ? 0 : 1);
    Table t = read_table(path, o);
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    if (!t.labels) throw DataError(t.source + ": no label column");
    take_group_column(t, data);
    if (d.has_queries() != !t.labels->qid.empty())
        throw DataError(t.source + (d.has_queries() ? ": the training rows have query groups, these rows none"
                                                    : ": these rows have query groups, the training rows none"));
    Vector y;
    if (d.task == Task::classification) {
        std::vector<std::string> classes = d.classes;
        y = encode_with_classes(*t.labels, classes);
        if (classes.size() != d.classes.size())
            throw DataError(t.source + ": class '" + classes[d.classes.size()] +
                            "' does not occur in the training file (--validation)");
    } else {
        y = numeric_targets(*t.labels, t.source);
    }
    const Index n1 = d.rows(), n2 = t.X.rows();
    d.X = stack_rows(d.X, t.X.with_cols(d.cols()));
    Vector all(n1 + n2);
    all << d.y, y;
    d.y = std::move(all);
    if (d.has_queries()) {
        // Offset past the training ids, so that no query spans the two files.
        const double shift =
            d.qid.maxCoeff() + 1 - *std::min_element(t.labels->qid.begin(), t.labels->qid.end());
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

}  // namespace

void SplitFlags::add_to(CLI::App& app, const std::string& what) {
    folds_opt_ = app.add_option("-k,--folds", folds, what + " (stratified for classification); n = one per row")
                     ->capture_default_str();
    repeat_opt_ = app.add_option("--repeat", repeats, "repetitions of the k-fold split, each reshuffled")
                      ->capture_default_str()
                      ->check(whole_number(1, kMaxRepeats));
    app.add_flag("--loo", loo, "leave-one-out: one fold per row (as -k n)");
    app.add_option("--shuffle-split", shuffle_splits,
                   "R random train/test splits (Monte Carlo CV; stratified for classification)")
        ->check(whole_number(1, kMaxShuffleSplits));
    fraction_opt_ = app.add_option("--test-fraction", test_fraction, "with --shuffle-split: the share of rows tested")
                        ->capture_default_str();
    app.add_option("--groups", groups,
                   "group k-fold: CSV column of group ids (taken out of the features); no group on both sides");
    app.add_option("--validation", validation, "score on this file, training on DATA_FILE (one fixed split)")->type_name("FILE");
}

void SplitFlags::check_combination() const {
    std::vector<std::string> schemes;
    if (loo) schemes.emplace_back("--loo");
    if (shuffle_splits != 0) schemes.emplace_back("--shuffle-split");
    if (!groups.empty()) schemes.emplace_back("--groups");
    if (!validation.empty()) schemes.emplace_back("--validation");
    if (schemes.size() > 1) throw UsageError(schemes[0] + " and " + schemes[1] + " cannot be combined");
    const bool k_given = folds_opt_ && folds_opt_->count() > 0;
    if (k_given && (loo || shuffle_splits != 0 || !validation.empty()))
        throw UsageError("-k cannot be combined with " + schemes[0]);
    if (repeat_opt_ && repeat_opt_->count() > 0 && !schemes.empty())
        throw UsageError("--repeat cannot be combined with " + schemes[0]);
    if (fraction_opt_ && fraction_opt_->count() > 0 && shuffle_splits == 0)
        throw UsageError("--test-fraction needs --shuffle-split R");
    if (shuffle_splits < 0)
        throw UsageError("--shuffle-split " + std::to_string(shuffle_splits) + ": needs at least 1 split");
    if (shuffle_splits != 0 && !(test_fraction > 0 && test_fraction < 1))
        throw UsageError("--test-fraction " + std::to_string(test_fraction) + ": must be strictly between 0 and 1");
}

SplitFlags::Data SplitFlags::read(const std::string& path, const ModelSpec& spec, const DataFlags& data,
                                  int threads) const {
    check_combination();
    SplitOptions s;
    s.repeats = repeats;
    const bool all_rows = folds == "n" || folds == "N";
    if (!all_rows) {
        int k = 0;
        const auto r = std::from_chars(folds.data(), folds.data() + folds.size(), k);
        if (folds.empty() || r.ec != std::errc() || r.ptr != folds.data() + folds.size() || k < 2)
            throw UsageError("-k " + shown_text(folds) +
                             ": expected a number of folds from 2 to 2147483647, or n for one per row");
        s.k = k;
    }
    require_labels_to_score(spec);
    Data out;
    if (!groups.empty()) {
        auto [d, texts] = read_grouped(path, groups, spec, data, threads);
        out.data = std::move(d);
        s.scheme = CvScheme::group_kfold;
        s.groups = group_ids(texts);
    } else {
        out.data = read_training_data(path, spec, data, threads);
    }
    if (!validation.empty()) {
        const Index n1 = out.data.rows();
        append_validation(out.data, validation, data, threads);
        Fold f;
        for (Index i = 0; i < out.data.rows(); ++i) (i < n1 ? f.train : f.test).push_back(i);
        s.scheme = CvScheme::fixed;
        s.fixed = {std::move(f)};
    }
    if (loo || (all_rows && s.scheme == CvScheme::kfold)) {
        if (repeats > 1) throw UsageError("--repeat cannot be combined with leave-one-out");
        s.scheme = CvScheme::leave_one_out;
    }
    if (shuffle_splits != 0) {
        s.scheme = CvScheme::shuffle_split;
        s.shuffle_splits = shuffle_splits;
        s.test_fraction = test_fraction;
    }
    // Rows in query groups (learning to rank) are split by query, as scikit-learn's
    // GroupKFold on the query ids: a ranking metric needs each query whole in one fold.
    if (out.data.has_queries() && s.scheme == CvScheme::kfold && !all_rows) {
        std::vector<std::string> ids;
        ids.reserve(static_cast<std::size_t>(out.data.rows()));
        for (Index i = 0; i < out.data.rows(); ++i) ids.push_back(format_number(out.data.qid[i]));
        s.scheme = CvScheme::group_kfold;
        s.groups = group_ids(ids);
    }
    if (out.data.has_queries() && (s.scheme == CvScheme::leave_one_out || s.scheme == CvScheme::shuffle_split))
        throw UsageError(std::string(loo || all_rows ? "leave-one-out" : "--shuffle-split") +
                         " would split the rows of a query (the data has query groups); use -k or --validation");
    if (all_rows && s.scheme == CvScheme::group_kfold)
        throw UsageError("-k n with --groups: give a number of folds (or leave-one-group-out as -k with the group count)");
    // Each split holds every row's index once (train or test): the splits asked for are
    // checked against the memory before any is made (--shuffle-split 100000 on 10^6 rows
    // would take 800 GB).
    const std::uint64_t splits = s.scheme == CvScheme::shuffle_split ? static_cast<std::uint64_t>(s.shuffle_splits)
                                 : s.scheme == CvScheme::kfold && s.k <= out.data.rows()
                                                                     ? static_cast<std::uint64_t>(std::max(s.k, 0)) *
                                                                     static_cast<std::uint64_t>(std::max(s.repeats, 1))
                                                                   : 0;
    if (splits > 0)
        check_memory(splits * static_cast<std::uint64_t>(out.data.rows()) * sizeof(Index),
                     data.options(threads).max_memory,
                     std::to_string(splits) + " splits of " + std::to_string(out.data.rows()) + " rows");
    out.split = std::move(s);
    return out;
}

}  // namespace kestrel::cli
