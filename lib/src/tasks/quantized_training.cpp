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
#include "table_scan.hpp"

namespace kestrel {
namespace {

using detail::align_piece;
using detail::each_piece;
using detail::refuse_empty_columns;
using detail::Scan;
using detail::scan_file;


// The reads of the cut sample's values, `group` numeric features at a time (the first read
// also counts every row's category codes), and the cuts they give.
struct CutReads {
    BinCuts cuts;
    int passes = 0;
};

CutReads read_cuts(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s,
                   int max_bins, std::uint64_t seed, std::size_t group) {
    const auto d = static_cast<std::size_t>(s.width);
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
                if (t.X.is_sparse()) {
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

}  // namespace

QuantizedTrainingData read_quantized_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                   int max_bins, std::uint64_t seed, const StoreReadSizes& sizes) {
    if (!options.weights_column.empty() || !options.group_column.empty())
        throw UsageError("the quantized store takes no weights or query column yet (docs/large-data.md)");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.path, ec))
        throw UsageError(options.path + ": the quantized store reads its file several times: it must be a regular file");
    ReadOptions read = options.read;
    read.densify = false;  // gbdt: an absent LIBSVM entry is missing
    if (read.threads <= 0) read.threads = Context{}.resolved_threads();
    Scan s = scan_file(options.path, read, sizes.piece_bytes);
    if (!s.has_labels) throw DataError(s.source + ": no label column");
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
    CutReads cuts = read_cuts(options.path, read, sizes.piece_bytes, s, max_bins, seed, group);
    check_memory(static_cast<std::uint64_t>(s.rows) * static_cast<std::uint64_t>(s.width) *
                         (cuts.cuts.fits_byte() ? 1 : 2),
                 read.max_memory, s.source + ": holding " + std::to_string(s.rows) + " rows x " +
                                      std::to_string(s.width) + " features quantized");
    BinnedMatrix bins(cuts.cuts, s.rows, s.width);
    each_piece(options.path, read, sizes.piece_bytes, [&](Table& t, Index first) {
        align_piece(t, s);
        bins.fill_rows(cuts.cuts, t.X, first, read.threads);
    });
    QuantizedTrainingData out;
    out.cut_passes = cuts.passes;
    out.label_name = s.label_name;
    out.store = std::make_shared<const QuantizedTable>(std::move(cuts.cuts), std::move(bins), max_bins, seed);
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
