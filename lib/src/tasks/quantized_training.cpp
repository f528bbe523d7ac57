// The quantized store built while the training file is read (docs/large-data.md).
#include "kestrel/tasks/quantized_training.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "kestrel/common/tree.hpp"  // category_code
#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/io/table_format.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/training_columns.hpp"
#include "table_scan.hpp"

namespace kestrel {
namespace {

using detail::align_piece;
using detail::each_piece;
using detail::Scan;
using detail::scan_file;

// The cut sample's values of one read, per feature: in vectors, or spilled to the columns of
// a mapped temporary file (room for every sampled row in each feature's column), so that a
// table whose codes go to disk gathers every feature's values in one read without holding
// them in memory.
class CutSampleValues {
public:
    CutSampleValues(std::size_t d, std::size_t rows, const std::vector<Index>& features,
                    const std::string* spill_directory)
        : values_(d) {
        if (spill_directory == nullptr || rows == 0 || features.empty()) return;
        column_.assign(d, 0);
        count_.assign(d, 0);
        for (std::size_t k = 0; k < features.size(); ++k) column_[static_cast<std::size_t>(features[k])] = k;
        rows_ = rows;
        pages_ = CodePages::in_file(rows * features.size() * sizeof(double), *spill_directory);
        // Each piece writes a little into every column: read-ahead on those faults would
        // bring in (and charge to a memory limit) pages of every column at each piece.
        pages_.advise(CodePages::Access::random);
    }
    void put(std::size_t f, double x) {
        if (pages_.size() == 0)
            values_[f].push_back(x);
        else
            slab()[column_[f] * rows_ + count_[f]++] = x;
    }
    // Feature f's values, taken out.
    std::vector<double> take(std::size_t f) {
        if (pages_.size() == 0) return std::move(values_[f]);
        const double* c = slab() + column_[f] * rows_;
        return {c, c + count_[f]};
    }

private:
    double* slab() { return reinterpret_cast<double*>(pages_.data()); }

    std::vector<std::vector<double>> values_;
    std::vector<std::size_t> column_, count_;
    std::size_t rows_ = 0;
    CodePages pages_;
};

// The reads of the cut sample's values, `group` numeric features at a time (the first read
// also counts every row's category codes), and the cuts they give; the values spilled to a
// file in *spill_directory when it is given (CutSampleValues).
struct CutReads {
    BinCuts cuts;
    int passes = 0;
};

// The sampled rows' values are those of the rows as the model reads them: an absent sparse
// entry is missing (absent_is_missing) or the value 0.
CutReads read_cuts(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s,
                   int max_bins, std::uint64_t seed, std::size_t group, const std::string* spill_directory,
                   bool absent_is_missing) {
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
        CutSampleValues values(d, sample.size(), {numeric.begin() + static_cast<std::ptrdiff_t>(begin),
                                                  numeric.begin() + static_cast<std::ptrdiff_t>(end)},
                               spill_directory);
        auto next = sample.begin();
        each_piece(path, read, piece_bytes, [&](Table& t, Index first) {
            align_piece(t, s, first);
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
                    const DenseView rows = t.X.dense_ref();
                    for (Index i = 0; i < m; ++i)
                        for (const Index f : s.categorical) count(f, rows(i, f));
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
                            values.put(static_cast<std::size_t>(numeric[k]), x);
                } else if (t.X.is_sparse()) {
                    for (SparseMatrix::InnerIterator it(t.X.sparse_ref(), r); it; ++it)
                        if (in_group[static_cast<std::size_t>(it.col())] && !std::isnan(it.value()))
                            values.put(static_cast<std::size_t>(it.col()), it.value());
                } else {
                    const double* row = t.X.dense_ref().row(r).data();
                    for (std::size_t k = begin; k < end; ++k)
                        if (const double x = row[numeric[k]]; !std::isnan(x))
                            values.put(static_cast<std::size_t>(numeric[k]), x);
                }
            }
        });
        ++out.passes;
        for (std::size_t k = begin; k < end; ++k) {
            const auto f = static_cast<std::size_t>(numeric[k]);
            std::vector<double> v = values.take(f);
            edges[f] = BinCuts::feature_edges(v, max_bins);
        }
        begin = end;
    } while (begin < numeric.size());
    out.cuts = BinCuts::from_parts(std::move(edges), code_counts, max_bins);
    return out;
}

// The cut sample's values held at once when they stay in memory: one byte a cell, the codes'
// size (freed before the codes are allocated); where the codes do not fit the memory budget,
// a quarter of the budget instead. The grouping changes the reads, not the cuts.
std::uint64_t memory_sample_bytes(const Scan& s, std::uint64_t max_memory) {
    const std::uint64_t cells = static_cast<std::uint64_t>(s.rows) * static_cast<std::uint64_t>(s.width);
    if (fits_memory(cells, max_memory)) return cells;
    const std::uint64_t budget = max_memory != 0 ? max_memory : available_memory();
    return budget > 0 ? std::min(cells, budget / 4) : cells;
}

// The label's classes for a classification target (0 for regression), counted up to
// kMaxCountedClasses: what the fit's arrays of a raw score per class need. Most rows repeat
// the class before them, and a sorted list of the classes seen finds the rest.
constexpr std::size_t kMaxCountedClasses = 1 << 16;
template <class Label>
Index distinct_labels(const std::vector<Label>& labels) {
    std::vector<Label> seen;
    const Label* last = nullptr;
    for (const Label& v : labels) {
        if (last && *last == v) continue;
        const auto at = std::lower_bound(seen.begin(), seen.end(), v);
        if (at == seen.end() || !(*at == v)) {
            if (seen.size() == kMaxCountedClasses) break;
            seen.insert(at, v);
        }
        last = &v;
    }
    return static_cast<Index>(seen.size());
}

Index class_count(const ModelSpec& spec, const RawLabels& labels) {
    if (choose_task(spec, labels) != Task::classification) return 0;
    return labels.text.empty() ? distinct_labels(labels.numeric) : distinct_labels(labels.text);
}

std::uint64_t add_saturated(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

// What the rows hold beside the codes once the store is read: the Dataset's labels and
// shape (12 bytes a row), its weights and query ids (8 bytes a row each), and the fit's own
// arrays (ModelInfo::fit_bytes, as the model declares them; none: not counted).
std::uint64_t bytes_beside_codes(const Scan& s, const ModelSpec& spec, int threads) {
    const auto rows = static_cast<std::uint64_t>(s.rows);
    std::uint64_t bytes = rows * (sizeof(double) + sizeof(int));
    if (!s.weights.empty()) bytes += rows * sizeof(double);
    if (!s.labels.qid.empty()) bytes += rows * sizeof(double);
    const ModelInfo& info = registry().info(spec.model);
    if (!info.fit_bytes) return bytes;
    const Index classes = class_count(spec, s.labels);
    return add_saturated(bytes, info.fit_bytes(resolved_params(spec)->values(), s.rows, classes, threads));
}

// The codes read back from a file on disk at once (CodePages::read_budget): a quarter of what
// the budget leaves beside the fit's arrays (the histograms and the process are not counted
// in `beside`), at most 64 MB, where more columns held save few reads; the reader holds at
// least two columns whatever this says.
std::size_t read_buffer_bytes(std::uint64_t budget, std::uint64_t beside) {
    constexpr std::uint64_t kMaxReadBuffers = std::uint64_t{64} << 20;
    return static_cast<std::size_t>(budget > beside ? std::min(kMaxReadBuffers, (budget - beside) / 4) : 0);
}

// The store's zero codes, in memory or in the pages of a temporary file as `placement` says:
// automatic puts them on disk where they and `beside` (what the rows and the fit hold
// besides) would not fit the memory budget together, or check_memory would refuse them.
BinnedMatrix store_codes(const BinCuts& cuts, const Scan& s, std::uint64_t max_memory, std::uint64_t beside,
                         const StorePlacement& placement) {
    const std::uint64_t bytes = BinnedMatrix::code_bytes(cuts, s.rows, s.width);
    const bool too_large = !fits_memory(add_saturated(bytes, beside), max_memory);
    const bool disk = placement.pages == StorePages::disk || (placement.pages == StorePages::automatic && too_large);
    if (disk) {
        const std::uint64_t budget = max_memory != 0 ? max_memory : available_memory();
        return {cuts, s.rows, s.width,
                CodePages::in_file(static_cast<std::size_t>(bytes), placement.directory, read_buffer_bytes(budget, beside))};
    }
    check_memory(bytes, max_memory,
                 s.source + ": holding " + std::to_string(s.rows) + " rows x " + std::to_string(s.width) +
                     " features quantized");
    return {cuts, s.rows, s.width};
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

std::size_t store_piece_bytes(std::uint64_t max_memory) {
    const std::uint64_t budget = max_memory != 0 ? max_memory : available_memory();
    if (budget == 0) return kMaxPieceBytes;
    return static_cast<std::size_t>(
        std::clamp<std::uint64_t>(budget / 16, kMinPieceBytes, kMaxPieceBytes));
}

QuantizedTrainingData read_quantized_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                   int max_bins, std::uint64_t seed, const StoreReadSizes& sizes,
                                                   const StorePlacement& placement) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.path, ec))
        throw UsageError(options.path + ": the quantized store reads its file several times: it must be a regular file");
    const bool weighted = !options.weights_column.empty(), grouped = !options.group_column.empty();
    if (weighted) check_model_takes_weights(spec);
    // A LIBSVM file's pieces are as wide as their own largest index, which may not reach the
    // weights or query column's: the doubles (a whole read) take it.
    if ((weighted || grouped) && peek_file_format(options.path, options.read) == FileFormat::libsvm) return {};
    const Capabilities model = registry().capabilities(*resolved_params(spec));
    ReadOptions read = options.read;
    // gbdt: an absent LIBSVM entry is missing; the forest: 0, its rows read dense where cheaper.
    read.densify = !model.absent_is_missing;
    if (read.threads <= 0) read.threads = Context{}.resolved_threads();
    detail::BudgetScan scanned =
        detail::scan_in_budget_pieces(options.path, read, sizes.piece_bytes, &options, "the quantized store");
    Scan s = std::move(scanned.scan);
    const std::size_t piece_bytes = scanned.piece_bytes;
    // Categories the model does not split itself are one-hot encoded, from doubles (whose read
    // makes the checks below). With a weights or query column, the columns typed categorical
    // below would be counted without it where the reader counts with it: the doubles too; and
    // a query column of words, whose ids each piece codes on its own.
    if (!s.categorical.empty() && (!model.native_categories || weighted || grouped)) return {};
    if (s.query_words) return {};
    detail::check_scanned_table(options.path, read, piece_bytes, s);
    // Later reads type the columns as the whole file types them: a column with a word in any
    // piece is categorical in every piece (its number-like cells read as category names, as
    // the reader names them in a whole file); the lists are read again so, to hold those names.
    if (!s.categorical.empty()) {
        read.categorical_features = s.categorical;
        s = scan_file(options.path, read, piece_bytes, &options);
    }
    const Index sampled = std::min<Index>(s.rows, static_cast<Index>(BinCuts::sample_rows(s.rows, seed).size()));
    // Where the codes do not fit the memory budget (they go to disk), neither does a sample of
    // one byte a cell: a dense table's sampled values go to a temporary file too, every feature
    // in one read (a sparse table's file would have room for every absent cell: its reads are
    // grouped within a quarter of the budget).
    const std::uint64_t cells = static_cast<std::uint64_t>(s.rows) * static_cast<std::uint64_t>(s.width);
    const bool spill = sizes.sample_bytes == 0 && !s.sparse && placement.pages != StorePages::memory &&
                       !fits_memory(cells, read.max_memory);
    const std::uint64_t budget = sizes.sample_bytes > 0
                                     ? sizes.sample_bytes
                                     : std::max(kMinCutSampleBytes, memory_sample_bytes(s, read.max_memory));
    const std::size_t group =
        spill ? static_cast<std::size_t>(std::max<Index>(s.width, 1))
              : std::max<std::size_t>(1, budget / (static_cast<std::uint64_t>(std::max<Index>(sampled, 1)) * sizeof(double)));
    CutReads cuts = read_cuts(options.path, read, piece_bytes, s, max_bins, seed, group,
                              spill ? &placement.directory : nullptr, model.absent_is_missing);
    BinnedMatrix bins =
        store_codes(cuts.cuts, s, read.max_memory, bytes_beside_codes(s, spec, read.threads), placement);
    const bool on_disk = bins.pages().in_file();
    const std::string label = on_disk ? "quantized store: codes on disk in " + bins.pages().directory() + " (" +
                                            format_bytes(bins.pages().size()) + ")"
                                      : std::string("quantized store: codes");
    // Written once, each column front to back, but a piece writes a little into every
    // column: no read-ahead on those faults (it would bring in pages of every column at each
    // piece, which under a memory limit evict the pages being written).
    bins.pages().advise(CodePages::Access::random);
    const auto total = static_cast<std::uint64_t>(s.rows);
    if (placement.progress) placement.progress(label, 0, total);
    each_piece(options.path, read, piece_bytes, [&](Table& t, Index first) {
        align_piece(t, s, first);
        fill_piece(bins, cuts.cuts, t.X, first, read.threads, model.absent_is_missing);
        if (placement.progress) placement.progress(label, static_cast<std::uint64_t>(first + t.X.rows()), total);
    });
    // The forest reads each column forward with gaps (a node's rows, ascending): the kernel's
    // default read-ahead suits it; MADV_RANDOM would fault every skipped-to page alone (gbdt's
    // learner asks for its columns ahead itself, and turns read-ahead off: HistTreeLearner::grow).
    bins.pages().advise(CodePages::Access::normal);
    QuantizedTrainingData out;
    out.cut_passes = cuts.passes;
    out.pages_on_disk = on_disk;
    out.label_name = s.label_name;
    out.store = std::make_shared<const QuantizedTable>(std::move(cuts.cuts), std::move(bins), max_bins, seed,
                                                       model.absent_is_missing);
    Vector weights = Eigen::Map<const Vector>(s.weights.data(), static_cast<Index>(s.weights.size()));
    std::vector<double>().swap(s.weights);
    TrainingDataOptions taken = options;
    taken.weights_column.clear();  // already taken out of every piece, as the query column
    taken.group_column.clear();    // (its ids in the scanned labels)
    out.data = training_dataset(detail::shape_table(std::move(s)), spec, taken);
    out.data.weights = std::move(weights);
    return out;
}

}  // namespace kestrel
