// The C interface (kestrel/c_api.h, libkestrel.so.0) gives what the commands and the C++
// library give: kestrel-train's model bytes on the same file, kestrel-predict's
// predictions on the same rows, the same rows from a file, a dense matrix (either layout,
// float64 or float32) or CSR arrays, and the library's error classes and messages.
#include "kestrel/c_api.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/predict_stream.hpp"
#include "kestrel/tasks/score_rows.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_c_api_c_api_test {

using namespace kestrel;

namespace {

struct PinnedModelDate {
    PinnedModelDate() { ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1); }
    ~PinnedModelDate() { ::unsetenv("SOURCE_DATE_EPOCH"); }
};

// Owns a C handle for a test's scope.
struct DatasetHandle {
    KestrelDataset* p = nullptr;
    ~DatasetHandle() { kestrel_dataset_free(p); }
};
struct ModelHandle {
    KestrelModel* p = nullptr;
    ~ModelHandle() { kestrel_model_free(p); }
};

void require_ok(int code) { REQUIRE_MESSAGE(code == KESTREL_OK, std::string(kestrel_last_error())); }

DatasetHandle file_dataset(const std::string& path, std::vector<const char*> options = {}) {
    DatasetHandle d;
    require_ok(kestrel_dataset_from_file(path.c_str(), options.data(), options.size(), &d.p));
    return d;
}

ModelHandle trained(const char* model, std::vector<const char*> params, const KestrelDataset* data,
                    std::uint64_t seed = 1, std::vector<const char*> options = {}) {
    ModelHandle m;
    require_ok(kestrel_model_train(model, params.data(), params.size(), options.data(), options.size(), data, 1, seed,
                                   &m.p));
    return m;
}

std::vector<double> c_outputs(const KestrelModel* m, const KestrelDataset* d, int output) {
    size_t rows = 0, cols = 0;
    require_ok(kestrel_model_output_shape(m, d, output, &rows, &cols));
    std::vector<double> out(rows * cols);
    const auto call = output == KESTREL_OUTPUT_PROBA      ? kestrel_model_predict_proba
                      : output == KESTREL_OUTPUT_DECISION ? kestrel_model_decision_function
                      : output == KESTREL_OUTPUT_CONTRIB  ? kestrel_model_contributions
                                                          : kestrel_model_predict;
    require_ok(call(m, d, out.data(), out.size()));
    return out;
}

// The same outputs through the C++ task floor on the file read as kestrel-predict reads it.
std::vector<double> library_outputs(const std::string& model_path, const std::string& rows_path, int output) {
    const Model model = Model::load(model_path);
    ReadOptions read;
    read.missing = MissingPolicy::keep;
    const Table t = read_table(rows_path, scoring_read_options(model, read, false));
    ScoreOutputs asked;
    asked.proba = output == KESTREL_OUTPUT_PROBA;
    asked.decision = output == KESTREL_OUTPUT_DECISION;
    asked.contributions = output == KESTREL_OUTPUT_CONTRIB;
    const ScoredRows s = score_rows(model, t.X, asked);
    std::vector<double> out;
    for (Index i = 0; i < t.X.rows(); ++i) {
        if (output == KESTREL_OUTPUT_PREDICTION) out.push_back(s.predicted[i]);
        const Matrix& m = asked.proba ? s.proba : asked.contributions ? s.contrib : s.decision;
        if (output != KESTREL_OUTPUT_PREDICTION)
            for (Index j = 0; j < m.cols(); ++j) out.push_back(m(i, j));
    }
    return out;
}

std::string saved_bytes(const KestrelModel* m, const test::ScratchDir& dir, const std::string& name) {
    const std::string path = dir / name;
    require_ok(kestrel_model_save(m, path.c_str()));
    return test::slurp(path);
}

// kestrel-predict's first column (the predicted labels) of a file.
std::vector<std::string> command_predicted_labels(const std::string& model_path, const std::string& rows_path) {
    const auto r = test::run(cli::run_predict, "kestrel-predict", {model_path, rows_path, "-q"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    std::istringstream lines(r.out);
    std::vector<std::string> labels;
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) labels.push_back(line.substr(0, line.find(',')));
    return labels;
}

std::vector<std::string> c_predicted_labels(const KestrelModel* m, const KestrelDataset* d) {
    std::vector<std::string> labels;
    for (double k : c_outputs(m, d, KESTREL_OUTPUT_PREDICTION)) {
        const char* name = nullptr;
        require_ok(kestrel_model_class_name(m, static_cast<size_t>(k), &name));
        labels.emplace_back(name);
    }
    return labels;
}

// A table's dense rows as a row-major array, its labels as numbers.
struct DenseRows {
    std::vector<double> values;
    std::vector<double> labels;
    size_t rows = 0, cols = 0;
};

DenseRows dense_rows(const std::string& path) {
    ReadOptions read;
    read.missing = MissingPolicy::keep;
    Table t = read_table(path, read);
    DenseRows d;
    d.rows = static_cast<size_t>(t.X.rows());
    d.cols = static_cast<size_t>(t.X.cols());
    const DenseMatrix m = t.X.to_dense();
    d.values.assign(m.data(), m.data() + m.size());
    d.labels = t.labels->numeric;
    return d;
}

}  // namespace

TEST_SUITE("c_api") {

TEST_CASE("a model trained through the C interface on a file is kestrel-train's, byte for byte") {
    const PinnedModelDate pinned;
    const test::ScratchDir dir("c_api_train_bytes");
    const std::string train = test::repo_path("data/iris/train.csv");
    const auto r = test::run(cli::run_train, "kestrel-train",
                             {"-m", "logistic", "-p", "C=0.5", "--scale", "standard", "--threads", "1", train, "-o",
                              dir / "command.json", "-q"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const DatasetHandle data = file_dataset(train);
    const ModelHandle m = trained("logistic", {"C=0.5"}, data.p, 1, {"scale=standard"});
    CHECK(saved_bytes(m.p, dir, "c.json") == test::slurp(dir / "command.json"));
}

TEST_CASE("C predictions are kestrel-predict's and the task floor's on the same rows") {
    const test::ScratchDir dir("c_api_predict");
    const std::string test_rows = test::repo_path("data/iris/test.csv");
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    const ModelHandle m = trained("svc", {"probability=true"}, train.p);
    const std::string model_path = dir / "svc.json";
    require_ok(kestrel_model_save(m.p, model_path.c_str()));
    const DatasetHandle rows = file_dataset(test_rows);
    CHECK(c_predicted_labels(m.p, rows.p) == command_predicted_labels(model_path, test_rows));
    for (int output : {KESTREL_OUTPUT_PREDICTION, KESTREL_OUTPUT_PROBA, KESTREL_OUTPUT_DECISION})
        CHECK(c_outputs(m.p, rows.p, output) == library_outputs(model_path, test_rows, output));
    size_t n = 0, k = 0;
    require_ok(kestrel_model_output_shape(m.p, rows.p, KESTREL_OUTPUT_PROBA, &n, &k));
    CHECK(n == 30);
    CHECK(k == 3);
}

TEST_CASE("a saved and loaded model predicts what it did") {
    const test::ScratchDir dir("c_api_round_trip");
    const DatasetHandle train = file_dataset(test::repo_path("data/diabetes/train.csv"));
    const ModelHandle m = trained("gbdt", {"n_estimators=20"}, train.p);
    const std::string path = dir / "gbdt.json";
    require_ok(kestrel_model_save(m.p, path.c_str()));
    ModelHandle loaded;
    require_ok(kestrel_model_load(path.c_str(), &loaded.p));
    const DatasetHandle rows = file_dataset(test::repo_path("data/diabetes/test.csv"));
    const auto before = c_outputs(m.p, rows.p, KESTREL_OUTPUT_PREDICTION);
    CHECK(before.size() == 89);
    CHECK(c_outputs(loaded.p, rows.p, KESTREL_OUTPUT_PREDICTION) == before);
    CHECK(before == library_outputs(path, test::repo_path("data/diabetes/test.csv"), KESTREL_OUTPUT_PREDICTION));
}

TEST_CASE("contributions are the task floor's, and each row's sum is its prediction") {
    const test::ScratchDir dir("c_api_contrib");
    const std::string rows_path = test::repo_path("data/diabetes/test.csv");
    const DatasetHandle train = file_dataset(test::repo_path("data/diabetes/train.csv"));
    const ModelHandle m = trained("gbdt", {"n_estimators=15", "max_depth=3"}, train.p);
    const std::string path = dir / "gbdt.json";
    require_ok(kestrel_model_save(m.p, path.c_str()));
    const DatasetHandle rows = file_dataset(rows_path);
    size_t n = 0, cols = 0;
    require_ok(kestrel_model_output_shape(m.p, rows.p, KESTREL_OUTPUT_CONTRIB, &n, &cols));
    CHECK(n == 89);
    CHECK(cols == 11);  // 10 columns and the bias
    const auto contrib = c_outputs(m.p, rows.p, KESTREL_OUTPUT_CONTRIB);
    CHECK(contrib == library_outputs(path, rows_path, KESTREL_OUTPUT_CONTRIB));
    const auto predicted = c_outputs(m.p, rows.p, KESTREL_OUTPUT_PREDICTION);
    for (size_t i = 0; i < n; ++i) {
        double sum = 0;
        for (size_t j = 0; j < cols; ++j) sum += contrib[i * cols + j];
        CHECK(sum == doctest::Approx(predicted[i]).epsilon(1e-12));  // squared loss: the raw score is the prediction
    }
    const ModelHandle svc = trained("svc", {}, file_dataset(test::repo_path("data/iris/train.csv")).p);
    std::vector<double> out(1000);
    const DatasetHandle iris = file_dataset(test::repo_path("data/iris/test.csv"));
    CHECK(kestrel_model_contributions(svc.p, iris.p, out.data(), out.size()) == KESTREL_ERROR_USAGE);
    CHECK(std::string(kestrel_last_error()).find("contributions") != std::string::npos);
}

TEST_CASE("a model's bytes without a file: kestrel_model_save's, and read back as kestrel_model_load reads") {
    const test::ScratchDir dir("c_api_model_text");
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    const ModelHandle m = trained("forest", {"n_estimators=5"}, train.p);
    const char* text = nullptr;
    size_t length = 0;
    require_ok(kestrel_model_to_string(m.p, &text, &length));
    const std::string bytes(text, length);
    CHECK(bytes == saved_bytes(m.p, dir, "forest.json"));
    CHECK(bytes.size() == std::string(text).size());  // NUL-terminated as well
    ModelHandle back;
    require_ok(kestrel_model_from_string(bytes.data(), bytes.size(), &back.p));
    const DatasetHandle rows = file_dataset(test::repo_path("data/iris/test.csv"));
    CHECK(c_outputs(back.p, rows.p, KESTREL_OUTPUT_PROBA) == c_outputs(m.p, rows.p, KESTREL_OUTPUT_PROBA));
    require_ok(kestrel_model_to_string(back.p, &text, &length));
    CHECK(std::string(text, length) == bytes);
    ModelHandle bad;
    CHECK(kestrel_model_from_string(bytes.data(), bytes.size() / 2, &bad.p) == KESTREL_ERROR_BAD_INPUT);
    CHECK(std::string(kestrel_last_error()).find("<model text>") != std::string::npos);
    CHECK(bad.p == nullptr);
}

TEST_CASE("cross-validation through the C interface is kestrel-cv --json's, from a file or from memory") {
    const std::string train = test::repo_path("data/iris/train.csv");
    const auto r = test::run(cli::run_cv, "kestrel-cv",
                             {"-m", "logistic", "-p", "C=0.5", "--scale", "standard", "-k", "4", "--seed", "7",
                              "--threads", "1", "--json", train, "-q"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const Json command = Json::parse(r.out);
    const DatasetHandle data = file_dataset(train);
    const char* params[] = {"C=0.5"};
    const char* options[] = {"scale=standard"};
    const char* json = nullptr;
    require_ok(kestrel_cross_validate("logistic", params, 1, options, 1, data.p, 4, 1, 7, &json));
    Json c = Json::parse(json);
    CHECK(c["metrics"] == command["metrics"]);
    CHECK(c["out_of_fold"] == command["out_of_fold"]);
    CHECK(c["scheme"] == command["scheme"]);
    CHECK(c["metrics"]["accuracy"]["folds"].size() == 4);
    // The same rows given from memory: the same folds, so the same scores.
    const DenseRows d = dense_rows(train);
    DatasetHandle memory;
    require_ok(kestrel_dataset_from_dense(d.values.data(), d.rows, d.cols, KESTREL_ROW_MAJOR, &memory.p));
    ReadOptions read;
    const Table table = read_table(train, read);
    std::vector<const char*> labels;
    for (const auto& label : table.labels->text) labels.push_back(label.c_str());
    require_ok(kestrel_dataset_set_label_strings(memory.p, labels.data(), labels.size()));
    require_ok(kestrel_cross_validate("logistic", params, 1, options, 1, memory.p, 4, 1, 7, &json));
    c = Json::parse(json);
    CHECK(c["metrics"] == command["metrics"]);
    CHECK(kestrel_cross_validate("logistic", params, 1, options, 1, data.p, 1, 1, 7, &json) == KESTREL_ERROR_USAGE);
    CHECK(std::string(kestrel_last_error()).find("folds 1") != std::string::npos);
}

TEST_CASE("rows from a dense matrix, either layout, float64 or float32, train and predict as the file's") {
    const std::string train_path = test::repo_path("data/diabetes/train.csv");
    const std::string test_path = test::repo_path("data/diabetes/test.csv");
    const DatasetHandle file = file_dataset(train_path);
    const ModelHandle from_file = trained("ridge", {"alpha=2"}, file.p);
    const DenseRows train = dense_rows(train_path);
    DatasetHandle rows;
    require_ok(kestrel_dataset_from_dense(train.values.data(), train.rows, train.cols, KESTREL_ROW_MAJOR, &rows.p));
    require_ok(kestrel_dataset_set_labels(rows.p, train.labels.data(), train.labels.size()));
    const ModelHandle from_rows = trained("ridge", {"alpha=2"}, rows.p);
    const DatasetHandle test_file = file_dataset(test_path);
    const auto expected = c_outputs(from_file.p, test_file.p, KESTREL_OUTPUT_PREDICTION);
    CHECK(c_outputs(from_rows.p, test_file.p, KESTREL_OUTPUT_PREDICTION) == expected);

    const DenseRows test = dense_rows(test_path);
    std::vector<double> column_major(test.values.size());
    std::vector<float> single(test.values.size());
    for (size_t i = 0; i < test.rows; ++i)
        for (size_t j = 0; j < test.cols; ++j) {
            column_major[j * test.rows + i] = test.values[i * test.cols + j];
            single[i * test.cols + j] = static_cast<float>(test.values[i * test.cols + j]);
        }
    DatasetHandle by_column, by_float;
    require_ok(kestrel_dataset_from_dense(column_major.data(), test.rows, test.cols, KESTREL_COL_MAJOR, &by_column.p));
    require_ok(kestrel_dataset_from_dense_f32(single.data(), test.rows, test.cols, KESTREL_ROW_MAJOR, &by_float.p));
    CHECK(c_outputs(from_file.p, by_column.p, KESTREL_OUTPUT_PREDICTION) == expected);
    const auto from_floats = c_outputs(from_file.p, by_float.p, KESTREL_OUTPUT_PREDICTION);
    REQUIRE(from_floats.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) CHECK(from_floats[i] == doctest::Approx(expected[i]).epsilon(1e-5));
}

TEST_CASE("KESTREL_DENSE_REJECT_INFINITE refuses the first infinite cell, naming its row and column") {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Row-major 3 x 2: the first infinite cell in row order is row 2, column 2 (from 1).
    const std::vector<double> values = {1, nan, 3, -inf, inf, 6};
    DatasetHandle refused;
    CHECK(kestrel_dataset_from_dense_ex(values.data(), 3, 2, KESTREL_ROW_MAJOR, KESTREL_DENSE_REJECT_INFINITE,
                                        &refused.p) == KESTREL_ERROR_BAD_INPUT);
    CHECK(refused.p == nullptr);
    CHECK(std::string(kestrel_last_error()) ==
          "<memory>: row 2, column 2: -inf is not a number the rows can hold (NaN is a missing cell)");
    // Column-major, the same cells: still named in row order.
    const std::vector<double> by_column = {1, 3, inf, nan, -inf, 6};
    CHECK(kestrel_dataset_from_dense_ex(by_column.data(), 3, 2, KESTREL_COL_MAJOR, KESTREL_DENSE_REJECT_INFINITE,
                                        &refused.p) == KESTREL_ERROR_BAD_INPUT);
    CHECK(std::string(kestrel_last_error()).rfind("<memory>: row 2, column 2: -inf", 0) == 0);
    const std::vector<float> single = {1, 2, 3, 4, static_cast<float>(inf), 6};
    CHECK(kestrel_dataset_from_dense_f32_ex(single.data(), 3, 2, KESTREL_ROW_MAJOR, KESTREL_DENSE_REJECT_INFINITE,
                                            &refused.p) == KESTREL_ERROR_BAD_INPUT);
    CHECK(std::string(kestrel_last_error()).rfind("<memory>: row 3, column 1: +inf", 0) == 0);
    // NaN is a missing cell, not refused; without the flag infinity is kept as before.
    const std::vector<double> finite = {1, nan, 3, 4, 5, 6};
    DatasetHandle kept, unchecked;
    require_ok(kestrel_dataset_from_dense_ex(finite.data(), 3, 2, KESTREL_ROW_MAJOR, KESTREL_DENSE_REJECT_INFINITE,
                                             &kept.p));
    require_ok(kestrel_dataset_from_dense_ex(values.data(), 3, 2, KESTREL_ROW_MAJOR, 0, &unchecked.p));
    CHECK(kestrel_dataset_from_dense_ex(finite.data(), 3, 2, KESTREL_ROW_MAJOR, 64, &refused.p) ==
          KESTREL_ERROR_USAGE);
}

TEST_CASE("KESTREL_DENSE_BORROW reads row-major float64 rows in place: the same models and predictions, the "
          "caller's rows never written") {
    const PinnedModelDate pinned;
    const DenseRows train = dense_rows(test::repo_path("data/diabetes/train.csv"));
    const DenseRows test = dense_rows(test::repo_path("data/diabetes/test.csv"));
    std::vector<double> rows = train.values;
    rows[3] = std::numeric_limits<double>::quiet_NaN();  // a missing cell, imputed by `missing=mean`
    const std::vector<double> before = rows;
    DatasetHandle copied, lent;
    require_ok(kestrel_dataset_from_dense(rows.data(), train.rows, train.cols, KESTREL_ROW_MAJOR, &copied.p));
    require_ok(kestrel_dataset_from_dense_ex(rows.data(), train.rows, train.cols, KESTREL_ROW_MAJOR,
                                             KESTREL_DENSE_BORROW | KESTREL_DENSE_REJECT_INFINITE, &lent.p));
    for (KestrelDataset* d : {copied.p, lent.p})
        require_ok(kestrel_dataset_set_labels(d, train.labels.data(), train.labels.size()));
    const test::ScratchDir dir("c_api_borrow");
    for (const char* model : {"ridge", "gbdt", "knn"}) {
        CAPTURE(model);
        const std::vector<const char*> options = {"scale=standard", "missing=mean"};
        const ModelHandle a = trained(model, {}, copied.p, 1, options);
        const ModelHandle b = trained(model, {}, lent.p, 1, options);
        // The fit and its preparation wrote nothing of the caller's (compared as bytes: NaN too).
        CHECK(std::memcmp(rows.data(), before.data(), rows.size() * sizeof(double)) == 0);
        CHECK(saved_bytes(b.p, dir, "lent.json") == saved_bytes(a.p, dir, "copied.json"));
        std::vector<double> scored = test.values;
        DatasetHandle rows_copied, rows_lent;
        require_ok(kestrel_dataset_from_dense(scored.data(), test.rows, test.cols, KESTREL_ROW_MAJOR, &rows_copied.p));
        require_ok(kestrel_dataset_from_dense_ex(scored.data(), test.rows, test.cols, KESTREL_ROW_MAJOR,
                                                 KESTREL_DENSE_BORROW, &rows_lent.p));
        const auto expected = c_outputs(a.p, rows_copied.p, KESTREL_OUTPUT_PREDICTION);
        CHECK(c_outputs(a.p, rows_lent.p, KESTREL_OUTPUT_PREDICTION) == expected);
        // Read in place: a change to the caller's rows is what the borrowing dataset scores.
        for (size_t j = 0; j < test.cols; ++j) scored[j] = scored[(test.rows - 1) * test.cols + j];
        const auto changed = c_outputs(a.p, rows_lent.p, KESTREL_OUTPUT_PREDICTION);
        CHECK(changed[0] == expected.back());
        CHECK(c_outputs(a.p, rows_copied.p, KESTREL_OUTPUT_PREDICTION)[0] == expected[0]);
    }
    // Column-major or float32 rows are copied even with the flag.
    std::vector<double> by_column(test.values.size());
    for (size_t i = 0; i < test.rows; ++i)
        for (size_t j = 0; j < test.cols; ++j) by_column[j * test.rows + i] = test.values[i * test.cols + j];
    DatasetHandle column_rows;
    require_ok(kestrel_dataset_from_dense_ex(by_column.data(), test.rows, test.cols, KESTREL_COL_MAJOR,
                                             KESTREL_DENSE_BORROW, &column_rows.p));
    const ModelHandle m = trained("ridge", {}, lent.p);
    const auto before_change = c_outputs(m.p, column_rows.p, KESTREL_OUTPUT_PREDICTION);
    std::fill(by_column.begin(), by_column.end(), 0.0);
    CHECK(c_outputs(m.p, column_rows.p, KESTREL_OUTPUT_PREDICTION) == before_change);
}

// A model trained on borrowed rows keeps none of them (the models that keep rows: knn's
// index, svc's support vectors, kernel_ridge's rows): it predicts the same after the
// caller's buffer is overwritten.
TEST_CASE("a model trained on borrowed rows outlives them") {
    const DenseRows train = dense_rows(test::repo_path("data/iris/train.csv"));
    std::vector<double> rows = train.values;
    DatasetHandle lent;
    require_ok(kestrel_dataset_from_dense_ex(rows.data(), train.rows, train.cols, KESTREL_ROW_MAJOR,
                                             KESTREL_DENSE_BORROW, &lent.p));
    std::vector<double> labels(train.rows);
    for (size_t i = 0; i < train.rows; ++i) labels[i] = static_cast<double>(i % 3);
    require_ok(kestrel_dataset_set_labels(lent.p, labels.data(), labels.size()));
    for (const char* model : {"knn", "svc", "kernel_ridge", "forest"}) {
        CAPTURE(model);
        const ModelHandle m = trained(model, {}, lent.p);
        DatasetHandle copy;
        const std::vector<double> kept = train.values;
        require_ok(kestrel_dataset_from_dense(kept.data(), train.rows, train.cols, KESTREL_ROW_MAJOR, &copy.p));
        const auto expected = c_outputs(m.p, copy.p, KESTREL_OUTPUT_PREDICTION);
        std::fill(rows.begin(), rows.end(), std::numeric_limits<double>::quiet_NaN());  // as if freed
        CHECK(c_outputs(m.p, copy.p, KESTREL_OUTPUT_PREDICTION) == expected);
        rows = train.values;  // the same buffer, for the next model
    }
}

// A table's rows with each categorical column coded in reverse order of its names (as an
// in-memory table may code them), for kestrel_dataset_set_categories.
struct CodedRows {
    DenseRows rows;
    std::vector<std::string> labels;
    CategoryLists names;  // per column, reversed; empty for a numeric column
};

CodedRows reverse_coded_rows(const std::string& path) {
    ReadOptions read;
    read.missing = MissingPolicy::keep;
    const Table t = read_table(path, read);
    CodedRows c;
    c.rows = dense_rows(path);
    c.labels = t.labels->text;
    c.names.assign(static_cast<size_t>(t.X.cols()), {});
    for (size_t j = 0; j < t.categories.size(); ++j) {
        if (t.categories[j].empty()) continue;  // a numeric column
        c.names[j].assign(t.categories[j].rbegin(), t.categories[j].rend());
        const double last = static_cast<double>(t.categories[j].size()) - 1;
        for (size_t i = 0; i < c.rows.rows; ++i) {
            double& cell = c.rows.values[i * c.rows.cols + j];
            if (!std::isnan(cell)) cell = last - cell;
        }
    }
    return c;
}

DatasetHandle coded_dataset(const CodedRows& c) {
    DatasetHandle d;
    require_ok(kestrel_dataset_from_dense(c.rows.values.data(), c.rows.rows, c.rows.cols, KESTREL_ROW_MAJOR, &d.p));
    for (size_t j = 0; j < c.names.size(); ++j) {
        if (c.names[j].empty()) continue;
        std::vector<const char*> names;
        for (const auto& n : c.names[j]) names.push_back(n.c_str());
        require_ok(kestrel_dataset_set_categories(d.p, j, names.data(), names.size()));
    }
    return d;
}

TEST_CASE("categorical columns given as codes with names train and score as the CSV's text columns") {
    const std::string train_path = test::repo_path("data/tables/penguins/train.csv");
    const std::string test_path = test::repo_path("data/tables/penguins/test.csv");
    const DatasetHandle test_file = file_dataset(test_path);
    const CodedRows train = reverse_coded_rows(train_path);
    const CodedRows test = reverse_coded_rows(test_path);
    REQUIRE(!train.names[0].empty());  // island: a text column, coded here Torgersen, Dream, Biscoe
    DatasetHandle rows = coded_dataset(train);
    std::vector<const char*> labels;
    for (const auto& l : train.labels) labels.push_back(l.c_str());
    require_ok(kestrel_dataset_set_label_strings(rows.p, labels.data(), labels.size()));
    const DatasetHandle test_rows = coded_dataset(test);
    for (const char* model : {"gbdt", "logistic"}) {
        CAPTURE(model);
        const DatasetHandle file = file_dataset(train_path);
        const ModelHandle from_file = trained(model, {}, file.p);
        const ModelHandle from_rows = trained(model, {}, rows.p);
        const auto expected = c_outputs(from_file.p, test_file.p, KESTREL_OUTPUT_PROBA);
        CHECK(c_outputs(from_rows.p, test_file.p, KESTREL_OUTPUT_PROBA) == expected);
        CHECK(c_outputs(from_file.p, test_rows.p, KESTREL_OUTPUT_PROBA) == expected);
    }
}

TEST_CASE("coded categorical columns are checked") {
    const std::vector<double> values = {0, 1.5, 2, 1, 3, 0};  // 3 rows, 2 columns
    DatasetHandle d;
    require_ok(kestrel_dataset_from_dense(values.data(), 3, 2, KESTREL_ROW_MAJOR, &d.p));
    const char* two[] = {"a", "b"};
    CHECK(kestrel_dataset_set_categories(d.p, 1, two, 2) == KESTREL_ERROR_BAD_INPUT);
    CHECK(std::string(kestrel_last_error()) == "<memory>: row 1, column 2: code 1.5 is not one of 0..1");
    const char* three[] = {"a", "b", "a"};
    CHECK(kestrel_dataset_set_categories(d.p, 0, three, 3) == KESTREL_ERROR_BAD_INPUT);
    CHECK(std::string(kestrel_last_error()) == "<memory>: column 1: category \"a\" is named twice");
    CHECK(kestrel_dataset_set_categories(d.p, 2, two, 2) == KESTREL_ERROR_USAGE);
    const char* four[] = {"d", "c", "b", "a"};
    require_ok(kestrel_dataset_set_categories(d.p, 0, four, 4));  // codes 0, 2, 3 -> d, b, a
}

TEST_CASE("rows from CSR arrays train and predict as the LIBSVM file's sparse rows") {
    const std::string train_path = test::repo_path("data/heart_scale/train.libsvm");
    const DatasetHandle file = file_dataset(train_path);
    const ModelHandle from_file = trained("gbdt", {"n_estimators=10"}, file.p);
    ReadOptions read;
    Table t = read_table(train_path, read);
    REQUIRE(t.X.is_sparse());
    const SparseMatrix& s = t.X.sparse_ref();
    std::vector<std::int64_t> indptr(s.outerIndexPtr(), s.outerIndexPtr() + s.rows() + 1);
    std::vector<std::int32_t> indices(s.innerIndexPtr(), s.innerIndexPtr() + s.nonZeros());
    std::vector<double> values(s.valuePtr(), s.valuePtr() + s.nonZeros());
    DatasetHandle rows;
    require_ok(kestrel_dataset_from_csr(indptr.data(), indices.data(), values.data(), static_cast<size_t>(s.rows()),
                                        static_cast<size_t>(s.cols()), &rows.p));
    std::vector<const char*> labels;
    for (const auto& text : t.labels->text) labels.push_back(text.c_str());
    require_ok(kestrel_dataset_set_label_strings(rows.p, labels.data(), labels.size()));
    const ModelHandle from_rows = trained("gbdt", {"n_estimators=10"}, rows.p);
    const DatasetHandle test_file = file_dataset(test::repo_path("data/heart_scale/test.libsvm"));
    CHECK(c_outputs(from_rows.p, test_file.p, KESTREL_OUTPUT_PROBA) ==
          c_outputs(from_file.p, test_file.p, KESTREL_OUTPUT_PROBA));
    CHECK(c_predicted_labels(from_rows.p, test_file.p) == c_predicted_labels(from_file.p, test_file.p));
}

TEST_CASE("the same seed gives the same model, another seed another") {
    const PinnedModelDate pinned;
    const test::ScratchDir dir("c_api_seed");
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    const ModelHandle a = trained("forest", {"n_estimators=5"}, train.p, 7);
    const ModelHandle b = trained("forest", {"n_estimators=5"}, train.p, 7);
    const ModelHandle c = trained("forest", {"n_estimators=5"}, train.p, 8);
    CHECK(saved_bytes(a.p, dir, "a.json") == saved_bytes(b.p, dir, "b.json"));
    CHECK(saved_bytes(a.p, dir, "a.json") != saved_bytes(c.p, dir, "c.json"));
}

TEST_CASE("errors come back as the commands' classes with the library's messages") {
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    KestrelModel* m = nullptr;
    SUBCASE("an unknown model") {
        CHECK(kestrel_model_train("nosuch", nullptr, 0, nullptr, 0, train.p, 1, 1, &m) == KESTREL_ERROR_USAGE);
        CHECK(std::string(kestrel_last_error()) ==
              "unknown model 'nosuch' (valid: adaboost, elastic_net, forest, gbdt, huber, kernel_logistic, "
              "kernel_perceptron, kernel_ridge, knn, lad, lasso, least_squares, linear_svm, linear_svr, logistic, "
              "lp_svm, nu_svc, nu_svr, one_class, perceptron, quantile, ridge, svc, svr, tree)");
    }
    SUBCASE("a bad parameter value, as kestrel-train words it") {
        const char* params[] = {"C=-1"};
        CHECK(kestrel_model_train("logistic", params, 1, nullptr, 0, train.p, 1, 1, &m) == KESTREL_ERROR_USAGE);
        const auto r = test::run(cli::run_train, "kestrel-train",
                                 {"-m", "logistic", "-p", "C=-1", test::repo_path("data/iris/train.csv"), "-o",
                                  "/nonexistent/never-written.json", "-q"});
        CHECK(r.code == KESTREL_ERROR_USAGE);
        CHECK(std::string(kestrel_last_error()) == "parameter C=-1 of model logistic is out of range (valid: > 0 or auto)");
        CHECK(r.err == "kestrel-train: " + std::string(kestrel_last_error()) + "\n");
    }
    SUBCASE("an option by its library name") {
        const char* options[] = {"max_rows=-3"};
        KestrelDataset* d = nullptr;
        CHECK(kestrel_dataset_from_file("x.csv", options, 1, &d) == KESTREL_ERROR_USAGE);
        CHECK(std::string(kestrel_last_error()) == "max_rows -3: not a whole number from 0 to 9223372036854775807");
        CHECK(d == nullptr);
    }
    SUBCASE("an unreadable file") {
        const DatasetHandle missing = file_dataset("/nonexistent/kestrel.csv");
        CHECK(kestrel_model_train("logistic", nullptr, 0, nullptr, 0, missing.p, 1, 1, &m) == KESTREL_ERROR_BAD_INPUT);
        CHECK(std::string(kestrel_last_error()) == "/nonexistent/kestrel.csv: cannot read: No such file or directory");
    }
    SUBCASE("a buffer too small") {
        const ModelHandle model = trained("logistic", {}, train.p);
        const DatasetHandle rows = file_dataset(test::repo_path("data/iris/test.csv"));
        double out[29];
        CHECK(kestrel_model_predict_proba(model.p, rows.p, out, 29) == KESTREL_ERROR_USAGE);
        CHECK(std::string(kestrel_last_error()) ==
              "kestrel_model_predict_proba: a buffer of 29 values is too small for 30 rows x 3 = 90");
    }
    SUBCASE("a null handle") {
        CHECK(kestrel_model_predict(nullptr, train.p, nullptr, 0) == KESTREL_ERROR_USAGE);
        CHECK(std::string(kestrel_last_error()) == "kestrel_model_predict: model is NULL");
    }
    CHECK(m == nullptr);
}

TEST_CASE("the model list and a model's information are JSON") {
    const char* models = nullptr;
    require_ok(kestrel_models_json(&models));
    const Json list = Json::parse(models);
    CHECK(list == registry().models_json());
    const auto r = test::run(cli::run_train, "kestrel-train", {"--list-models", "--json"});
    CHECK(r.out == std::string(models) + "\n");
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    ModelHandle m = trained("logistic", {"C=2"}, train.p);
    const char* text = nullptr;
    require_ok(kestrel_model_info_json(m.p, &text));
    const Json info = Json::parse(text);
    CHECK(info["model"] == "logistic");
    CHECK(info["task"] == "classification");
    CHECK(info["classes"] == Json::array({"setosa", "versicolor", "virginica"}));
    CHECK(info["feature_names"] ==
          Json::array({"sepal_length", "sepal_width", "petal_length", "petal_width"}));
    CHECK(info["params"]["C"] == 2.0);
    size_t k = 0;
    require_ok(kestrel_model_n_classes(m.p, &k));
    CHECK(k == 3);
}

TEST_CASE("kestrel_interrupt stops a running fit or cross-validation; a request while none runs is ignored") {
    // The progress callback stands for a signal handler: it asks from inside the fit.
    const auto interrupt_at_third = [](const char*, uint64_t done, uint64_t, void*) {
        if (done >= 3) kestrel_interrupt();
    };
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    const char* many_rounds[] = {"n_estimators=100000"};
    require_ok(kestrel_set_callbacks(nullptr, interrupt_at_third, nullptr));
    KestrelModel* model = nullptr;
    CHECK(kestrel_model_train("gbdt", many_rounds, 1, nullptr, 0, train.p, 1, 1, &model) == KESTREL_ERROR_INTERRUPTED);
    CHECK(std::string(kestrel_last_error()) == "interrupted");
    CHECK(model == nullptr);
    // Cross-validation reports its folds: the callback asks at the first report, 0 of 5
    // done, so no fold runs.
    const auto interrupt_at_once = [](const char*, uint64_t, uint64_t, void*) { kestrel_interrupt(); };
    require_ok(kestrel_set_callbacks(nullptr, interrupt_at_once, nullptr));
    const char* json = nullptr;
    CHECK(kestrel_cross_validate("logistic", nullptr, 0, nullptr, 0, train.p, 5, 1, 1, &json) ==
          KESTREL_ERROR_INTERRUPTED);
    require_ok(kestrel_set_callbacks(nullptr, nullptr, nullptr));
    // Nothing runs now: the request is dropped, and the next fit runs to its end.
    kestrel_interrupt();
    const ModelHandle after = trained("gbdt", {"n_estimators=4"}, train.p);
    CHECK(after.p != nullptr);
}

TEST_CASE("kestrel_interrupt from another thread stops a fit that would run for seconds") {
    static std::atomic<bool> started{false};
    started = false;
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    int code = KESTREL_OK;
    std::string message;
    std::thread fit([&] {
        const auto on_progress = [](const char*, uint64_t, uint64_t, void*) { started = true; };
        kestrel_set_callbacks(nullptr, on_progress, nullptr);
        const char* rounds[] = {"n_estimators=300000"};  // seconds; the memory check allows it
        KestrelModel* model = nullptr;
        code = kestrel_model_train("gbdt", rounds, 1, nullptr, 0, train.p, 1, 1, &model);
        message = kestrel_last_error();
        kestrel_model_free(model);
        kestrel_set_callbacks(nullptr, nullptr, nullptr);
    });
    while (!started) std::this_thread::yield();
    kestrel_interrupt();
    fit.join();
    CHECK(code == KESTREL_ERROR_INTERRUPTED);
    CHECK(message == "interrupted");
}

TEST_CASE("a fit's warnings and progress reach the callbacks of the thread that started it") {
    struct Heard {
        std::vector<std::string> warnings;
        std::uint64_t last_done = 0, total = 0;
    } heard;
    const auto on_warning = [](const char* message, void* user) {
        static_cast<Heard*>(user)->warnings.emplace_back(message);
    };
    const auto on_progress = [](const char*, uint64_t done, uint64_t total, void* user) {
        static_cast<Heard*>(user)->last_done = done;
        static_cast<Heard*>(user)->total = total;
    };
    require_ok(kestrel_set_callbacks(on_warning, on_progress, &heard));
    const DatasetHandle train = file_dataset(test::repo_path("data/iris/train.csv"));
    (void)trained("logistic", {"max_iter=1"}, train.p);
    (void)trained("gbdt", {"n_estimators=4"}, train.p);
    require_ok(kestrel_set_callbacks(nullptr, nullptr, nullptr));
    REQUIRE(heard.warnings.size() == 1);
    CHECK(heard.warnings[0].rfind("logistic: ", 0) == 0);
    CHECK(heard.last_done == 4);
    CHECK(heard.total == 4);
    (void)trained("logistic", {"max_iter=1"}, train.p);
    CHECK(heard.warnings.size() == 1);  // none after the callbacks are taken away
}

}  // TEST_SUITE

}  // namespace unit_c_api_c_api_test
}  // namespace
