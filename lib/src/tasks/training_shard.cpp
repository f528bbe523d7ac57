// A rank's part of the training data under a sharded read (kestrel-train --shard / --shards).
#include "kestrel/tasks/training_shard.hpp"

#include <glob.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_set>

#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/file_shard.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/training_columns.hpp"
#include "training_option_wording.hpp"
#include "training_shard_categories.hpp"
#include "training_shard_messages.hpp"

namespace kestrel {
namespace {

using detail::gather_numbers;
using detail::gather_words;

// The distinct labels of `labels`, in first-seen order, with their values as read.
RawLabels distinct_shard_labels(const RawLabels& labels) {
    RawLabels out;
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < labels.text.size(); ++i)
        if (seen.insert(labels.text[i]).second) {
            out.text.push_back(labels.text[i]);
            out.numeric.push_back(labels.numeric[i]);
        }
    return out;
}

RawLabels shard_labels_of(const std::vector<std::string>& texts) {
    RawLabels r;
    for (const std::string& t : texts) {
        r.text.push_back(t);
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        r.numeric.push_back(end != t.c_str() && *end == '\0' ? v : std::nan(""));
    }
    return r;
}

// The task of the whole data, decided as choose_task decides it on one file: it depends on
// whether every label is a number, whether every number is an integer, and how many
// distinct integers there are (more than kMaxIntegerClasses: a regression target). Each
// rank says the first two and sends at most kMaxIntegerClasses + 1 of its distinct values.
Task agree_on_shard_task(ProcessGroup* group, const ModelSpec& spec, const RawLabels& mine) {
    std::vector<double> summary{mine.all_numeric() ? 1.0 : 0.0, mine.all_integer() ? 1.0 : 0.0};
    if (mine.all_integer()) {
        std::unordered_set<double> seen;
        for (const double v : mine.numeric)
            if (seen.insert(v).second) {
                summary.push_back(v);
                if (seen.size() > kMaxIntegerClasses) break;
            }
    }
    bool all_numeric = true, all_integer = true;
    std::vector<double> values;
    for (const auto& part : gather_numbers(group, summary)) {
        all_numeric = all_numeric && part[0] != 0;
        all_integer = all_integer && part[1] != 0;
        values.insert(values.end(), part.begin() + 2, part.end());
    }
    // A stand-in with the same three properties as the whole data's labels.
    std::vector<std::string> stand_in;
    if (!all_numeric)
        stand_in.emplace_back("a");
    else if (!all_integer)
        stand_in.emplace_back("0.5");
    std::unordered_set<double> seen;
    for (const double v : values)
        if (all_integer && seen.insert(v).second) stand_in.push_back(std::to_string(static_cast<long long>(v)));
    return choose_task(spec, shard_labels_of(stand_in));
}

// This rank's byte range of one file (--shard), and the whole file's line number of its
// first record: the line breaks of the parts before this one.
struct ShardBytePart {
    FileShard shard;
    std::uint64_t first_line = 1;
};
ShardBytePart read_shard_byte_range(ProcessGroup* group, const std::string& path, const ReadOptions& options) {
    const int rank = group ? group->rank() : 0, ranks = group ? group->size() : 1;
    ShardBytePart part{read_file_shard(path, options, rank, ranks)};
    const auto lines = gather_numbers(group, {static_cast<double>(part.shard.record_lines)});
    part.first_line = 1 + part.shard.header_lines;
    for (int r = 0; r < rank; ++r) part.first_line += static_cast<std::uint64_t>(lines[static_cast<std::size_t>(r)][0]);
    return part;
}

// Rows of several tables, one after the other (the same columns; LIBSVM: padded to the
// widest). The labels keep each row's own file line; `source` names the first file.
Table stack_shard_tables(std::vector<Table> parts) {
    if (parts.size() == 1) return std::move(parts.front());
    Index width = 0, rows = 0;
    bool sparse = false;
    for (const Table& t : parts) {
        width = std::max(width, t.X.cols());
        rows += t.X.rows();
        sparse = sparse || t.X.is_sparse();
    }
    Features X;
    if (sparse) {
        std::vector<Eigen::Triplet<double, int>> cells;
        Index at = 0;
        for (const Table& t : parts) {
            const SparseMatrix S = t.X.is_sparse() ? t.X.sparse_ref() : SparseMatrix(t.X.dense_ref().sparseView());
            for (Index i = 0; i < S.outerSize(); ++i)
                for (SparseMatrix::InnerIterator it(S, i); it; ++it)
                    cells.emplace_back(static_cast<int>(at + it.row()), static_cast<int>(it.col()), it.value());
            at += t.X.rows();
        }
        SparseMatrix S(rows, width);
        S.setFromTriplets(cells.begin(), cells.end());
        X = Features(std::move(S));
    } else {
        DenseMatrix D = DenseMatrix::Zero(rows, width);
        Index at = 0;
        for (const Table& t : parts) {
            D.block(at, 0, t.X.rows(), t.X.cols()) = t.X.dense_ref();
            at += t.X.rows();
        }
        X = Features(std::move(D));
    }
    Table out = std::move(parts.front());
    out.X = std::move(X);
    for (std::size_t k = 1; k < parts.size(); ++k) {
        if (!out.labels || !parts[k].labels) continue;
        const RawLabels& l = *parts[k].labels;
        out.labels->text.insert(out.labels->text.end(), l.text.begin(), l.text.end());
        out.labels->numeric.insert(out.labels->numeric.end(), l.numeric.begin(), l.numeric.end());
        out.labels->line.insert(out.labels->line.end(), l.line.begin(), l.line.end());
    }
    return out;
}

// This rank's files of the sorted matches of `pattern` (--shards): rank r of N takes the
// files [r F / N, (r + 1) F / N), so the ranks hold the files in their sorted order.
Table read_own_shard_files(ProcessGroup* group, const std::string& pattern, const ReadOptions& given,
                           const detail::OptionWording& shards) {
    ReadOptions options = given;
    options.cache.clear();  // one cache holds one file's table
    const int rank = group ? group->rank() : 0, ranks = group ? group->size() : 1;
    glob_t found{};
    const int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &found);
    std::vector<std::string> files(found.gl_pathv, found.gl_pathv + found.gl_pathc);
    ::globfree(&found);
    if (rc == GLOB_NOMATCH || files.empty()) throw UsageError(shards.quoted(pattern) + ": no file matches");
    if (rc != 0) throw DataError(shards.quoted(pattern) + ": cannot list the files");
    std::sort(files.begin(), files.end());
    const std::size_t F = files.size(), N = static_cast<std::size_t>(ranks), r = static_cast<std::size_t>(rank);
    std::vector<Table> mine;
    for (std::size_t i = r * F / N; i < (r + 1) * F / N; ++i) {
        mine.push_back(read_table(files[i], options));
        if (mine.size() > 1 && mine.back().feature_names != mine.front().feature_names)
            throw DataError(files[i] + ": its columns differ from those of " + mine.front().source);
    }
    if (mine.empty()) {  // more ranks than files: no rows, the first file's columns
        Table t = read_table(files.front(), options);
        t.X = t.X.is_sparse() ? Features(SparseMatrix(0, t.X.cols())) : Features(DenseMatrix(0, t.X.cols()));
        if (t.labels) t.labels = RawLabels{};
        return t;
    }
    detail::unite_categories(mine, [&](std::size_t i, const std::vector<Index>& categorical) {
        ReadOptions again = options;
        again.categorical_features = categorical;
        return read_table(files[r * F / N + i], again);
    });
    return stack_shard_tables(std::move(mine));
}

}  // namespace

ShardedTrainingData read_training_shard(const TrainingDataOptions& reading, const std::string& pattern,
                                        const ModelSpec& spec) {
    const std::string& path = reading.path;
    const detail::OptionWording shard = detail::shard_wording(), shards = detail::shards_wording();
    if (!reading.group_column.empty())
        throw UsageError(shard.alone() + ": " + detail::group_wording().alone() +
                         " (ranking) is not read in shards");
    ProcessGroup* group = in_process_group() ? process_group() : nullptr;
    ReadOptions options = reading.read;
    options.densify = !registry().capabilities(*resolved_params(spec)).absent_is_missing;
    std::optional<ShardBytePart> byte_part;
    if (pattern.empty()) byte_part = read_shard_byte_range(group, path, options);
    // This rank's rows, read with `opts` (no message: the line numbers are known).
    const auto read_part = [&](const ReadOptions& opts) {
        if (!byte_part) return read_own_shard_files(group, pattern, opts, shards);
        byte_part->shard.options.categorical_features = opts.categorical_features;
        return parse_file_shard(byte_part->shard, byte_part->first_line);
    };
    Table t = read_part(options);
    if (!pattern.empty()) {  // every rank's files have rank 0's columns
        const auto names = gather_words(group, t.feature_names);
        for (std::size_t r = 1; r < names.size(); ++r)
            if (names[r] != names[0])
                throw DataError(shards.quoted(pattern) + ": the files of rank " + std::to_string(r) +
                                " have other columns than those of rank 0");
    }
    if (t.labels && !t.labels->qid.empty())
        throw UsageError(t.source + ": " + shard.alone() + " does not read query groups (qid:)");
    RawLabels mine = t.labels ? *t.labels : RawLabels{};

    // The whole data: its rows, its width (a LIBSVM part is as wide as its largest index).
    const auto shapes = gather_numbers(group, {static_cast<double>(t.X.rows()), static_cast<double>(t.X.cols())});
    Index total_rows = 0, width = 0;
    for (const auto& s : shapes) {
        total_rows += static_cast<Index>(s[0]);
        width = std::max(width, static_cast<Index>(s[1]));
    }
    if (total_rows == 0) throw DataError((pattern.empty() ? ErrorText(path) : shards.quoted(pattern)) + ": no data rows");
    if (t.X.rows() > 0 && !t.labels) throw DataError(t.source + ": no label column");
    detail::widen_table(t, width);
    const auto read_again = [&](const std::vector<Index>& categorical) {
        ReadOptions again = options;
        again.categorical_features = categorical;
        return read_part(again);
    };
    detail::agree_on_categories(group, t, width, options.max_categories, read_again);
    byte_part.reset();  // the part's text is not read again

    ShardedTrainingData out;
    out.total_rows = total_rows;
    out.label_name = t.label_name;
    Vector weights = reading.weights_column.empty() ? Vector() : take_weights_column(t, reading);
    if (!reading.weights_column.empty()) check_model_takes_weights(spec);
    const Task task = agree_on_shard_task(group, spec, mine);
    Dataset& d = out.data;
    d.task = task;
    d.source = t.source;
    d.label_column = label_column_of(t, options);
    d.feature_names = std::move(t.feature_names);
    if (!t.categories.empty()) {
        for (const auto& c : t.categories) d.category_counts.push_back(static_cast<Index>(c.size()));
        d.categories = std::move(t.categories);
    }
    if (task == Task::classification) {
        // The class list of the whole data: every rank's distinct labels, ordered as
        // encode_classes orders one file's.
        const RawLabels distinct = distinct_shard_labels(mine);
        RawLabels every;
        for (const auto& part : gather_words(group, distinct.text))
            every.text.insert(every.text.end(), part.begin(), part.end());
        for (const auto& part : gather_numbers(group, distinct.numeric))
            every.numeric.insert(every.numeric.end(), part.begin(), part.end());
        Dataset classes_only;
        encode_classes(every, classes_only);
        d.classes = classes_only.classes;
        if (d.classes.size() < 2)
            throw DataError(t.source + ": a classifier needs at least two classes, but every row has class '" +
                            (d.classes.empty() ? std::string("?") : d.classes.front()) + "'");
        std::vector<std::string> classes = d.classes;
        d.y = encode_with_classes(mine, classes);
    } else {
        d.y = numeric_targets(mine, t.source);
    }
    d.X = std::move(t.X);
    d.weights = std::move(weights);
    return out;
}

}  // namespace kestrel
