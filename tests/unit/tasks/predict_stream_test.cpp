// The task floor's predictions are kestrel-predict's bytes: a library program scoring
// rows through kestrel/tasks (score_rows and the prediction text, or predict_stream) gets
// the same bytes as the command on the same rows, whether they are scored one at a time,
// in batches of 1, 7 or 33 rows, in stream pieces, or whole; for a dense model (logistic
// on iris's CSV) and a sparse one (gbdt on heart_scale's LIBSVM rows, read sparse).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/tasks/predict_stream.hpp"
#include "kestrel/tasks/prediction_text.hpp"
#include "kestrel/tasks/score_rows.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_predict_stream_test {

using namespace kestrel;

namespace {

std::string predict_command_bytes(const std::vector<std::string>& args) {
    const auto r = test::run(cli::run_predict, "kestrel-predict", args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return r.out;
}

std::string trained_model(const test::ScratchDir& dir, const std::vector<std::string>& train_args) {
    const std::string path = dir.path / "model.json";
    std::vector<std::string> args = train_args;
    args.insert(args.end(), {"-o", path, "-q"});
    const auto r = test::run(cli::run_train, "kestrel-train", args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return path;
}

// What kestrel-predict asks of the task without flags beyond the score columns: the
// commands read missing cells as NaN (--missing auto), the library's default refuses them.
PredictRequest command_like_request(const std::string& model_path, const std::string& input, const ScoreOutputs& outputs) {
    PredictRequest request;
    request.input = input;
    request.model_path = model_path;
    request.read.missing = MissingPolicy::keep;
    request.proba = outputs.proba;
    request.decision = outputs.decision;
    request.contributions = outputs.contributions;
    return request;
}

std::string streamed_bytes(const Model& model, PredictRequest request, std::size_t chunk_bytes, int threads) {
    request.chunk_bytes = chunk_bytes;
    request.threads = threads;
    std::string text;
    (void)predict_stream(model, request, [&text](std::string_view piece) { text += piece; }, Context{});
    return text;
}

// The table's rows scored `batch` at a time through score_rows, written in order.
std::string batched_bytes(const Model& model, const Table& table, Index batch, const ScoreOutputs& outputs) {
    const PredictionLayout layout;
    std::string text;
    const Index n = table.X.rows();
    for (Index start = 0; start < n; start += batch) {
        std::vector<Index> rows(static_cast<std::size_t>(std::min(batch, n - start)));
        std::iota(rows.begin(), rows.end(), start);
        const ScoredRows scored = score_rows(model, table.X.rows_subset(rows), outputs);
        if (start == 0) text += prediction_header(model, scored, layout);
        text += prediction_rows(model, scored, layout);
    }
    return text;
}

ScoreOutputs probabilities_only() {
    ScoreOutputs outputs;
    outputs.proba = true;
    return outputs;
}

std::vector<std::string> text_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
    return lines;
}

// The library's bytes against the command's, every way of cutting the rows.
void check_library_matches_command(const test::ScratchDir& dir, const std::string& model_path,
                                   const std::string& input, const std::string& score_flag,
                                   const ScoreOutputs& outputs, bool csv_header) {
    const Model model = Model::load(model_path);
    const std::string expected = predict_command_bytes({model_path, input, score_flag});
    const std::vector<std::string> expected_lines = text_lines(expected);
    REQUIRE(expected_lines.size() > 34);  // more rows than a batch of 33 and the padding's 32

    const PredictRequest request = command_like_request(model_path, input, outputs);
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{64}, std::size_t{700}, kDefaultPredictChunkBytes})
        for (const int threads : {1, 3}) {
            CAPTURE(chunk);
            CAPTURE(threads);
            CHECK(streamed_bytes(model, request, chunk, threads) == expected);
        }

    PredictRequest keep = request;
    keep.keep_whole_table = true;
    const Table table = predict_stream(model, keep, TextSink(), Context{}).whole;
    REQUIRE(table.X.rows() + 1 == static_cast<Index>(expected_lines.size()));  // the header, then a line a row
    for (const Index batch : {Index{1}, Index{7}, Index{33}, table.X.rows()}) {
        CAPTURE(batch);
        CHECK(batched_bytes(model, table, batch, outputs) == expected);
    }

    // kestrel-predict on one row alone (a file of that row) writes that row's line.
    const std::vector<std::string> input_lines = text_lines(test::slurp(input));
    const std::size_t first = csv_header ? 1 : 0;
    for (const std::size_t row : {std::size_t{0}, std::size_t{1}, std::size_t{17}, std::size_t{33}}) {
        CAPTURE(row);
        const std::string one = dir.file("one_row" + std::string(csv_header ? ".csv" : ".libsvm"),
                                         (csv_header ? input_lines[0] : "") + input_lines[first + row]);
        CHECK(predict_command_bytes({model_path, one, score_flag}) == expected_lines[0] + expected_lines[1 + row]);
    }
}

}  // namespace

TEST_SUITE("tasks.predict_stream") {
    TEST_CASE("a dense model: the library's bytes are kestrel-predict's, alone, in batches and streamed") {
        test::ScratchDir dir("tasks_predict_dense");
        const std::string model = trained_model(dir, {"-m", "logistic", test::repo_path("data/iris/train.csv")});
        // iris/test.csv has 30 rows: twice them crosses the padding's 32 and a batch of 33.
        const std::string text = test::slurp(test::repo_path("data/iris/test.csv"));
        const std::string body = text.substr(text.find('\n') + 1);
        const std::string input = dir.file("test.csv", text + body);
        check_library_matches_command(dir, model, input, "--proba", probabilities_only(), true);

        // By hand: each row's probabilities sum to 1 and the prediction is the likeliest class.
        const Model m = Model::load(model);
        PredictRequest keep = command_like_request(model, input, probabilities_only());
        keep.keep_whole_table = true;
        const Table table = predict_stream(m, keep, TextSink(), Context{}).whole;
        const ScoredRows one = score_rows(m, table.X.rows_subset(std::vector<Index>{4}), probabilities_only());
        REQUIRE(one.proba.rows() == 1);
        CHECK(one.proba.row(0).sum() == doctest::Approx(1.0));
        Index best = 0;
        one.proba.row(0).maxCoeff(&best);
        CHECK(one.predicted[0] == static_cast<double>(best));
    }

    TEST_CASE("a sparse model on LIBSVM rows: the same bytes every way") {
        test::ScratchDir dir("tasks_predict_sparse");
        const std::string model = trained_model(
            dir, {"-m", "gbdt", "-p", "n_estimators=20", test::repo_path("data/heart_scale/train.libsvm")});
        check_library_matches_command(dir, model, test::repo_path("data/heart_scale/test.libsvm"), "--proba",
                                      probabilities_only(), false);
    }

    TEST_CASE("by hand: an exact linear fit scores 1 + 2a - b, alone or padded, dense and sparse") {
        test::ScratchDir dir("tasks_predict_hand");
        const std::string model = trained_model(
            dir, {"-m", "least_squares", "--task", "regression", dir.file("train.csv", "y,a,b\n1,0,0\n3,1,0\n0,0,1\n6,2,-1\n4,1,-1\n")});
        const Model m = Model::load(model);
        DenseMatrix X(2, 2);
        X << 3, 1, -1, 2;  // 6 and -3
        const ScoredRows dense = score_rows(m, Features(X), {});
        CHECK(dense.predicted[0] == doctest::Approx(6.0));
        CHECK(dense.predicted[1] == doctest::Approx(-3.0));
        const SparseMatrix S = X.sparseView();
        const ScoredRows sparse = score_rows(m, Features(S), {});
        CHECK(sparse.predicted[1] == doctest::Approx(-3.0));
        CHECK(padded_rows(Features(S), kMinScoredRows).rows() == kMinScoredRows);
        CHECK(prediction_csv(m, dense) == predict_command_bytes({model, dir.file("x.csv", "a,b\n3,1\n-1,2\n")}));
    }

    TEST_CASE("the header comes with the first piece that has rows, also a later one of a parallel batch") {
        test::ScratchDir dir("tasks_predict_header");
        const std::string model = trained_model(dir, {"-m", "logistic", test::repo_path("data/iris/train.csv")});
        const Model m = Model::load(model);
        const std::string text = test::slurp(test::repo_path("data/iris/test.csv"));
        const std::size_t body = text.find('\n') + 1;
        // Pieces of one record: the first batch (one piece) and the first two of the next
        // batch (three pieces on three threads) have every row dropped.
        const std::string dropped = "setosa,NA,3,1.3,0.2\n";
        const std::string input = dir.file("t.csv", text.substr(0, body) + dropped + dropped + dropped + text.substr(body));
        PredictRequest request = command_like_request(model, input, probabilities_only());
        request.read.missing = MissingPolicy::drop;
        const std::string whole = streamed_bytes(m, request, 0, 1);
        CHECK(whole.rfind("prediction,proba_", 0) == 0);
        CHECK(streamed_bytes(m, request, 1, 3) == whole);
        CHECK(streamed_bytes(m, request, 1, 1) == whole);
    }

    TEST_CASE("a bad record in a later piece: every row before it is written, in order, then its error") {
        test::ScratchDir dir("tasks_predict_bad_piece");
        const std::string model = trained_model(dir, {"-m", "logistic", test::repo_path("data/iris/train.csv")});
        const Model m = Model::load(model);
        const std::string text = test::slurp(test::repo_path("data/iris/test.csv"));
        const std::string good = dir.file("good.csv", text);
        const std::string whole = streamed_bytes(m, command_like_request(model, good, probabilities_only()), 0, 1);
        const std::vector<std::string> lines = text_lines(text);
        const std::vector<std::string> expected = text_lines(whole);
        REQUIRE(lines.size() == 31);  // the header and 30 rows
        // Row 21 (file line 22) has a word where a number goes.
        std::string bad_text = lines[0];
        for (std::size_t i = 1; i < lines.size(); ++i) bad_text += i == 21 ? "setosa,5.1,oops,1.4,0.2\n" : lines[i];
        const std::string bad = dir.file("bad.csv", bad_text);
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{64}, std::size_t{300}})
            for (const int threads : {1, 2, 3}) {
                CAPTURE(chunk);
                CAPTURE(threads);
                std::string written;
                PredictRequest request = command_like_request(model, bad, probabilities_only());
                request.chunk_bytes = chunk;
                request.threads = threads;
                CHECK_THROWS_WITH_AS((void)predict_stream(m, request, [&written](std::string_view piece) { written += piece; },
                                                          Context{}),
                                     doctest::Contains("bad.csv:22:"), DataError);
                // Whole pieces only: the rows written are a prefix of the good file's, and with
                // pieces of one record exactly the 20 rows before the bad one.
                const std::vector<std::string> got = text_lines(written);
                REQUIRE(got.size() <= 21);
                for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == expected[i]);
                if (chunk == 1) CHECK(got.size() == 21);
            }
    }

    TEST_CASE("issues name the setting; the command spells it as its flag") {
        test::ScratchDir dir("tasks_predict_issues");
        const std::string model = trained_model(dir, {"-m", "logistic", test::repo_path("data/iris/train.csv")});
        const Model m = Model::load(model);
        PredictRequest request = command_like_request(model, test::repo_path("data/iris/test.csv"), {});
        request.read.max_rows = 3;
        // Pieces of one record each: the row limit is the stream's, not a piece reader's.
        CHECK_THROWS_WITH_AS(streamed_bytes(m, request, 1, 1), doctest::Contains("more than max_rows 3 data rows"),
                             DataError);
        // The command's words are today's, flags and all.
        const auto r = test::run(cli::run_predict, "kestrel-predict",
                                 {model, test::repo_path("data/iris/test.csv"), "--max-rows", "3", "--chunk-bytes", "1"});
        CHECK(r.code == 2);
        CHECK(r.err.find("more than --max-rows 3 data rows") != std::string::npos);
    }
}

}  // namespace unit_tasks_predict_stream_test
}  // namespace
