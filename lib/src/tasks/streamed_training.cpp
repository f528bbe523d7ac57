// The training file read as a stream of blocks (docs/large-data.md).
#include "kestrel/tasks/streamed_training.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

#include "kestrel/core/error.hpp"
#include "table_scan.hpp"
#include "training_shard_categories.hpp"

namespace kestrel {
namespace {

using ProgressReport = decltype(Context::progress);

// The file's features, read again at every pass, each piece made as wide as the table.
class FileRowBlocks final : public RowBlocks {
public:
    FileRowBlocks(std::string path, ReadOptions read, std::size_t piece_bytes, Index rows, Index cols, Vector means,
                  ProgressReport progress)
        : path_(std::move(path)), read_(std::move(read)), piece_bytes_(piece_bytes), rows_(rows), cols_(cols),
          means_(std::move(means)), progress_(std::move(progress)) {}

    void for_each(const Visit& visit) const override {
        ++passes_;
        const std::string label = "pass " + std::to_string(passes_) + " over the training file";
        detail::each_piece(path_, read_, piece_bytes_, [&](Table& t, Index first) {
            detail::widen_table(t, cols_);
            visit(t.X, first);
            if (progress_) progress_(label, static_cast<std::uint64_t>(first + t.X.rows()), static_cast<std::uint64_t>(rows_));
        });
    }
    Index rows() const override { return rows_; }
    Index cols() const override { return cols_; }
    const Vector& column_means() const override { return means_; }
    int passes() const override { return passes_; }

private:
    std::string path_;
    ReadOptions read_;
    std::size_t piece_bytes_;
    Index rows_, cols_;
    Vector means_;
    ProgressReport progress_;
    mutable int passes_ = 0;
};

// Why the scanned table cannot be fitted from a stream, or empty.
std::string why_not_streamed(const detail::Scan& s) {
    if (!s.categorical.empty())
        return s.source + ": column " + std::to_string(s.categorical.front() + 1) +
               " holds categories, which a linear model encodes in memory";
    const auto missing = std::find_if(s.missing.begin(), s.missing.end(), [](Index m) { return m > 0; });
    if (missing != s.missing.end() || !s.column_sums.allFinite())
        return s.source + ": the table has missing or infinite cells, which a linear model imputes in memory";
    return {};
}

}  // namespace

StreamedTrainingData read_streamed_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                 const Context& ctx, std::size_t piece_bytes) {
    if (!options.weights_column.empty() || !options.group_column.empty())
        throw UsageError("a stream of rows takes no weights or query column yet (docs/large-data.md)");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.path, ec))
        throw UsageError(options.path + ": a stream of rows reads its file once per pass: it must be a regular file");
    ReadOptions read = options.read;
    if (read.threads <= 0) read.threads = ctx.resolved_threads();
    detail::BudgetScan scanned =
        detail::scan_in_budget_pieces(options.path, read, piece_bytes, nullptr, "a stream of rows");
    detail::Scan s = std::move(scanned.scan);
    piece_bytes = scanned.piece_bytes;
    detail::check_scanned_table(options.path, read, piece_bytes, s);
    StreamedTrainingData out;
    out.refused = why_not_streamed(s);
    if (!out.refused.empty()) return out;
    Vector means = Vector::Zero(s.width);
    means.head(s.column_sums.size()) = s.column_sums / static_cast<double>(std::max<Index>(1, s.rows));
    out.blocks = std::make_shared<const FileRowBlocks>(options.path, read, piece_bytes, s.rows, s.width,
                                                       std::move(means), ctx.progress);
    out.label_name = s.label_name;
    out.data = training_dataset(detail::shape_table(std::move(s)), spec, options);
    return out;
}

}  // namespace kestrel
