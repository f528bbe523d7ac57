#include <charconv>
#include <cstdlib>
#include <unordered_map>
#include <exception>
#include <filesystem>

#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/explain_output.hpp"
#include "common/prediction_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/query_metrics.hpp"
#include "kestrel/metrics/regression.hpp"

namespace kestrel::cli {
namespace {

// How much input a piece of the stream holds (--chunk-bytes): small enough that
// memory is the model plus a few pieces, large enough that the per-piece work
// (a parse, a predict call, a write) is amortised.
constexpr std::size_t default_chunk_bytes = std::size_t{1} << 20;

// A regular file up to this size is read whole, as before streaming: small files score
// faster that way (an SVM on letter's 4,000-row LIBSVM test file: 256 ms against 331 ms
// streamed), larger ones slower (logistic on a 56 MB CSV of 340,000 rows: 0.9 CPU s whole
// against 0.2 streamed; the two cross between 2 and 4 MB, bench/predict/stream_bench.sh).
// The output bytes are the same either way (tested). Pipes, standard input and larger
// files stream in default_chunk_bytes pieces.
constexpr std::uintmax_t whole_file_limit = std::uintmax_t{4} << 20;

bool whole_file_limit_applies(const std::string& input) {
    if (input.empty() || input == "-") return false;
    std::error_code ec;
    const auto status = std::filesystem::status(input, ec);
    if (ec || !std::filesystem::is_regular_file(status)) return false;
    const auto size = std::filesystem::file_size(input, ec);
    return !ec && size <= whole_file_limit;
}

// What the scores of a piece are, and what --metrics keeps of them.
struct Scoring {
    bool classify = false;
    bool proba = false, decision = false;            // output columns
    bool contrib = false;                            // feature contribution columns
    bool want_proba = false, want_decision = false;  // computed (output or metrics)
};

// Eigen picks its product kernels by size: a matrix of one row is multiplied as a dot
// product, one of a few rows coefficient by coefficient, larger ones by blocks, and each
// sums in its own order. A row's prediction must not depend on how many rows are scored
// with it (a piece of a stream, the whole input, a one-row file): dense tables of fewer
// rows than this are scored with their last row repeated up to it.
constexpr Index min_scored_rows = 32;

// X with its last row repeated up to `rows` rows.
Features padded_rows(const Features& X, Index rows) {
    const Index n = X.rows();
    if (!X.is_sparse()) {
        DenseMatrix padded(rows, X.cols());
        padded.topRows(n) = X.dense_ref();
        for (Index i = n; i < rows; ++i) padded.row(i) = X.dense_ref().row(n - 1);
        return Features(std::move(padded));
    }
    const SparseMatrix& S = X.sparse_ref();
    std::vector<Eigen::Triplet<double, int>> entries;
    for (Index i = 0; i < rows; ++i)
        for (SparseMatrix::InnerIterator it(S, std::min(i, n - 1)); it; ++it)
            entries.emplace_back(static_cast<int>(i), static_cast<int>(it.col()), it.value());
    SparseMatrix padded(rows, X.cols());
    padded.setFromTriplets(entries.begin(), entries.end());
    return Features(std::move(padded));
}

PredictionColumns score(const Model& model, const Features& X, const Scoring& s, Matrix& proba_m, Matrix& decision_m) {
    const Index n = X.rows();
    if (n > 0 && n < min_scored_rows) {
        PredictionColumns cols = score(model, padded_rows(X, min_scored_rows), s, proba_m, decision_m);
        cols.predicted = cols.predicted.head(n).eval();
        if (proba_m.size() > 0) proba_m = proba_m.topRows(n).eval();
        if (decision_m.size() > 0) decision_m = decision_m.topRows(n).eval();
        if (s.proba) cols.proba = proba_m;
        if (s.decision) cols.decision = decision_m;
        if (s.contrib) cols.contrib = cols.contrib.topRows(n).eval();
        return cols;
    }
    PredictionColumns cols;
    cols.predicted = model.predict(X);
    proba_m = s.want_proba ? model.predict_proba(X) : Matrix();
    decision_m = s.want_decision ? model.decision_function(X) : Matrix();
    if (s.proba) cols.proba = proba_m;
    if (s.decision) cols.decision = decision_m;
    if (s.contrib) cols.contrib = model.contributions(X);
    return cols;
}

// --metrics over a stream: truths, predictions and scores appended piece by piece
// (std::vector grows amortised; an Eigen matrix would be copied whole each time), 8
// bytes per row for each of truth, prediction and score column.
class MetricsAccumulator {
public:
    // group_col: --group-col, whose text the reader kept as the last pass-through column;
    // label_col: --label-col (empty: the model's label column, or for a model file without
    // it the reader's default, which is warned about once).
    MetricsAccumulator(const Model& model, const Scoring& s, std::string group_col, std::string label_col,
                       std::string model_path, const Context& ctx)
        : model_(model), s_(s), classes_(model.classes()), group_col_(std::move(group_col)),
          label_col_(std::move(label_col)), model_path_(std::move(model_path)), ctx_(ctx) {}

    void add(const Table& t, const Vector& predicted, const Matrix& proba, const Matrix& decision) {
        if (t.X.rows() == 0) return;
        if (!t.labels) throw DataError(t.source + ": --metrics: " + missing_label());
        if (!label_checked_) {
            label_checked_ = true;
            // A CSV file scored by a model file that does not say which column its label was.
            if (label_col_.empty() && t.fields > 0 && !model_.label_column().known())
                ctx_.warning(model_path_ + " does not record its label column (a model file older than format "
                             "version 6, or trained on a LIBSVM file): scoring against " +
                             (t.label_name.empty() ? std::string("the first column")
                                                   : "column '" + t.label_name + "'") +
                             "; --label-col names the column to score against");
        }
        std::vector<double> qid = t.labels->qid;
        if (!group_col_.empty()) {
            if (t.kept.empty())
                throw UsageError("--group-col " + group_col_ + " names a CSV column; " + t.source +
                                 " is a LIBSVM file, whose rows give qid:N");
            // Query ids from the column's text: the number, or for words an id per distinct word.
            for (const std::string& text : t.kept.back()) {
                double v = 0;
                const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
                if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
                    v = -1.0 - static_cast<double>(words_.emplace(text, words_.size()).first->second);
                qid.push_back(v);
            }
        }
        const Vector truth = s_.classify ? encode_with_classes(*t.labels, classes_) : numeric_targets(*t.labels, t.source);
        y_true_.insert(y_true_.end(), truth.data(), truth.data() + truth.size());
        y_pred_.insert(y_pred_.end(), predicted.data(), predicted.data() + predicted.size());
        // Query ids (a ranking model's test file): kept with their lines, checked whole at the end.
        if (qid.empty() != qid_.empty() && !y_line_.empty())
            throw DataError(t.source + ": some rows have a query id (qid:N) and others none");
        qid_.insert(qid_.end(), qid.begin(), qid.end());
        y_line_.insert(y_line_.end(), t.labels->line.begin(), t.labels->line.end());
        source_ = t.source;
        append_rows(proba_, proba_cols_, proba);
        append_rows(decision_, decision_cols_, decision);
    }

    Predictions predictions() const {
        Predictions pr;
        pr.task = model_.task();
        pr.y_true = Eigen::Map<const Vector>(y_true_.data(), static_cast<Index>(y_true_.size()));
        pr.y_pred = Eigen::Map<const Vector>(y_pred_.data(), static_cast<Index>(y_pred_.size()));
        if (!qid_.empty() && !s_.classify) {
            pr.qid = Eigen::Map<const Vector>(qid_.data(), static_cast<Index>(qid_.size()));
            check_query_ids(pr.qid, y_line_, source_);
        }
        if (s_.classify) {
            pr.classes = classes_;
            pr.proba = rows_to_matrix(proba_, proba_cols_);
            pr.decision = rows_to_matrix(decision_, decision_cols_);
        }
        return pr;
    }

private:
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    static void append_rows(std::vector<double>& to, Index& cols, const Matrix& m) {
        if (m.size() == 0) return;
        cols = m.cols();
        const RowMajor r = m;
        to.insert(to.end(), r.data(), r.data() + r.size());
    }
    static Matrix rows_to_matrix(const std::vector<double>& v, Index cols) {
        if (cols == 0 || v.empty()) return Matrix();
        return Eigen::Map<const RowMajor>(v.data(), static_cast<Index>(v.size()) / cols, cols);
    }
    // Why a file has no labels to score against, naming --label-col.
    std::string missing_label() const {
        const LabelColumn& c = model_.label_column();
        if (!label_col_.empty())
            return "the data file has no label column '" + label_col_ + "'; --label-col names the column to score against";
        if (!c.name.empty())
            return "the data file has no column '" + c.name +
                   "' (the model's label column); --label-col names the column to score against";
        if (c.index >= 0)
            return "the data file has no label field (the model's label was field " + std::to_string(c.index) +
                   " of its training file, counting from 0); --label-col names the column to score against";
        return "the data file has no label column; --label-col names the column to score against";
    }
    const Model& model_;
    Scoring s_;
    std::vector<std::string> classes_;
    std::string group_col_;
    std::string label_col_, model_path_;
    const Context& ctx_;
    bool label_checked_ = false;
    std::unordered_map<std::string, std::size_t> words_;
    std::vector<double> y_true_, y_pred_, proba_, decision_, qid_;
    std::vector<std::uint64_t> y_line_;
    std::string source_;
    Index proba_cols_ = 0, decision_cols_ = 0;
};

}  // namespace

int run_predict(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Predict with a saved model; optionally score the predictions.\n"
                 "  kestrel-predict MODEL.json DATA_FILE [-o PRED.csv] [--proba | --decision] [--metrics]",
                 "kestrel-predict"};
    CommonFlags common;
    DataFlags data;
    std::string model_path, input, output;
    bool proba = false, decision = false, metrics = false;
    common.add_to(app);
    data.add_to(app);
    data.add_group_to(app);
    app.add_option("MODEL", model_path, "model file written by kestrel-train")->type_name("FILE")->required();
    app.add_option("DATA_FILE", input, "data to predict (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("-o,--output", output, "predictions file (default: stdout; with --json --metrics: not written)")->type_name("FILE");
    auto* p = app.add_flag("--proba", proba, "add class probability columns (named proba_CLASS)");
    app.add_flag("--decision", decision, "add decision value columns")->excludes(p);
    app.add_flag("--metrics", metrics, "score the predictions against the file's labels");
    bool contrib = false;
    app.add_flag("--contrib", contrib,
                 "tree, forest, gbdt, linear models: add each row's feature contributions (TreeSHAP, or "
                 "w_j (x_j - mean_j); one column per input column, then bias; CLASS:feature per class for "
                 "several outputs), summing to the raw output");
    bool explain = false;
    app.add_flag("--explain", explain,
                 "tree, forest, adaboost: print each row's decision path (features, thresholds, leaf) to stdout");
    double threshold = 0;
    auto* threshold_flag = app.add_option("--threshold", threshold,
                                          "binary: predict the positive class when P(positive) (or, without "
                                          "probabilities, the decision value) is above this");
    std::string output_format = "csv";
    app.add_option("--output-format", output_format, "predictions as csv, tsv, or jsonl (one JSON object per row)")
        ->check(CLI::IsMember({"csv", "tsv", "jsonl"}))
        ->capture_default_str();
    bool no_output_header = false;
    app.add_flag("--no-output-header", no_output_header,
                 "csv, tsv: bare values, no column names (as svm-predict writes)");
    std::string id_col;
    std::vector<std::string> keep_cols;
    app.add_option("--id-col", id_col,
                   "copy this input column (CSV: header name or 0-based index; LIBSVM: 'line', the line number) "
                   "into the output, first");
    app.add_option("--keep-cols", keep_cols, "copy these CSV columns (names or 0-based indices) into the output, "
                                             "before the predictions")
        ->delimiter(',')
        ->type_name("COL[,COL...]");
    // Hidden: the size of the pieces the input is read in (0 = the whole input at once);
    // tests make it tiny to cross many piece boundaries. Not given: whole_file_limit.
    long long chunk_bytes = -1;
    app.add_option("--chunk-bytes", chunk_bytes, "")->group("")->check(whole_number(0, std::numeric_limits<long long>::max()));
    PlotFlags plots;
    plots.add_to(app, prediction_plot_kinds(), true);
    if (!parse(app, args, io)) return 0;
    if (chunk_bytes < 0) chunk_bytes = whole_file_limit_applies(input) ? 0 : static_cast<long long>(default_chunk_bytes);
    const auto plot_targets = plots.targets(prediction_plot_kinds());
    if (plots.any()) metrics = true;  // curves and plots score the predictions: they imply --metrics

    Model model = Model::load(model_path);
    if (threshold_flag->count() > 0) model.set_threshold({threshold, model.threshold_score(), "user"});
    if ((proba || decision) && model.task() != Task::classification)
        throw UsageError(std::string(proba ? "--proba" : "--decision") + " needs a classifier; " + model.model_name() +
                         " was trained for regression");
    if (proba && !model.has_predict_proba())
        throw UsageError("--proba: model " + model.model_name() + " does not give probabilities");
    if (decision && !model.has_decision_function())
        throw UsageError("--decision: model " + model.model_name() + " has no decision function");

    check_prediction_outputs(plot_targets, plots.curves, model.task(),
                             model.has_predict_proba() || model.has_decision_function(), model.model_name(),
                             model.has_predict_proba());
    if (explain) check_explain(model, output.empty());
    if (contrib) (void)model.contribution_sources();  // refused before any input is read
    Context ctx = common.context(io);
    const int threads = ctx.resolved_threads();

    Scoring s;
    s.classify = model.task() == Task::classification;
    s.proba = proba;
    s.decision = decision;
    s.contrib = contrib;
    // Scores are computed once and serve both the output columns and the metrics.
    s.want_proba = proba || (metrics && s.classify && model.has_predict_proba());
    s.want_decision = decision || (metrics && s.classify && !s.want_proba && model.has_decision_function());
    PredictionLayout layout;
    layout.format = table_format_from_string(output_format);
    layout.header = !no_output_header;

    // Pass-through columns: the reader copies CSV fields; a LIBSVM row's id is its line.
    std::vector<std::string> copied;
    if (!id_col.empty()) copied.push_back(id_col);
    copied.insert(copied.end(), keep_cols.begin(), keep_cols.end());
    if (!data.group_col.empty() && !metrics)
        throw UsageError("--group-col names the queries of the rows for --metrics (ndcg, map, mrr); give --metrics");
    const auto passthrough = [&](const Table& t, PredictionLayout& l) {
        l.passthrough = t.kept_names;
        if (!data.group_col.empty() && !t.kept_names.empty()) {
            // The --group-col column is read for the metrics only: not written.
            l.passthrough.pop_back();
            return std::vector<std::vector<std::string>>(t.kept.begin(), t.kept.end() - 1);
        }
        if (copied.empty() || !t.kept_names.empty()) return t.kept;
        // A LIBSVM reader copies nothing: its rows have no named columns.
        if (id_col != "line" || !keep_cols.empty())
            throw UsageError(t.source + ": LIBSVM rows have no columns to copy; --id-col line writes each row's line number");
        l.passthrough = {"line"};
        std::vector<std::string> lines;
        lines.reserve(t.labels->line.size());
        for (const auto line : t.labels->line) lines.push_back(std::to_string(line));
        return std::vector<std::vector<std::string>>{std::move(lines)};
    };
    // The header and rows of one table.
    const auto table_text = [&](const Table& t, const PredictionColumns& cols, bool header) {
        PredictionLayout l = layout;
        const auto columns = passthrough(t, l);
        return (header ? prediction_header(model, cols, l) : std::string()) + prediction_rows(model, cols, l, columns);
    };

    const bool write_predictions = !(common.json && metrics && output.empty());
    MetricsAccumulator accumulated(model, s, data.group_col, data.label_col, model_path, ctx);
    std::string source;
    Table whole;  // --explain: the whole input, kept for the explanation

    // Produces the predictions' text piece by piece into `sink`, in input order.
    const auto produce = [&](const TextSink& sink) {
        ReadOptions options = model.align_options(data.options(threads));
        // Unscored, a CSV with a header (its features found by name) is not read for the
        // model's label column (rows to predict often leave it empty, a missing label); the
        // reader's default stays, as before. Without a header the label's field places the
        // features, so it is kept.
        if (!metrics && data.label_col.empty() && options.header) options.label_col.clear();
        options.keep_columns = copied;
        if (!data.group_col.empty()) options.keep_columns.push_back(data.group_col);
        // A LIBSVM file is read into a dense matrix only when every row lists every
        // feature: a decision about the whole file, which a stream cannot make, and which
        // changed a row's score in the last digits (dense and sparse kernels sum in their
        // own orders) with the other rows of the file. Predictions read LIBSVM sparse.
        options.densify = false;
        if (chunk_bytes == 0 || explain) {
            // The whole input at once: --explain prints every row's path after the
            // predictions (and --chunk-bytes 0 asks for it).
            whole = read_table(input, options);
            source = whole.source;
            if (whole.X.rows() == 0) throw DataError(whole.source + ": no data rows");
            Matrix proba_m, decision_m;
            const PredictionColumns cols = score(model, whole.X, s, proba_m, decision_m);
            if (metrics) accumulated.add(whole, cols.predicted, proba_m, decision_m);
            sink(table_text(whole, cols, true));
            if (explain) io.out << explain_text(model, whole.X, cols.predicted);
            return;
        }
        TableStream stream(input, options, static_cast<std::size_t>(chunk_bytes));
        source = stream.source();
        Index rows = 0, dropped = 0;
        bool header_written = false;
        // The first batch is one piece (it settles what later pieces need: the field
        // count of a CSV without a header); then as many pieces as threads, parsed and
        // scored in parallel, written in input order.
        std::size_t batch = 1;
        std::vector<TableStream::Piece> pieces;
        for (;;) {
            pieces.resize(batch);
            std::size_t n = 0;
            while (n < batch && stream.next(pieces[n])) ++n;
            if (n == 0) break;
            std::vector<Table> tables(n);
            std::vector<std::string> texts(n);
            std::vector<Vector> predicted(n);
            std::vector<Matrix> probas(n), decisions(n), contributions(n);
            std::vector<std::exception_ptr> errors(n);
            const auto work = [&](std::size_t k, int piece_threads) {
                try {
                    tables[k] = stream.parse(pieces[k], piece_threads);
                    if (tables[k].X.rows() == 0) return;
                    const PredictionColumns cols = score(model, tables[k].X, s, probas[k], decisions[k]);
                    texts[k] = table_text(tables[k], cols, !header_written && k == 0);
                    predicted[k] = cols.predicted;
                    if (s.contrib) contributions[k] = cols.contrib.topRows(0);  // its width, for a later header
                } catch (...) {
                    errors[k] = std::current_exception();
                }
            };
            if (n == 1) {
                work(0, threads);
            } else {
                const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::min<int>(threads, static_cast<int>(n)))
                for (std::int64_t k = 0; k < count; ++k) work(static_cast<std::size_t>(k), 1);
            }
            for (std::size_t k = 0; k < n; ++k) {
                // What comes before a bad piece is written whole, then the error.
                if (errors[k]) std::rethrow_exception(errors[k]);
                stream.learn(tables[k]);
                rows += tables[k].X.rows();
                dropped += tables[k].dropped_rows;
                const Index max_rows = data.max_rows;
                if (max_rows > 0 && rows + dropped > max_rows)
                    throw DataError(source + ": more than --max-rows " + std::to_string(max_rows) + " data rows");
                if (tables[k].X.rows() == 0) continue;
                if (!header_written && texts[k].empty()) {
                    // The header is made with the first piece that has rows; in a batch of
                    // several it may be a later one.
                    PredictionColumns shape;
                    shape.proba = probas[k].cols() > 0 && s.proba ? probas[k] : Matrix();
                    shape.decision = decisions[k].cols() > 0 && s.decision ? decisions[k] : Matrix();
                    shape.contrib = contributions[k];
                    PredictionLayout l = layout;
                    (void)passthrough(tables[k], l);
                    texts[k] = prediction_header(model, shape, l) + texts[k];
                }
                header_written = true;
                if (metrics) accumulated.add(tables[k], predicted[k], probas[k], decisions[k]);
                sink(texts[k]);
            }
            batch = static_cast<std::size_t>(threads);
        }
        stream.finish(rows, dropped);
    };

    if (!write_predictions) produce([](std::string_view) {});
    else if (output.empty())
        produce([&io](std::string_view piece) {
            io.out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            io.check_out();  // a full disk or a closed pipe ends the run now
        });
    else write_file_atomically_in_pieces(output, produce);

    if (metrics) {
        const Predictions pr = accumulated.predictions();
        // Predictions on stdout keep stdout clean: the report then goes to stderr.
        std::ostream& report_out = (write_predictions && output.empty()) ? io.err : io.out;
        if (s.classify) {
            write_prediction_outputs(plot_targets, plots.curves, pr, model.model_name() + " on " + short_source(source));
            const auto report = classification_report(pr);
            report_out << (common.json ? report.to_json().dump(2) + "\n" : report.to_text());
        } else if (pr.qid.size() > 0) {
            const auto report = ranking_report(pr);
            report_out << (common.json ? report.to_json().dump(2) + "\n" : report.to_text());
        } else {
            const auto report = regression_report(pr);
            report_out << (common.json ? report.to_json().dump(2) + "\n" : report.to_text());
        }
    }
    return 0;
}

}  // namespace kestrel::cli
