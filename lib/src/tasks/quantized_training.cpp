// The quantized store built while the training file is read (docs/large-data.md).
#include "kestrel/tasks/quantized_training.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <utility>
#include <vector>

#include "kestrel/common/tree.hpp"  // category_code
#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "training_shard_categories.hpp"

namespace kestrel {
namespace {

// Each parsed piece of the file with rows, in input order, with the row number of its first
// row; the stream's end checks (no data rows, every row dropped) as a whole read makes them.
// Returns the rows dropped (missing policy drop).
template <class Visit>
Index each_piece(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, Visit&& visit) {
    TableStream stream(path, read, piece_bytes);
    TableStream::Piece piece;
    Index rows = 0, dropped = 0;
    while (stream.next(piece)) {
        Table t = stream.parse(piece, read.threads);
        stream.learn(t);
        dropped += t.dropped_rows;
        if (t.X.rows() == 0) continue;
        visit(t, rows);
        rows += t.X.rows();
    }
    stream.finish(rows, dropped);
    return dropped;
}

// What the first read learns: the rows, their labels, the names, the width and each
// column's categories (the sorted union of the pieces' lists, as the reader merges the
// dictionaries of a whole file's chunks).
struct Scan {
    Index rows = 0, dropped = 0, width = 0;
    RawLabels labels;
    bool has_labels = false;
    std::vector<std::string> feature_names;
    std::string label_name, source;
    std::size_t fields = 0;
    std::uint64_t bytes = 0;
    CategoryLists categories;  // per column; empty: every column numeric
    std::vector<Index> categorical;
    std::vector<Index> missing;  // per column of a dense table: its missing cells
};

void append_labels(RawLabels& all, RawLabels& piece) {
    const auto move_in = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
    move_in(all.text, piece.text);
    move_in(all.numeric, piece.numeric);
    move_in(all.line, piece.line);
    move_in(all.qid, piece.qid);
    all.source = piece.source;
}

Scan scan_file(const std::string& path, const ReadOptions& read, std::size_t piece_bytes) {
    Scan s;
    std::vector<std::vector<std::string>> words;
    s.dropped = each_piece(path, read, piece_bytes, [&](Table& t, Index) {
        s.rows += t.X.rows();
        s.width = std::max(s.width, t.X.cols());
        if (t.labels) {
            s.has_labels = true;
            append_labels(s.labels, *t.labels);
        }
        if (s.feature_names.empty()) s.feature_names = t.feature_names;
        if (!t.X.is_sparse()) {
            const DenseMatrix& m = t.X.dense_ref();
            s.missing.resize(static_cast<std::size_t>(std::max<Index>(static_cast<Index>(s.missing.size()), m.cols())), 0);
            for (Index i = 0; i < m.rows(); ++i)
                for (Index f = 0; f < m.cols(); ++f) s.missing[static_cast<std::size_t>(f)] += std::isnan(m(i, f));
        }
        s.label_name = t.label_name;
        s.source = t.source;
        s.fields = t.fields;
        words.resize(std::max(words.size(), t.categories.size()));
        for (std::size_t f = 0; f < t.categories.size(); ++f)
            words[f].insert(words[f].end(), t.categories[f].begin(), t.categories[f].end());
    });
    s.bytes = std::filesystem::file_size(path);
    for (std::size_t f = 0; f < words.size(); ++f) {
        if (words[f].empty()) continue;
        std::sort(words[f].begin(), words[f].end());
        words[f].erase(std::unique(words[f].begin(), words[f].end()), words[f].end());
        if (static_cast<Index>(words[f].size()) > read.max_categories)
            throw DataError(s.source + ": column " +
                            (s.feature_names.empty() ? std::to_string(f) : "'" + s.feature_names[f] + "'") + " has " +
                            std::to_string(words[f].size()) + " categories, more than " +
                            option_named("read.max_categories") + " (" + std::to_string(read.max_categories) + ")");
        s.categorical.push_back(static_cast<Index>(f));
    }
    if (!s.categorical.empty()) {
        words.resize(static_cast<std::size_t>(s.width));
        s.categories = std::move(words);
    }
    return s;
}

// A CSV column missing in every row is refused by the whole-file reader, which a piece
// cannot know: the first piece is read again as a whole input for the reader's own error.
void refuse_empty_columns(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s) {
    const auto empty = std::find(s.missing.begin(), s.missing.end(), s.rows);
    if (empty == s.missing.end()) return;
    TableStream stream(path, read, piece_bytes);
    TableStream::Piece piece;
    if (stream.next(piece)) {
        ReadOptions whole = read;
        whole.first_line = piece.first_line;
        (void)read_table_from_buffer(piece.text, stream.source(), whole);
    }
    throw DataError(s.source + ": every cell of feature " + std::to_string(empty - s.missing.begin() + 1) +
                    " is missing; drop it with " + option_named("ignore_columns"));
}

// A piece as the whole table has it: as wide, its category codes the union lists' codes.
void align_piece(Table& t, const Scan& s) {
    detail::widen_table(t, s.width);
    if (s.categorical.empty()) return;
    t.categories.resize(static_cast<std::size_t>(s.width));
    for (const Index f : s.categorical) {
        const auto& mine = t.categories[static_cast<std::size_t>(f)];
        const auto& all = s.categories[static_cast<std::size_t>(f)];
        std::vector<double> code(mine.size());
        for (std::size_t c = 0; c < mine.size(); ++c)
            code[c] = static_cast<double>(std::lower_bound(all.begin(), all.end(), mine[c]) - all.begin());
        const auto to = [&code](double& x) {
            if (!std::isnan(x) && x >= 0 && x < static_cast<double>(code.size())) x = code[static_cast<std::size_t>(x)];
        };
        if (t.X.is_sparse()) {
            SparseMatrix& m = t.X.sparse_mut();
            for (Index i = 0; i < m.outerSize(); ++i)
                for (SparseMatrix::InnerIterator it(m, i); it; ++it)
                    if (it.col() == f) to(it.valueRef());
        } else {
            DenseMatrix& m = t.X.dense_mut();
            for (Index r = 0; r < m.rows(); ++r) to(m(r, f));
        }
    }
}

// The reads of the cut sample's values, `group` numeric features at a time (the first read
// also counts every row's category codes), and the cuts they give.
struct CutReads {
    BinCuts cuts;
    int passes = 0;
};

// The sampled rows' values are those of the rows as the model reads them: an absent sparse
// entry is missing (absent_is_missing) or the value 0.
CutReads read_cuts(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s,
                   int max_bins, std::uint64_t seed, std::size_t group, bool absent_is_missing) {
    const auto d = static_cast<std::size_t>(s.width);
    std::vector<double> dense_row(absent_is_missing ? 0 : d);
    const std::vector<Index> sample = BinCuts::sample_rows(s.rows, seed);
    std::vector<char> is_categorical(d, 0);
    for (const Index f : s.categorical) is_categorical[static_cast<std::size_t>(f)] = 1;
    std::vector<Index> numeric;
    for (std::size_t f = 0; f < d; ++f)
        if (!is_categorical[f]) numeric.push_back(static_cast<Index>(f));
    std::vector<std::vector<double>> edges(d);
    std::vector<std::vector<Index>> code_counts(s.categorical.empty() ? 0 : d);
    for (const Index f : s.categorical)
        code_counts[static_cast<std::size_t>(f)].assign(s.categories[static_cast<std::size_t>(f)].size(), 0);
    CutReads out;
    std::size_t begin = 0;
    do {
        const std::size_t end = std::min(numeric.size(), begin + group);
        const bool count_codes = out.passes == 0 && !s.categorical.empty();
        std::vector<char> in_group(d, 0);
        for (std::size_t k = begin; k < end; ++k) in_group[static_cast<std::size_t>(numeric[k])] = 1;
        std::vector<std::vector<double>> values(d);
        auto next = sample.begin();
        each_piece(path, read, piece_bytes, [&](Table& t, Index first) {
            align_piece(t, s);
            const Index m = t.X.rows();
            if (count_codes) {
                const auto count = [&](Index f, double x) {
                    auto& c = code_counts[static_cast<std::size_t>(f)];
                    const int code = c.empty() ? -1 : category_code(x, static_cast<Index>(c.size()));
                    if (code >= 0) ++c[static_cast<std::size_t>(code)];
                };
                if (t.X.is_sparse()) {
                    for (Index i = 0; i < m; ++i)
                        for (SparseMatrix::InnerIterator it(t.X.sparse_ref(), i); it; ++it) count(it.col(), it.value());
                } else {
                    for (Index i = 0; i < m; ++i)
                        for (const Index f : s.categorical) count(f, t.X.dense_ref()(i, f));
                }
            }
            for (; next != sample.end() && *next < first + m; ++next) {
                const Index r = *next - first;
                if (t.X.is_sparse() && !absent_is_missing) {
                    std::fill(dense_row.begin(), dense_row.end(), 0.0);
                    for (SparseMatrix::InnerIterator it(t.X.sparse_ref(), r); it; ++it)
                        dense_row[static_cast<std::size_t>(it.col())] = it.value();
                    for (std::size_t k = begin; k < end; ++k)
                        if (const double x = dense_row[static_cast<std::size_t>(numeric[k])]; !std::isnan(x))
                            values[static_cast<std::size_t>(numeric[k])].push_back(x);
                } else if (t.X.is_sparse()) {
                    for (SparseMatrix::InnerIterator it(t.X.sparse_ref(), r); it; ++it)
                        if (in_group[static_cast<std::size_t>(it.col())] && !std::isnan(it.value()))
                            values[static_cast<std::size_t>(it.col())].push_back(it.value());
                } else {
                    for (std::size_t k = begin; k < end; ++k)
                        if (const double x = t.X.dense_ref()(r, numeric[k]); !std::isnan(x))
                            values[static_cast<std::size_t>(numeric[k])].push_back(x);
                }
            }
        });
        ++out.passes;
        for (std::size_t k = begin; k < end; ++k) {
            const auto f = static_cast<std::size_t>(numeric[k]);
            edges[f] = BinCuts::feature_edges(values[f], max_bins);
            std::vector<double>().swap(values[f]);
        }
        begin = end;
    } while (begin < numeric.size());
    out.cuts = BinCuts::from_parts(std::move(edges), code_counts, max_bins);
    return out;
}

// A piece's rows binned into the store from `first` on. Sparse rows whose absent entries are
// the value 0 (absent_is_missing false: the forest's reading) are binned dense, a block of at
// most kDenseBlockCells cells at a time.
void fill_piece(BinnedMatrix& bins, const BinCuts& cuts, const Features& X, Index first, int threads,
                bool absent_is_missing) {
    if (!X.is_sparse() || absent_is_missing) {
        bins.fill_rows(cuts, X, first, threads);
        return;
    }
    constexpr Index kDenseBlockCells = Index{1} << 20;
    const SparseMatrix& S = X.sparse_ref();
    const Index block = std::max<Index>(1, kDenseBlockCells / std::max<Index>(1, S.cols()));
    for (Index r = 0; r < S.rows(); r += block) {
        const Index m = std::min(block, S.rows() - r);
        bins.fill_rows(cuts, Features(DenseMatrix(S.middleRows(r, m))), first + r, threads);
    }
}

}  // namespace

QuantizedTrainingData read_quantized_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                   int max_bins, std::uint64_t seed, const StoreReadSizes& sizes) {
    if (!options.weights_column.empty() || !options.group_column.empty())
        throw UsageError("the quantized store takes no weights or query column yet (docs/large-data.md)");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.path, ec))
        throw UsageError(options.path + ": the quantized store reads its file several times: it must be a regular file");
    const Capabilities model = registry().capabilities(*resolved_params(spec));
    ReadOptions read = options.read;
    // gbdt: an absent LIBSVM entry is missing; the forest: 0, its rows read dense where cheaper.
    read.densify = !model.absent_is_missing;
    if (read.threads <= 0) read.threads = Context{}.resolved_threads();
    Scan s = scan_file(options.path, read, sizes.piece_bytes);
    if (!s.has_labels) throw DataError(s.source + ": no label column");
    // Categories the model does not split itself are one-hot encoded, from doubles.
    if (!s.categorical.empty() && !model.native_categories) return {};
    refuse_empty_columns(options.path, read, sizes.piece_bytes, s);
    if (read.max_rows > 0 && s.rows > read.max_rows)
        throw DataError(s.source + ": " + std::to_string(s.rows) + " data rows, more than " + option_named("max_rows") +
                        " " + std::to_string(read.max_rows));
    // Later reads type the columns as the whole file types them: a column with a word in any
    // piece is categorical in every piece (its number-like cells read as category names, as
    // the reader names them in a whole file); the lists are read again so, to hold those names.
    if (!s.categorical.empty()) {
        read.categorical_features = s.categorical;
        s = scan_file(options.path, read, sizes.piece_bytes);
    }
    const Index sampled = std::min<Index>(s.rows, static_cast<Index>(BinCuts::sample_rows(s.rows, seed).size()));
    const std::uint64_t budget =
        sizes.sample_bytes > 0 ? sizes.sample_bytes
                         : std::max<std::uint64_t>(kMinCutSampleBytes,
                                                   static_cast<std::uint64_t>(s.rows) * static_cast<std::uint64_t>(s.width));
    const std::size_t group = std::max<std::size_t>(1, budget / (static_cast<std::uint64_t>(std::max<Index>(sampled, 1)) * sizeof(double)));
    CutReads cuts = read_cuts(options.path, read, sizes.piece_bytes, s, max_bins, seed, group, model.absent_is_missing);
    check_memory(static_cast<std::uint64_t>(s.rows) * static_cast<std::uint64_t>(s.width) *
                         (cuts.cuts.fits_byte() ? 1 : 2),
                 read.max_memory, s.source + ": holding " + std::to_string(s.rows) + " rows x " +
                                      std::to_string(s.width) + " features quantized");
    BinnedMatrix bins(cuts.cuts, s.rows, s.width);
    each_piece(options.path, read, sizes.piece_bytes, [&](Table& t, Index first) {
        align_piece(t, s);
        fill_piece(bins, cuts.cuts, t.X, first, read.threads, model.absent_is_missing);
    });
    QuantizedTrainingData out;
    out.cut_passes = cuts.passes;
    out.label_name = s.label_name;
    out.store = std::make_shared<const QuantizedTable>(std::move(cuts.cuts), std::move(bins), max_bins, seed,
                                                       model.absent_is_missing);
    Table shape;
    shape.X = shape_only(s.rows, s.width);
    shape.labels = std::move(s.labels);
    shape.feature_names = std::move(s.feature_names);
    shape.categories = std::move(s.categories);
    shape.label_name = s.label_name;
    shape.source = s.source;
    shape.dropped_rows = s.dropped;
    shape.bytes = s.bytes;
    shape.fields = s.fields;
    out.data = training_dataset(std::move(shape), spec, options);
    return out;
}

}  // namespace kestrel
