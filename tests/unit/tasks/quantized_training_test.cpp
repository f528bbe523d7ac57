// The quantized store (gbdt's, the histogram forest's) built while the training file is read
// (tasks/quantized_training.hpp, docs/large-data.md): the codes of a hand-made table, the cuts
// of the table read whole (beyond the 200,000-row sample too), the same model file as the
// doubles' path, and the reader's own errors, the file read in pieces of a few rows.
#include "kestrel/tasks/quantized_training.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "cli/run_tool.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/train_task.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_quantized_training_test {

using namespace kestrel;

namespace {

ModelSpec gbdt_spec(Json params = Json::object()) {
    ModelSpec spec;
    spec.model = "gbdt";
    spec.params = std::move(params);
    resolve_params(spec);
    return spec;
}

TrainingDataOptions data_options(const std::string& path) {
    TrainingDataOptions o;
    o.path = path;
    o.read.missing = MissingPolicy::keep;
    o.read.threads = 2;
    return o;
}

// A table of n rows: a class of three, two normal features (one with missing cells), a
// feature of few values, and a text column whose first rows are number-like ("7", "8").
std::string generated_csv(Index n, std::uint64_t seed) {
    Rng rng(seed);
    std::ostringstream out;
    out.precision(17);
    out << "y,a,b,few,word\n";
    const char* words[] = {"7", "8", "red", "green", "blue"};
    for (Index i = 0; i < n; ++i) {
        const double a = rng.normal(), b = rng.normal();
        const auto w = static_cast<std::size_t>(i < 40 ? rng.below(2) : rng.below(5));
        const int cls = (a + (w == 2 ? 1.0 : 0.0) > 0.3) + (b > 0.5);
        out << "c" << cls << "," << a << ",";
        if (i % 9 == 0) out << "NA"; else out << b;
        out << "," << static_cast<int>(rng.below(4)) << "," << words[w] << "\n";
    }
    return out.str();
}

std::string model_text(const Model& m) { return m.to_json().dump(); }

// The bytes of the model file `m` saves.
std::string saved_bytes(const Model& m, const std::string& path) {
    m.save(path);
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ModelSpec hist_forest_spec(Json params = Json::object()) {
    ModelSpec spec;
    spec.model = "forest";
    spec.params = std::move(params);
    spec.params["tree_method"] = "hist";
    resolve_params(spec);
    return spec;
}

// generated_csv without its text column: every feature numeric.
std::string numeric_csv(Index n, std::uint64_t seed) {
    std::istringstream in(generated_csv(n, seed));
    std::string out, line;
    while (std::getline(in, line)) out += line.substr(0, line.rfind(',')) + "\n";
    return out;
}

// numeric_csv with a weights column `w` after its first feature (0.5, 0.75, ... 2.0 in turn),
// its row `bad` (0-based; -1: none) weighing -1.
std::string weighted_csv(Index n, std::uint64_t seed, Index bad = -1) {
    std::istringstream in(numeric_csv(n, seed));
    std::string out, line;
    Index row = -1;
    while (std::getline(in, line)) {
        const std::size_t second = line.find(',', line.find(',') + 1);
        const std::string w = row < 0 ? "w" : row == bad ? "-1" : std::to_string(0.5 + 0.25 * static_cast<double>(row % 7));
        out += line.substr(0, second) + "," + w + line.substr(second) + "\n";
        ++row;
    }
    return out;
}

// A ranking table of `queries` queries of 5 to 14 rows each: a grade 0-3 from a + b with
// noise, the query column `q` after the first feature (ids 101, 102, ...; `words`: "q101",
// ...). Row `bad` (0-based; -1: none) takes the text `bad_id` for its query id.
std::string ranked_csv(int queries, std::uint64_t seed, Index bad = -1, const std::string& bad_id = "",
                       bool words = false) {
    Rng rng(seed);
    std::ostringstream out;
    out.precision(17);
    out << "y,a,q,b,c\n";
    Index row = 0;
    for (int k = 0; k < queries; ++k) {
        const int m = 5 + static_cast<int>(rng.below(10));
        for (int i = 0; i < m; ++i, ++row) {
            const double a = rng.normal(), b = rng.normal(), c = rng.normal();
            const double u = a + b + 0.5 * rng.normal();
            const int grade = u > 1.5 ? 3 : u > 0.5 ? 2 : u > -0.5 ? 1 : 0;
            const std::string id = row == bad ? bad_id : (words ? "q" : "") + std::to_string(101 + k);
            out << grade << "," << a << "," << id << "," << b << "," << c << "\n";
        }
    }
    return out.str();
}

// The DataError message of `read`, or empty.
template <class Read>
std::string data_error_of(Read&& read) {
    try {
        read();
    } catch (const DataError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_SUITE("tasks.quantized") {
    TEST_CASE("quantized store: the codes of a hand-made table read a row a piece") {
        const test::ScratchDir dir("quantized_codes");
        // k is number-like in the first rows and a word in the fourth: categorical in the
        // whole file, so "7" and "8" are category names, sorted byte-wise before "x".
        const std::string path = dir.file("t.csv",
                                          "y,x,c,k\n"
                                          "1.5,0.5,b,7\n"
                                          "2.0,1.5,a,7\n"
                                          "3.0,NA,c,8\n"
                                          "2.5,2.5,a,x\n"
                                          "1.0,1.5,,7\n");
        const QuantizedTrainingData q =
            read_quantized_training_data(data_options(path), gbdt_spec(), 255, 1, StoreReadSizes{0, 1});
        const BinnedMatrix& bins = q.store->bins();
        REQUIRE(bins.rows() == 5);
        REQUIRE(bins.cols() == 3);
        // x: three distinct values, edges at the midpoints 1.0 and 2.0; NA is bin 3.
        CHECK(q.store->cuts().n_bins(0) == 3);
        CHECK(q.store->cuts().upper(0, 0) == 1.0);
        CHECK(q.store->cuts().upper(0, 1) == 2.0);
        const std::vector<int> x{0, 1, 3, 2, 1}, c{1, 0, 2, 0, 3}, k{0, 0, 1, 2, 0};
        for (Index i = 0; i < 5; ++i) {
            CAPTURE(i);
            CHECK(bins.bin(0, i) == x[static_cast<std::size_t>(i)]);
            CHECK(bins.bin(1, i) == c[static_cast<std::size_t>(i)]);
            CHECK(bins.bin(2, i) == k[static_cast<std::size_t>(i)]);
        }
        CHECK(q.data.categories == CategoryLists{{}, {"a", "b", "c"}, {"7", "8", "x"}});
        CHECK(q.data.category_counts == std::vector<Index>{0, 3, 3});
        CHECK(q.data.feature_names == std::vector<std::string>{"x", "c", "k"});
        CHECK(q.data.y == (Vector(5) << 1.5, 2.0, 3.0, 2.5, 1.0).finished());
        CHECK(q.data.rows() == 5);
        // The same codes as the table read whole and binned.
        const Table whole = read_table(path, data_options(path).read);
        CHECK(whole.categories == q.data.categories);
    }

    TEST_CASE("quantized store: the model file of the doubles, read in pieces, one feature a cut pass") {
        const test::ScratchDir dir("quantized_model");
        const std::string path = dir.file("t.csv", generated_csv(3000, 5));
        const ModelSpec spec = gbdt_spec({{"n_estimators", 8}, {"subsample", 0.8}});
        Context ctx;
        ctx.threads = 2;
        const TrainingDataOptions options = data_options(path);
        const Model doubles = Model::train(spec, read_training_data(options, spec), ctx);
        // Pieces of 2 kB (about 50 rows), the values of one feature of the sample at a time.
        QuantizedTrainingData q =
            read_quantized_training_data(options, spec, 255, ctx.seed, StoreReadSizes{3000 * sizeof(double), 2000});
        CHECK(q.cut_passes == 3);  // a, b and few; word is categorical
        CHECK(q.data.category_counts == std::vector<Index>{0, 0, 0, 5});
        const QuantizedRows rows(q.store);
        const Model store = Model::train(spec, std::move(q.data), ctx);
        CHECK(model_text(store) == model_text(doubles));
    }

    TEST_CASE("quantized store: kestrel-train's request takes the store for gbdt, to the same model bytes") {
        const test::ScratchDir dir("quantized_request");
        const std::string path = dir.file("t.csv", generated_csv(2000, 6));
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = gbdt_spec({{"n_estimators", 6}});
        request.data = data_options(path);
        // By default only a file large beside the memory budget takes the store.
        CHECK_FALSE(train_model(request, Context{}).quantized);
        request.data.read.max_memory = 4 * std::filesystem::file_size(path);
        CHECK(train_model(request, Context{}).quantized);
        request.data.read.max_memory = 0;
        request.quantized_store = TrainRequest::QuantizedStore::always;
        const TrainResult store = train_model(request, Context{});
        CHECK(store.quantized);
        request.quantized_store = TrainRequest::QuantizedStore::never;
        const TrainResult doubles = train_model(request, Context{});
        CHECK_FALSE(doubles.quantized);
        CHECK(model_text(store.model) == model_text(doubles.model));
        CHECK(store.rows == 2000);
        // A step that needs doubles, or a hold-out that cuts the training part: the doubles.
        request.quantized_store = TrainRequest::QuantizedStore::always;
        request.spec.preprocessing = {"standard"};
        CHECK_FALSE(train_model(request, Context{}).quantized);
        request.spec = gbdt_spec({{"n_estimators", 3}, {"early_stopping_rounds", 2}});
        request.spec.preprocessing.clear();
        CHECK_FALSE(train_model(request, Context{}).quantized);
        request.data.validation_files = {path};
        CHECK(train_model(request, Context{}).quantized);
        // A multiclass wrapper: the doubles.
        request.data.validation_files.clear();
        request.spec = gbdt_spec({{"n_estimators", 2}, {"multiclass", "ecoc"}});
        CHECK_FALSE(train_model(request, Context{}).quantized);
    }

    TEST_CASE("quantized store: kestrel-train's request takes the store for the histogram forest, same model bytes") {
        const test::ScratchDir dir("quantized_forest_request");
        const std::string path = dir.file("t.csv", numeric_csv(2000, 7));
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = hist_forest_spec({{"n_estimators", 6}, {"oob", true}, {"importance", "permutation"}});
        request.data = data_options(path);
        request.data.read.max_memory = 4 * std::filesystem::file_size(path);
        const TrainResult store = train_model(request, Context{});
        CHECK(store.quantized);
        request.quantized_store = TrainRequest::QuantizedStore::never;
        const TrainResult doubles = train_model(request, Context{});
        CHECK_FALSE(doubles.quantized);
        CHECK(model_text(store.model) == model_text(doubles.model));
        // Params the histogram store does not serve: the doubles, the model as before.
        request.quantized_store = TrainRequest::QuantizedStore::always;
        ModelSpec exact = hist_forest_spec({{"n_estimators", 2}});
        exact.params["tree_method"] = "exact";
        resolve_params(exact);
        request.spec = exact;
        CHECK_FALSE(train_model(request, Context{}).quantized);
        ModelSpec automatic = hist_forest_spec({{"n_estimators", 2}});
        automatic.params["tree_method"] = "auto";  // exact on one process
        resolve_params(automatic);
        request.spec = automatic;
        CHECK_FALSE(train_model(request, Context{}).quantized);
        // A text column, which the histogram forest takes one-hot encoded: read again as doubles.
        const std::string words = dir.file("w.csv", generated_csv(800, 8));
        request.data = data_options(words);
        request.spec = hist_forest_spec({{"n_estimators", 3}});
        const TrainResult encoded = train_model(request, Context{});
        CHECK_FALSE(encoded.quantized);
        request.quantized_store = TrainRequest::QuantizedStore::never;
        CHECK(model_text(train_model(request, Context{}).model) == model_text(encoded.model));
    }

    TEST_CASE("quantized store: a weights column taken out of every piece gives the doubles' model file") {
        const test::ScratchDir dir("quantized_weights");
        const std::string path = dir.file("t.csv", weighted_csv(3000, 9));
        Context ctx;
        ctx.threads = 2;
        TrainingDataOptions options = data_options(path);
        options.weights_column = "w";
        for (const ModelSpec& spec : {gbdt_spec({{"n_estimators", 8}, {"subsample", 0.8}}),
                                      hist_forest_spec({{"n_estimators", 4}})}) {
            CAPTURE(spec.model);
            const Dataset whole = read_training_data(options, spec);
            REQUIRE(whole.weights.size() == 3000);
            const Model doubles = Model::train(spec, whole, ctx);
            // Pieces of 2 kB (about 40 rows): the weights taken out of each, in row order.
            QuantizedTrainingData q = read_quantized_training_data(options, spec, 255, ctx.seed, StoreReadSizes{0, 2000});
            REQUIRE(q.store);
            CHECK(q.data.cols() == 3);  // a, b, few: w is not a feature
            CHECK(q.data.weights == whole.weights);
            const QuantizedRows rows(q.store);
            CHECK(model_text(Model::train(spec, std::move(q.data), ctx)) == model_text(doubles));
        }
        // kestrel-train's request takes the store with the weights column, to the same bytes.
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = gbdt_spec({{"n_estimators", 5}});
        request.data = options;
        request.quantized_store = TrainRequest::QuantizedStore::always;
        const TrainResult store = train_model(request, Context{});
        CHECK(store.quantized);
        request.quantized_store = TrainRequest::QuantizedStore::never;
        CHECK(model_text(store.model) == model_text(train_model(request, Context{}).model));
        // A text column beside the weights column: the doubles (the store would count the
        // categorical columns without the weights column, the reader with it).
        std::string words_text = generated_csv(500, 3), with_w;
        std::istringstream in(words_text);
        std::string line;
        for (Index row = -1; std::getline(in, line); ++row)
            with_w += line + "," + (row < 0 ? std::string("w") : std::string("1.5")) + "\n";
        TrainingDataOptions words = data_options(dir.file("words.csv", with_w));
        words.weights_column = "w";
        CHECK_FALSE(read_quantized_training_data(words, gbdt_spec(), 255, 1, StoreReadSizes{0, 2000}).store);
    }

    TEST_CASE("quantized store: a bad weight in a later piece names its row in the file, as the whole read does") {
        const test::ScratchDir dir("quantized_bad_weight");
        const std::string path = dir.file("t.csv", weighted_csv(600, 4, 517));
        TrainingDataOptions options = data_options(path);
        options.weights_column = "w";
        std::string whole, pieces;
        try {
            (void)read_training_data(options, gbdt_spec());
        } catch (const DataError& e) {
            whole = e.what();
        }
        try {
            (void)read_quantized_training_data(options, gbdt_spec(), 255, 1, StoreReadSizes{0, 1000});
        } catch (const DataError& e) {
            pieces = e.what();
        }
        CHECK(whole.find("the weight of data row 518 ") != std::string::npos);
        CHECK(pieces == whole);
    }

    TEST_CASE("quantized store: a query column taken out of every piece gives the doubles' ranking model file") {
        const test::ScratchDir dir("quantized_queries");
        const std::string path = dir.file("t.csv", ranked_csv(250, 17));
        Context ctx;
        ctx.threads = 2;
        TrainingDataOptions options = data_options(path);
        options.group_column = "q";
        for (const std::string loss : {"lambdarank", "rank_pairwise"}) {
            CAPTURE(loss);
            const ModelSpec spec = gbdt_spec({{"loss", loss}, {"n_estimators", 8}, {"subsample", 0.8}});
            const Dataset whole = read_training_data(options, spec);
            REQUIRE(whole.qid.size() == whole.rows());
            const Model doubles = Model::train(spec, whole, ctx);
            // Pieces of 2 kB (about 40 rows, a query's rows often in two pieces): the ids
            // taken out of each, in row order.
            QuantizedTrainingData q = read_quantized_training_data(options, spec, 255, ctx.seed, StoreReadSizes{0, 2000});
            REQUIRE(q.store);
            CHECK(q.data.cols() == 3);  // a, b, c: q is not a feature
            CHECK(q.data.task == whole.task);
            CHECK(q.data.qid == whole.qid);
            const QuantizedRows rows(q.store);
            CHECK(model_text(Model::train(spec, std::move(q.data), ctx)) == model_text(doubles));
        }
        // The histogram forest takes the query column out of its features too.
        const ModelSpec forest = hist_forest_spec({{"n_estimators", 3}});
        QuantizedTrainingData f = read_quantized_training_data(options, forest, 255, ctx.seed, StoreReadSizes{0, 2000});
        REQUIRE(f.store);
        const QuantizedRows forest_rows(f.store);
        CHECK(model_text(Model::train(forest, std::move(f.data), ctx)) ==
              model_text(Model::train(forest, read_training_data(options, forest), ctx)));
        // kestrel-train's request takes the store with the query column, to the same bytes.
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = gbdt_spec({{"loss", "lambdarank"}, {"n_estimators", 5}});
        request.data = options;
        request.quantized_store = TrainRequest::QuantizedStore::always;
        const TrainResult store = train_model(request, Context{});
        CHECK(store.quantized);
        request.quantized_store = TrainRequest::QuantizedStore::never;
        CHECK(model_text(store.model) == model_text(train_model(request, Context{}).model));
        // A query column of words: each piece would code its words on its own, the doubles.
        TrainingDataOptions words = data_options(dir.file("words.csv", ranked_csv(60, 3, -1, "", true)));
        words.group_column = "q";
        CHECK_FALSE(read_quantized_training_data(words, request.spec, 255, 1, StoreReadSizes{0, 2000}).store);
    }

    TEST_CASE("quantized store: a bad query id in a later piece is the whole read's error, naming its line") {
        const test::ScratchDir dir("quantized_bad_query");
        const auto errors = [&](const std::string& name, Index bad, const std::string& id) {
            TrainingDataOptions options = data_options(dir.file(name, ranked_csv(80, 5, bad, id)));
            options.group_column = "q";
            const ModelSpec spec = gbdt_spec({{"loss", "lambdarank"}});
            return std::pair{data_error_of([&] { (void)read_training_data(options, spec); }),
                             data_error_of([&] {
                                 (void)read_quantized_training_data(options, spec, 255, 1, StoreReadSizes{0, 1000});
                             })};
        };
        // Row 517 (line 519) back in the first query, many pieces after it ended.
        const auto [whole, pieces] = errors("again.csv", 517, "101");
        CHECK(whole.find("again.csv:519: query 101 reappears after other queries (first on line 2)") != std::string::npos);
        CHECK(pieces == whole);
        const auto [whole_na, pieces_na] = errors("missing.csv", 600, "NA");
        CHECK(whole_na.find("missing.csv:602: the query id is missing or not a number") != std::string::npos);
        CHECK(pieces_na == whole_na);
    }

    TEST_CASE("quantized store: the pieces shrink with the memory budget, within 64 KB and 4 MB") {
        CHECK(store_piece_bytes(std::uint64_t{1} << 30) == std::size_t{4} << 20);
        CHECK(store_piece_bytes(std::uint64_t{16} << 20) == std::size_t{1} << 20);
        CHECK(store_piece_bytes(std::uint64_t{1} << 20) == std::size_t{64} << 10);
        CHECK(store_piece_bytes(std::uint64_t{100} << 10) == kMinPieceBytes);
        CHECK(store_piece_bytes(0) >= kMinPieceBytes);  // the memory available
        CHECK(store_piece_bytes(0) <= kMaxPieceBytes);
        // The pieces from the budget (StoreReadSizes{}): a budget without room for the
        // smallest pieces beside the labels of every row is refused in one message.
        const test::ScratchDir dir("quantized_piece_room");
        TrainingDataOptions options = data_options(dir.file("t.csv", numeric_csv(3000, 2)));
        options.read.max_memory = 150 * 1024;
        const std::string error = data_error_of([&] { (void)read_quantized_training_data(options, gbdt_spec(), 255, 1); });
        CHECK(error.find("t.csv: reading in pieces of 64.0 KB beside the labels of 3000 rows needs about ") !=
              std::string::npos);
        CHECK(error.find("; the quantized store reads a sixteenth of the budget at a time, at least 64.0 KB") !=
              std::string::npos);
        options.read.max_memory = 300 * 1024;
        CHECK(read_quantized_training_data(options, gbdt_spec(), 255, 1).store);
    }

    TEST_CASE("quantized store: the histogram forest from a LIBSVM file, absent entries zeros, in pieces") {
        const test::ScratchDir dir("quantized_forest_libsvm");
        Rng rng(13);
        std::ostringstream text;
        text.precision(17);
        for (int i = 0; i < 1500; ++i) {
            const double a = rng.normal();
            text << (a + 0.3 * rng.normal() > 0 ? 1 : 0);
            for (int j = 1; j <= (i < 1200 ? 5 : 6); ++j)
                if (rng.uniform() < 0.6) text << " " << j << ":" << (j == 1 ? a : rng.normal());
            text << "\n";
        }
        const std::string path = dir.file("t.libsvm", text.str());
        const ModelSpec spec = hist_forest_spec({{"n_estimators", 5}, {"oob", true}});
        Context ctx;
        ctx.threads = 2;
        const TrainingDataOptions options = data_options(path);
        const Model doubles = Model::train(spec, read_training_data(options, spec), ctx);
        QuantizedTrainingData q = read_quantized_training_data(options, spec, 255, ctx.seed, StoreReadSizes{0, 1500});
        REQUIRE(q.store);
        CHECK_FALSE(q.store->absent_is_missing());
        CHECK(q.data.cols() == 6);
        const QuantizedRows rows(q.store);
        CHECK(model_text(Model::train(spec, std::move(q.data), ctx)) == model_text(doubles));
    }

    TEST_CASE("quantized store: a LIBSVM file in pieces, absent entries missing, pieces narrower than the file") {
        const test::ScratchDir dir("quantized_libsvm");
        Rng rng(12);
        std::ostringstream text;
        text.precision(17);
        for (int i = 0; i < 1500; ++i) {
            const double a = rng.normal();
            text << (a + 0.3 * rng.normal() > 0 ? 1 : 0);
            // Feature 6 only in the last rows: the early pieces are five features wide.
            for (int j = 1; j <= (i < 1200 ? 5 : 6); ++j)
                if (rng.uniform() < 0.7) text << " " << j << ":" << (j == 1 ? a : rng.normal());
            text << "\n";
        }
        const std::string path = dir.file("t.libsvm", text.str());
        const ModelSpec spec = gbdt_spec({{"n_estimators", 6}});
        Context ctx;
        ctx.threads = 2;
        const TrainingDataOptions options = data_options(path);
        const Model doubles = Model::train(spec, read_training_data(options, spec), ctx);
        QuantizedTrainingData q = read_quantized_training_data(options, spec, 255, ctx.seed, StoreReadSizes{0, 1500});
        CHECK(q.data.cols() == 6);
        const QuantizedRows rows(q.store);
        CHECK(model_text(Model::train(spec, std::move(q.data), ctx)) == model_text(doubles));
    }

    TEST_CASE("quantized store: beyond 200,000 rows the cuts are BinCuts::fit's on the seeded sample") {
        const test::ScratchDir dir("quantized_sample");
        std::ostringstream text;
        text.precision(17);
        text << "y,u,v\n";
        Rng rng(8);
        for (int i = 0; i < 210000; ++i) text << rng.normal() << "," << rng.uniform() << "," << rng.normal() << "\n";
        const std::string path = dir.file("t.csv", text.str());
        const TrainingDataOptions options = data_options(path);
        const QuantizedTrainingData q = read_quantized_training_data(options, gbdt_spec(), 64, 3);
        const Table whole = read_table(path, options.read);
        const BinCuts fit = BinCuts::fit(whole.X, {}, 64, 3, 2);
        const BinCuts& cuts = q.store->cuts();
        for (Index f = 0; f < 2; ++f) {
            REQUIRE(cuts.n_bins(f) == fit.n_bins(f));
            for (int b = 0; b < fit.n_bins(f); ++b) CHECK(cuts.upper(f, b) == fit.upper(f, b));
        }
        const BinnedMatrix codes(fit, whole.X, {}, 2);
        bool same = true;
        for (Index f = 0; f < 2; ++f)
            for (Index i = 0; i < codes.rows(); ++i) same = same && codes.bin(f, i) == q.store->bins().bin(f, i);
        CHECK(same);
        // Another seed moves the sample's edges (the comparison has teeth).
        CHECK(BinCuts::fit(whole.X, {}, 64, 4, 2).upper(0, 10) != cuts.upper(0, 10));
    }

    TEST_CASE("quantized store: pages on disk give the model file of the store in memory, one- and two-byte codes") {
        const test::ScratchDir dir("quantized_pages");
        const std::string path = dir.file("t.csv", generated_csv(2500, 7));
        const test::PinnedDate pinned;
        for (const int max_bins : {255, 1000}) {
            for (const int threads : {1, 2}) {
                CAPTURE(max_bins);
                CAPTURE(threads);
                Context ctx;
                ctx.threads = threads;
                TrainRequest request;
                request.spec = gbdt_spec({{"n_estimators", 6}, {"max_bins", max_bins}, {"subsample", 0.8}});
                request.data = data_options(path);
                request.quantized_store = TrainRequest::QuantizedStore::always;
                request.store_pages = StorePages::memory;
                const TrainResult memory = train_model(request, ctx);
                CHECK(memory.quantized);
                CHECK_FALSE(memory.store_on_disk);
                // On disk without a limit: the learner holds every column in its buffers (the
                // budget's 64 MB), read once and then taken from them (ColumnReads).
                request.store_pages = StorePages::disk;
                const TrainResult disk = train_model(request, ctx);
                CHECK(disk.quantized);
                CHECK(disk.store_on_disk);
                const std::string bytes = saved_bytes(disk.model, dir / "disk.json");
                CHECK(bytes.size() > 1000);
                CHECK(bytes == saved_bytes(memory.model, dir / "memory.json"));
                // And the doubles' model, as before.
                request.quantized_store = TrainRequest::QuantizedStore::never;
                CHECK(bytes == saved_bytes(train_model(request, ctx).model, dir / "doubles.json"));
            }
        }
        // Two-byte codes are what max_bins 1000 gives on this table.
        const QuantizedTrainingData wide = read_quantized_training_data(data_options(path), gbdt_spec(), 1000, 1, {},
                                                                        {StorePages::disk, dir.path.string(), {}});
        CHECK(wide.pages_on_disk);
        CHECK(wide.store->bins().wide());
        CHECK(wide.store->bins().pages().directory() == dir.path.string());
        CHECK(wide.store->bins().pages().read_budget() > 0);
    }

    TEST_CASE("quantized store: a memory limit alone puts the codes on disk, with progress naming where") {
        const test::ScratchDir dir("quantized_limit");
        const test::ScratchDir pages("quantized_limit_pages");
        const std::string path = dir.file("t.csv", generated_csv(3000, 8));
        const ModelSpec spec = gbdt_spec({{"n_estimators", 5}});
        Context ctx;
        ctx.threads = 2;
        TrainingDataOptions options = data_options(path);
        // Pieces of about 8 rows: each piece's doubles within the limit, the codes (3,000 rows
        // x 4 features, 12,000 bytes) beyond it.
        const StoreReadSizes sizes{0, 300};
        QuantizedTrainingData memory = read_quantized_training_data(options, spec, 255, ctx.seed, sizes);
        CHECK_FALSE(memory.pages_on_disk);
        options.read.max_memory = 6000;
        std::string label;
        std::uint64_t last = 0, total = 0;
        StorePlacement placement{StorePages::automatic, pages.path.string(), {}};
        placement.progress = [&](const std::string& l, std::uint64_t done, std::uint64_t all) {
            label = l;
            last = done;
            total = all;
        };
        QuantizedTrainingData disk = read_quantized_training_data(options, spec, 255, ctx.seed, sizes, placement);
        CHECK(disk.pages_on_disk);
        // Nothing of the budget left beside the fit: the learner reads its columns into the
        // fewest buffers (ColumnReads::kMinBuffers), one summed while the next is read.
        CHECK(disk.store->bins().pages().read_budget() == 0);
        // The cut sample's values spilled beside the codes: every feature in one read.
        CHECK(disk.cut_passes == 1);
        CHECK(memory.cut_passes == 1);
        CHECK(label.find("on disk in " + pages.path.string()) != std::string::npos);
        CHECK(last == 3000);
        CHECK(total == 3000);
        CHECK(std::filesystem::is_empty(pages.path));  // unlinked while in use
        std::string memory_model, disk_model;
        {
            const QuantizedRows rows(memory.store);
            memory_model = model_text(Model::train(spec, std::move(memory.data), ctx));
        }
        {
            const QuantizedRows rows(disk.store);
            disk_model = model_text(Model::train(spec, std::move(disk.data), ctx));
        }
        CHECK(disk_model == memory_model);
        {  // and on one thread
            Context one = ctx;
            one.threads = 1;
            QuantizedTrainingData again = read_quantized_training_data(options, spec, 255, ctx.seed, sizes, placement);
            const QuantizedRows rows(again.store);
            CHECK(model_text(Model::train(spec, std::move(again.data), one)) == memory_model);
        }
        // Held in memory on request, the codes beyond the limit are refused as before.
        try {
            (void)read_quantized_training_data(options, spec, 255, ctx.seed, sizes, {StorePages::memory, {}, {}});
            FAIL("no error");
        } catch (const DataError& e) {
            CHECK(std::string(e.what()).find("features quantized needs about") != std::string::npos);
        }
    }

    TEST_CASE("quantized store: the fit's own arrays count beside the codes when the limit places them") {
        const test::ScratchDir dir("quantized_fit_bytes");
        const std::string path = dir.file("t.csv", generated_csv(3000, 9));
        const ModelSpec spec = gbdt_spec({{"n_estimators", 5}});
        TrainingDataOptions options = data_options(path);
        const StoreReadSizes sizes{0, 300};
        // 3,000 rows x 4 features: 12,000 bytes of codes. Beside them the rows' labels and
        // shape (12 bytes a row) and gbdt's fit of 3 classes (softmax, K = 3) on one learner:
        // scores and gradient pairs 16 bytes a row per class, the learner's row list and
        // ordered gradients 12 bytes a row, and 15 trees of at most 127 nodes.
        const std::uint64_t fit = gbdt_fit_bytes(gbdt_params().read(resolved_params(spec)->values()), 3000, 3, 2);
        CHECK(fit == 3000 * (3 * 16 + 12) + 15 * 127 * (sizeof(TreeNode) + sizeof(double)));
        // A limit the codes fit alone, but not with the fit's arrays: on disk.
        options.read.max_memory = 100000;
        CHECK(read_quantized_training_data(options, spec, 255, 1, sizes).pages_on_disk);
        // Room for all of it: in memory.
        options.read.max_memory = 12000 + 3000 * 12 + fit + 1000;
        CHECK_FALSE(read_quantized_training_data(options, spec, 255, 1, sizes).pages_on_disk);
        // Softmax's arrays grow with the classes; one raw score for two classes or a regression.
        const GbdtParams defaults = gbdt_params().read(resolved_params(gbdt_spec())->values());
        const std::uint64_t trees = 100 * 127 * (sizeof(TreeNode) + sizeof(double));
        CHECK(gbdt_fit_bytes(defaults, 1000, 10, 1) == 1000 * (10 * 16 + 12) + 10 * trees);
        CHECK(gbdt_fit_bytes(defaults, 1000, 2, 1) == 1000 * (16 + 12) + trees);
        CHECK(gbdt_fit_bytes(defaults, 1000, 0, 1) == 1000 * (16 + 12) + trees);
        // Ten classes on two threads: a learner per thread, each with its row lists.
        CHECK(gbdt_fit_bytes(defaults, 1000, 10, 2) == 1000 * (10 * 16 + 2 * 12) + 10 * trees);
    }

    TEST_CASE("quantized store: a bad cell in a later piece is the reader's own error") {
        const test::ScratchDir dir("quantized_error");
        std::string text = "y,a\n";
        for (int i = 0; i < 50; ++i) text += std::to_string(i) + "," + std::to_string(i * 2) + "\n";
        text += "51,NA\n";
        const std::string path = dir.file("t.csv", text);
        TrainingDataOptions options = data_options(path);
        options.read.missing = MissingPolicy::error;
        std::string whole, pieces;
        try {
            (void)read_table(path, options.read);
        } catch (const DataError& e) {
            whole = e.what();
        }
        try {
            (void)read_quantized_training_data(options, gbdt_spec(), 255, 1, StoreReadSizes{0, 64});
        } catch (const DataError& e) {
            pieces = e.what();
        }
        CHECK(whole.find(":52:") != std::string::npos);
        CHECK(pieces == whole);
    }
}

}  // namespace unit_tasks_quantized_training_test
}  // namespace
