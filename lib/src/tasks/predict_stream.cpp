#include "kestrel/tasks/predict_stream.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/tasks/metrics_accumulator.hpp"
#include "kestrel/tasks/score_rows.hpp"

namespace kestrel {

ReadOptions scoring_read_options(const Model& model, const ReadOptions& base, bool scored) {
    ReadOptions options = model.align_options(base);
    // Unscored, a CSV with a header (its features found by name) is not read for the
    // model's label column (rows to predict often leave it empty, a missing label); the
    // reader's default stays, as before. Without a header the label's field places the
    // features, so it is kept.
    if (!scored && base.label_col.empty() && options.header) options.label_col.clear();
    // A LIBSVM file is read into a dense matrix only when every row lists every
    // feature: a decision about the whole file, which a stream cannot make, and which
    // changed a row's score in the last digits (dense and sparse kernels sum in their
    // own orders) with the other rows of the file. Predictions read LIBSVM sparse.
    options.densify = false;
    return options;
}
namespace {

// One piece of the stream, parsed, scored and made text (possibly on another thread).
struct ScoredStreamPiece {
    Table table;
    ScoredRows scored;         // what was computed; contributions only as their width
    ScoredRows header_shape;   // the written columns, without rows: a header made later
    std::string text;
    bool has_header = false;
    std::exception_ptr error;
};

// The state of one predict_stream call.
class PredictStreamRun {
public:
    PredictStreamRun(const Model& model, const PredictRequest& request, const TextSink& sink, const Context& ctx);
    PredictResult run();

private:
    ReadOptions read_options() const;
    void run_whole(const ReadOptions& options);
    void run_pieces(const ReadOptions& options, std::size_t chunk_bytes);
    void score_rest(TableStream& stream);
    void score_piece(const TableStream& stream, const TableStream::Piece& piece, ScoredStreamPiece& out,
                     bool with_header, int piece_threads) const;
    void write_piece(TableStream& stream, ScoredStreamPiece& piece);
    // The written columns of `scored` (moving its contributions, which only they hold).
    ScoredRows written_columns(ScoredRows& scored) const;
    std::vector<std::vector<std::string>> passthrough(const Table& t, PredictionLayout& layout) const;
    std::string table_text(const Table& t, const ScoredRows& written, bool header) const;
    void emit(std::string_view text) const {
        if (sink_) sink_(text);
    }

    const Model& model_;
    const PredictRequest& request_;
    const TextSink& sink_;
    const int threads_;
    std::string group_;                 // the group column, read with metrics only
    std::vector<std::string> copied_;   // the pass-through columns asked for
    ScoreOutputs computed_;             // what is scored: the output columns and what metrics need
    MetricsAccumulator accumulated_;
    PredictResult result_;
    Index rows_ = 0, dropped_ = 0;
    bool header_written_ = false;
};

PredictStreamRun::PredictStreamRun(const Model& model, const PredictRequest& request, const TextSink& sink,
                                   const Context& ctx)
    : model_(model), request_(request), sink_(sink),
      threads_(request.threads > 0 ? request.threads : ctx.resolved_threads()),
      accumulated_(model, MetricsSettings{request.group_column, request.read.label_col, request.model_path},
                   ctx) {
    if (!request.group_column.empty() && !request.metrics)
        throw UsageError("the group column " + request.group_column +
                         " names the queries of the rows for metrics (ndcg, map, mrr); ask for metrics");
    group_ = request.group_column;
    if (!request.id_column.empty()) copied_.push_back(request.id_column);
    copied_.insert(copied_.end(), request.keep_columns.begin(), request.keep_columns.end());
    // Scores are computed once and serve both the output columns and the metrics.
    const bool classify = model.task() == Task::classification;
    computed_.proba = request.proba || (request.metrics && classify && model.has_predict_proba());
    computed_.decision =
        request.decision || (request.metrics && classify && !computed_.proba && model.has_decision_function());
    computed_.contributions = request.contributions;
}

ReadOptions PredictStreamRun::read_options() const {
    ReadOptions base = request_.read;
    base.threads = threads_;
    ReadOptions options = scoring_read_options(model_, base, request_.metrics);
    options.keep_columns = copied_;
    if (!group_.empty()) options.keep_columns.push_back(group_);
    return options;
}

PredictResult PredictStreamRun::run() {
    const ReadOptions options = read_options();
    const std::size_t chunk = request_.chunk_bytes ? *request_.chunk_bytes : chosen_predict_chunk_bytes(request_.input);
    // A table cache holds a whole table: read or written whole.
    if (chunk == 0 || request_.keep_whole_table || !options.cache.empty()) run_whole(options);
    else run_pieces(options, chunk);
    if (request_.metrics) result_.predictions = accumulated_.predictions();
    return std::move(result_);
}

ScoredRows PredictStreamRun::written_columns(ScoredRows& scored) const {
    ScoredRows written;
    written.predicted = scored.predicted;
    if (request_.proba) written.proba = scored.proba;
    if (request_.decision) written.decision = scored.decision;
    written.contrib = std::move(scored.contrib);
    scored.contrib = Matrix(0, written.contrib.cols());
    return written;
}

std::vector<std::vector<std::string>> PredictStreamRun::passthrough(const Table& t, PredictionLayout& layout) const {
    layout.passthrough = t.kept_names;
    if (!group_.empty() && !t.kept_names.empty()) {
        // The group column is read for the metrics only: not written.
        layout.passthrough.pop_back();
        return std::vector<std::vector<std::string>>(t.kept.begin(), t.kept.end() - 1);
    }
    if (copied_.empty() || !t.kept_names.empty()) return t.kept;
    // A LIBSVM reader copies nothing: its rows have no named columns, only their lines.
    if (request_.id_column != "line" || !request_.keep_columns.empty())
        throw UsageError(t.source + ": LIBSVM rows have no columns to copy; " + option_named("id_col") +
                         " line writes each row's line number");
    layout.passthrough = {"line"};
    std::vector<std::string> lines;
    lines.reserve(t.labels->line.size());
    for (const auto line : t.labels->line) lines.push_back(std::to_string(line));
    return std::vector<std::vector<std::string>>{std::move(lines)};
}

std::string PredictStreamRun::table_text(const Table& t, const ScoredRows& written, bool header) const {
    PredictionLayout layout = request_.layout;
    const auto columns = passthrough(t, layout);
    return (header ? prediction_header(model_, written, layout) : std::string()) +
           prediction_rows(model_, written, layout, columns);
}

// The whole input at once (asked for, or a small file, or kept for the caller).
void PredictStreamRun::run_whole(const ReadOptions& options) {
    Table whole = read_table(request_.input, options);
    result_.source = whole.source;
    if (whole.X.rows() == 0) throw DataError(whole.source + ": no data rows");
    ScoredRows scored = score_rows(model_, whole.X, computed_);
    if (request_.metrics) accumulated_.add(whole, scored.predicted, scored.proba, scored.decision);
    emit(table_text(whole, written_columns(scored), true));
    if (request_.keep_whole_table) {
        result_.whole = std::move(whole);
        result_.whole_predicted = std::move(scored.predicted);
    }
}

void PredictStreamRun::score_piece(const TableStream& stream, const TableStream::Piece& piece, ScoredStreamPiece& out,
                                   bool with_header, int piece_threads) const {
    try {
        out.table = stream.parse(piece, piece_threads);
        if (out.table.X.rows() == 0) return;
        out.scored = score_rows(model_, out.table.X, computed_);
        const ScoredRows written = written_columns(out.scored);
        out.text = table_text(out.table, written, with_header);
        out.has_header = with_header;
        out.header_shape.proba = written.proba.topRows(0);
        out.header_shape.decision = written.decision.topRows(0);
        out.header_shape.contrib = written.contrib.topRows(0);
    } catch (...) {
        out.error = std::current_exception();
    }
}

// In input order: the piece's error, the row limit, the header if no piece before had
// rows, the metrics, the text.
void PredictStreamRun::write_piece(TableStream& stream, ScoredStreamPiece& piece) {
    if (piece.error) std::rethrow_exception(piece.error);
    stream.learn(piece.table);
    rows_ += piece.table.X.rows();
    dropped_ += piece.table.dropped_rows;
    const Index max_rows = request_.read.max_rows;
    if (max_rows > 0 && rows_ + dropped_ > max_rows)
        throw DataError(result_.source + ": more than " + option_named("max_rows") + " " + std::to_string(max_rows) +
                        " data rows");
    if (piece.table.X.rows() == 0) return;
    if (!header_written_ && !piece.has_header) {
        // The header is made with the first piece that has rows; in a batch of several
        // it may be a later one, scored before the earlier ones were known to be empty.
        PredictionLayout layout = request_.layout;
        (void)passthrough(piece.table, layout);
        piece.text = prediction_header(model_, piece.header_shape, layout) + piece.text;
    }
    header_written_ = true;
    if (request_.metrics) accumulated_.add(piece.table, piece.scored.predicted, piece.scored.proba, piece.scored.decision);
    emit(piece.text);
}

void PredictStreamRun::run_pieces(const ReadOptions& options, std::size_t chunk_bytes) {
    TableStream stream(request_.input, options, chunk_bytes);
    result_.source = stream.source();
    // Pieces are taken one at a time until one holds records: it settles what later
    // pieces need (the field count of a CSV without a header, TableStream::learn).
    TableStream::Piece piece;
    while (rows_ + dropped_ == 0 && stream.next(piece)) {
        ScoredStreamPiece scored;
        score_piece(stream, piece, scored, !header_written_, threads_);
        write_piece(stream, scored);
    }
    if (rows_ + dropped_ > 0) score_rest(stream);
    stream.finish(rows_, dropped_);
}

// The rest of the stream in one parallel region: each thread takes the next piece,
// parses and scores it, and the thread that completes the earliest unwritten piece
// writes every piece that is then ready, in input order. No thread waits at a barrier
// between pieces: an OpenMP barrier spins, and a spinning thread takes the core that
// decompression (its own thread) or a slower piece needs.
void PredictStreamRun::score_rest(TableStream& stream) {
    std::mutex take_mutex, write_mutex;
    std::size_t taken = 0, written = 0;
    std::map<std::size_t, ScoredStreamPiece> ready;  // completed, waiting for an earlier piece
    std::exception_ptr error;                        // the first error in input order
    std::atomic<bool> stop{false};
    // Writes every piece that is ready in input order, up to a gap or the first error
    // (called with write_mutex held, or after the region).
    const auto write_ready = [&] {
        for (auto next = ready.find(written); next != ready.end() && !error; next = ready.find(written)) {
            try {
                write_piece(stream, next->second);
            } catch (...) {
                error = std::current_exception();
                stop.store(true, std::memory_order_relaxed);
            }
            ready.erase(next);
            ++written;
        }
    };
#pragma omp parallel num_threads(threads_)
    for (;;) {
        TableStream::Piece piece;
        std::size_t index = 0;
        {
            const std::lock_guard<std::mutex> lock(take_mutex);
            if (stop.load(std::memory_order_relaxed)) break;
            try {
                if (!stream.next(piece)) break;
            } catch (...) {
                // A read error comes after every piece taken before it: it is recorded
                // as that place's piece, so the pieces before it are written first.
                ScoredStreamPiece failed;
                failed.error = std::current_exception();
                stop.store(true, std::memory_order_relaxed);
                const std::lock_guard<std::mutex> wlock(write_mutex);
                ready.emplace(taken++, std::move(failed));
                break;
            }
            index = taken++;
        }
        ScoredStreamPiece scored;
        score_piece(stream, piece, scored, false, 1);
        const std::lock_guard<std::mutex> lock(write_mutex);
        ready.emplace(index, std::move(scored));
        write_ready();
    }
    // A read error taken after the last piece a thread wrote is written by nobody above.
    write_ready();
    if (error) std::rethrow_exception(error);
}

}  // namespace

std::size_t chosen_predict_chunk_bytes(const std::string& input) {
    if (input.empty() || input == "-") return kDefaultPredictChunkBytes;
    std::error_code ec;
    const auto status = std::filesystem::status(input, ec);
    if (ec || !std::filesystem::is_regular_file(status)) return kDefaultPredictChunkBytes;
    // A compressed file is always streamed: a small one may hold gigabytes of text.
    if (is_compressed_file(input)) return kDefaultPredictChunkBytes;
    const auto size = std::filesystem::file_size(input, ec);
    return !ec && size <= kWholeFilePredictLimit ? 0 : kDefaultPredictChunkBytes;
}

PredictResult predict_stream(const Model& model, const PredictRequest& request, const TextSink& sink,
                             const Context& ctx) {
    return PredictStreamRun(model, request, sink, ctx).run();
}

}  // namespace kestrel
