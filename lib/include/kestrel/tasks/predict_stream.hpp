#pragma once
// Predicting a stream: a data file (a path, a pipe, or "-" for standard input) scored
// with a model piece by piece, its predictions written as text in input order, and
// optionally scored against its labels. The bytes written do not depend on the piece
// size or the thread count: rows are scored through score_rows (the padding rule).
//
// The first batch is one piece (it settles what later pieces need: the field count of a
// CSV without a header); then as many pieces as threads are parsed and scored in
// parallel and written in input order. What comes before a bad piece is written whole,
// then the piece's error is thrown.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/metrics/predictions.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel {

// How much input a piece of the stream holds when the request does not say: small enough
// that memory is the model plus a few pieces, large enough that the per-piece work (a
// parse, a predict call, a write) is amortised.
inline constexpr std::size_t kDefaultPredictChunkBytes = std::size_t{1} << 20;

// A regular file up to this size is read whole, as before streaming: small files score
// faster that way (an SVM on letter's 4,000-row LIBSVM test file: 256 ms against 331 ms
// streamed), larger ones slower (logistic on a 56 MB CSV of 340,000 rows: 0.9 CPU s whole
// against 0.2 streamed; the two cross between 2 and 4 MB, bench/predict/stream_bench.sh).
// The bytes are the same either way. Pipes, standard input, compressed files (whose text may
// be any size) and larger files stream.
inline constexpr std::uintmax_t kWholeFilePredictLimit = std::uintmax_t{4} << 20;

// The piece size for `input` when none is asked for: 0 (the whole input at once) for a
// regular file up to kWholeFilePredictLimit, else kDefaultPredictChunkBytes.
std::size_t chosen_predict_chunk_bytes(const std::string& input);

struct PredictRequest {
    std::string input;  // a path, or "-" for standard input
    // How to read it; the task aligns it with the model (Model::align_options), reads
    // LIBSVM sparse, and adds the pass-through and group columns. read.label_col empty:
    // the model's label column. read.max_rows: the row limit over the whole stream.
    ReadOptions read;
    // Output columns besides the prediction.
    bool proba = false, decision = false, contributions = false;
    PredictionLayout layout;  // format and header; its passthrough names are filled per table
    // Pass-through columns written before the predictions: CSV column names or 0-based
    // indices; for a LIBSVM input only id_column "line", each row's line number.
    std::string id_column;
    std::vector<std::string> keep_columns;
    // Score the predictions against the rows' labels (PredictResult::predictions).
    bool metrics = false;
    std::string group_column;  // with metrics: a CSV column of query ids (learning to rank)
    std::string model_path;    // names the model file in messages
    // Piece size in bytes; 0 = the whole input at once; unset = chosen_predict_chunk_bytes.
    std::optional<std::size_t> chunk_bytes;
    // Read the whole input at once and keep it (and its predictions) in the result.
    bool keep_whole_table = false;
    int threads = 0;  // 0 = the context's
};

struct PredictResult {
    std::string source;       // the input's name in messages ("<stdin>" for standard input)
    Predictions predictions;  // with metrics: truths, predictions and scores of every row
    // With keep_whole_table: the input as read, and its predictions.
    Table whole;
    Vector whole_predicted;
};

// How rows to score with `model` are read, as predict_stream reads them: `base` aligned
// with the model (Model::align_options), LIBSVM read sparse, and, unless the rows are
// `scored` against their labels, a CSV with a header not read for the model's label
// column when `base` names none. A program scoring a whole file at once reads it so.
ReadOptions scoring_read_options(const Model& model, const ReadOptions& base, bool scored);

// Scores request.input with `model`, handing the predictions' text to `sink` piece by
// piece in input order. Throws the readers' DataError on bad input; a problem with one of
// the request's settings names it (option_named: "label_col", "group_col", "id_col",
// "max_rows", "metrics"), for a front end to spell as its own.
PredictResult predict_stream(const Model& model, const PredictRequest& request, const TextSink& sink,
                             const Context& ctx);

}  // namespace kestrel
