// Linear models trained from a stream of blocks (tasks/streamed_training.hpp,
// docs/large-data.md): the file read in pieces of a few dozen rows, one pass per evaluation
// of the objective, gives the model of the table read whole (the same solver steps; the sums
// differ only in their rounding), for logistic (binary and multinomial, both solvers),
// linear_svm's primal, ridge (with and without intercept) and a sparse LIBSVM file; the
// train task's choice and its refusals.
#include "kestrel/tasks/streamed_training.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "cli/run_tool.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/train_task.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_streamed_training_test {

using namespace kestrel;

namespace {

ModelSpec spec_of(const std::string& model, Json params = Json::object()) {
    ModelSpec spec;
    spec.model = model;
    spec.params = std::move(params);
    resolve_params(spec);
    return spec;
}

TrainingDataOptions data_options(const std::string& path) {
    TrainingDataOptions o;
    o.path = path;
    o.read.threads = 2;
    return o;
}

// n rows of four normal features (the third of mean `offset`: ridge's centring matters) and a
// label: `classes` classes named by words, or a regression target when classes is 0.
std::string generated_csv(Index n, int classes, std::uint64_t seed, double offset = 0) {
    Rng rng(seed);
    std::ostringstream out;
    out.precision(17);
    out << "a,b,c,d,label\n";
    const char* names[] = {"no", "yes", "maybe"};
    for (Index i = 0; i < n; ++i) {
        const double a = rng.normal(), b = rng.normal(), c = offset + rng.normal(), d = rng.normal();
        const double t = 1.5 * a - b + 0.3 * (c - offset) + 0.8 * rng.normal();
        out << a << "," << b << "," << c << "," << d << ",";
        if (classes == 0) out << 2 + t;
        else if (classes == 2) out << names[t > 0.2 ? 1 : 0];
        else out << names[t < -0.7 ? 0 : (t < 0.7 ? 1 : 2)];
        out << "\n";
    }
    return out.str();
}

// The model of the table read whole and of its stream in pieces of 1.5 kB (about 20 rows).
struct BothFits {
    Model whole, streamed;
    int passes = 0;
};

BothFits fit_both(const std::string& path, const ModelSpec& spec, const TrainingDataOptions& options) {
    Context ctx;
    ctx.threads = 2;
    Model whole = Model::train(spec, read_training_data(options, spec), ctx);
    StreamedTrainingData s = read_streamed_training_data(options, spec, ctx, 1500);
    REQUIRE(s.refused.empty());
    REQUIRE(s.blocks);
    REQUIRE(s.data.source == path);
    const StreamedRows rows(*s.blocks);
    Model streamed = Model::train(spec, std::move(s.data), ctx);
    return {std::move(whole), std::move(streamed), s.blocks->passes()};
}

// The largest difference of the two models' scores on the table (regression: predictions).
double largest_difference(const BothFits& f, const std::string& path, bool proba) {
    const Table t = read_table(path, data_options(path).read);
    const auto scores = [&](const Model& m) -> Matrix {
        if (proba) return m.predict_proba(t.X);
        if (m.task() == Task::regression) return m.predict(t.X);
        return m.decision_function(t.X);
    };
    const Matrix a = scores(f.whole), b = scores(f.streamed);
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_SUITE("tasks.streamed") {
    TEST_CASE("stream: logistic, binary and multinomial, both solvers, the model of the table read whole") {
        const test::ScratchDir dir("streamed_logistic");
        for (const int classes : {2, 3}) {
            const std::string path = dir.file("t" + std::to_string(classes) + ".csv", generated_csv(1200, classes, 7));
            for (const char* solver : {"tron", "lbfgs"}) {
                CAPTURE(classes);
                CAPTURE(solver);
                const ModelSpec spec = spec_of("logistic", {{"solver", solver}, {"tol", 1e-8}});
                const BothFits f = fit_both(path, spec, data_options(path));
                CHECK(largest_difference(f, path, true) < 1e-9);
                // Multinomial scores are defined up to a shift common to the classes (softmax
                // ignores it): compared as probabilities only.
                if (classes == 2) CHECK(largest_difference(f, path, false) < 1e-7);
                // The scan, then one pass an evaluation (TRON: and one a Hessian-vector product).
                CHECK(f.passes > 3);
                CHECK(f.streamed.classes() == f.whole.classes());
                // The feature means the linear contributions need: the scan's.
                const auto means = [](const Model& m) { return m.to_json().at("feature_mean").get<std::vector<double>>(); };
                for (std::size_t j = 0; j < 4; ++j) CHECK(means(f.streamed)[j] == doctest::Approx(means(f.whole)[j]).epsilon(1e-12));
            }
        }
    }

    TEST_CASE("stream: linear_svm's primal squared hinge and ridge, the model of the table read whole") {
        const test::ScratchDir dir("streamed_svm_ridge");
        const std::string binary = dir.file("b.csv", generated_csv(1000, 2, 8));
        const BothFits svm = fit_both(binary, spec_of("linear_svm", {{"solver", "primal"}, {"eps", 1e-6}}),
                                      data_options(binary));
        CHECK(largest_difference(svm, binary, false) < 1e-7);
        const std::string target = dir.file("r.csv", generated_csv(1000, 0, 9, 50));
        for (const bool intercept : {true, false}) {
            CAPTURE(intercept);
            const BothFits ridge =
                fit_both(target, spec_of("ridge", {{"alpha", 0.5}, {"fit_intercept", intercept}}), data_options(target));
            CHECK(largest_difference(ridge, target, false) < 1e-9);
            CHECK(ridge.passes == 2);  // the moments, then the normal equations
        }
    }

    TEST_CASE("stream: a sparse LIBSVM file, rows narrower than the file") {
        const test::ScratchDir dir("streamed_libsvm");
        Rng rng(13);
        std::ostringstream text;
        text.precision(17);
        for (int i = 0; i < 900; ++i) {
            const double a = rng.normal(), b = rng.normal();
            text << (a - 0.5 * b > 0 ? 1 : -1) << " 1:" << a;
            if (i % 3 != 0) text << " 2:" << b;
            if (i % 7 == 0) text << " 9:" << rng.normal();
            text << "\n";
        }
        const std::string path = dir.file("t.svm", text.str());
        TrainingDataOptions options = data_options(path);
        options.read.format = FileFormat::libsvm;
        const BothFits f = fit_both(path, spec_of("logistic", {{"tol", 1e-8}}), options);
        const Table t = read_table(path, options.read);
        const Matrix a = f.whole.predict_proba(t.X), b = f.streamed.predict_proba(t.X);
        CHECK((a - b).cwiseAbs().maxCoeff() < 1e-9);
    }

    TEST_CASE("init_model: logistic starts from the old weights, to the same optimum") {
        const test::ScratchDir dir("streamed_warm_start");
        const std::string path = dir.file("t.csv", generated_csv(1000, 2, 12));
        for (const char* solver : {"tron", "lbfgs"}) {
            CAPTURE(solver);
            const ModelSpec spec = spec_of("logistic", {{"tol", 1e-8}, {"solver", solver}});
            Context ctx;
            ctx.threads = 2;
            // The passes over a stream count the solver's evaluations.
            const auto fit_counted = [&](const Context& c, int& passes) {
                StreamedTrainingData s = read_streamed_training_data(data_options(path), spec, c, 4000);
                const StreamedRows rows(*s.blocks);
                Model m = Model::train(spec, std::move(s.data), c);
                passes = s.blocks->passes();
                return m;
            };
            int cold_passes = 0, warm_passes = 0;
            const Model cold = fit_counted(ctx, cold_passes);
            Context continued = ctx;
            continued.init_model = &cold.estimator();
            const Model warm = fit_counted(continued, warm_passes);
            CHECK(warm_passes < cold_passes);
            const Table t = read_table(path, data_options(path).read);
            CHECK((cold.decision_function(t.X) - warm.decision_function(t.X)).cwiseAbs().maxCoeff() < 1e-6);
            CHECK(registry().capabilities(*resolved_params(spec)).continue_training);
        }
        CHECK_FALSE(registry().capabilities("logistic", {{"C", "auto"}}).continue_training);
        // linear_svm is created in its one-vs-rest wrapper, which continues nothing.
        CHECK_FALSE(registry().capabilities("linear_svm", {{"solver", "primal"}}).continue_training);
        CHECK_FALSE(registry().capabilities("ridge", Params::object()).continue_training);
    }

    TEST_CASE("stream: labels kept as numbers give the whole read's classes and targets") {
        const test::ScratchDir dir("streamed_number_labels");
        const ModelSpec logistic = spec_of("logistic");
        // The same rows, their labels written three ways: class numbers in their shortest
        // form (kept as numbers), the same with one "1.0" in a late piece (the texts are then
        // written for every row, and "1.0" is a class of its own, as in a whole read), and a
        // regression target.
        std::string numbers = "a,b,label\n", late_text = numbers, target = numbers;
        Rng rng(21);
        bool written = false;  // the "1.0": the first class-1 row from row 250 on
        for (int i = 0; i < 300; ++i) {
            const double a = rng.normal(), b = rng.normal();
            const int c = a + 0.5 * b > 0.5 ? 2 : (a - b > 0 ? 1 : 0);
            const std::string row = std::to_string(a) + "," + std::to_string(b) + ",";
            numbers += row + std::to_string(c) + "\n";
            const bool odd = i >= 250 && c == 1 && !written;
            written = written || odd;
            late_text += row + (odd ? "1.0" : std::to_string(c)) + "\n";
            target += row + number_label_text(0.25 * c - 3.5) + "\n";
        }
        REQUIRE(written);
        for (const auto& [name, text, model] : {std::tuple{"numbers.csv", numbers, logistic},
                                               std::tuple{"late_text.csv", late_text, logistic},
                                               std::tuple{"target.csv", target, spec_of("ridge")}}) {
            CAPTURE(name);
            const std::string path = dir.file(name, text);
            const Dataset whole = read_training_data(data_options(path), model);
            StreamedTrainingData s = read_streamed_training_data(data_options(path), model, Context{}, 1500);
            REQUIRE(s.refused.empty());
            CHECK(s.data.task == whole.task);
            CHECK(s.data.classes == whole.classes);
            CHECK(s.data.y == whole.y);
        }
        const Dataset late = read_training_data(data_options(dir / "late_text.csv"), logistic);
        CHECK(late.classes == std::vector<std::string>{"0", "1", "1.0", "2"});
    }

    TEST_CASE("labels as numbers: their texts are the shortest that read back, -0 and non-finite values none") {
        CHECK(number_label_text(1) == "1");
        CHECK(number_label_text(-3) == "-3");
        CHECK(number_label_text(2.5) == "2.5");
        CHECK(number_label_text(0.1) == "0.1");
        CHECK(number_label_text(1e21) == "1e+21");
        CHECK(number_label_text(0.0).empty() == false);
        CHECK(number_label_text(-0.0).empty());
        CHECK(number_label_text(std::nan("")).empty());
        CHECK(number_label_text(INFINITY).empty());
        RawLabels labels;
        labels.numeric = {2, 0.5, -7};
        labels.texts_are_numbers = true;
        CHECK(labels.size() == 3);
        CHECK(labels.text_at(1) == "0.5");
        labels.write_texts();
        CHECK_FALSE(labels.texts_are_numbers);
        CHECK(labels.text == std::vector<std::string>{"2", "0.5", "-7"});
        Dataset d;
        labels.numeric = {10, 2, 10};
        labels.text = {"10", "2", "10"};
        encode_classes(labels, d);
        const std::vector<std::string> by_text = d.classes;
        const Vector y_text = d.y;
        labels.text.clear();
        labels.texts_are_numbers = true;
        encode_classes(labels, d);
        CHECK(d.classes == by_text);
        CHECK(d.classes == std::vector<std::string>{"2", "10"});
        CHECK(d.y == y_text);
    }

    TEST_CASE("stream: pieces sized by the memory budget, and a budget too small for one piece") {
        const test::ScratchDir dir("streamed_budget");
        const std::string path = dir.file("t.csv", generated_csv(20000, 2, 13));
        REQUIRE(std::filesystem::file_size(path) > (std::uintmax_t{1} << 20));
        const ModelSpec spec = spec_of("logistic", {{"tol", 1e-8}});
        Context ctx;
        ctx.threads = 2;
        TrainingDataOptions options = data_options(path);
        options.read.max_memory = std::uint64_t{2} << 20;  // a sixteenth: pieces of 128 KB, not 4 MB
        const auto fit = [&](std::size_t piece_bytes, Index* blocks) {
            StreamedTrainingData s = read_streamed_training_data(options, spec, ctx, piece_bytes);
            REQUIRE(s.refused.empty());
            REQUIRE(s.blocks);
            if (blocks) s.blocks->for_each([&](const Features&, Index) { ++*blocks; });
            const StreamedRows rows(*s.blocks);
            return Model::train(spec, std::move(s.data), ctx).to_json();
        };
        Index blocks = 0;
        const Json budget = fit(0, &blocks);
        // About 1.6 MB of text in pieces of 128 KB; the same blocks as asked for by size.
        CHECK(blocks >= 10);
        CHECK(budget == fit(std::size_t{128} << 10, nullptr));
        // Under 320 KB the labels of 20,000 rows (16 bytes each) and a 64 KB piece do not fit.
        options.read.max_memory = 300 << 10;
        CHECK_THROWS_WITH_AS(read_streamed_training_data(options, spec, ctx),
                             doctest::Contains("t.csv: reading in pieces of 64.0 KB beside the labels of 20000 rows"),
                             MemoryLimitError);
        CHECK_THROWS_WITH_AS(read_streamed_training_data(options, spec, ctx),
                             doctest::Contains("; a stream of rows reads a sixteenth of the budget at a time, at least 64.0 KB"),
                             MemoryLimitError);
    }

    TEST_CASE("stream: the train task's choice, and the tables it reads whole instead") {
        const test::ScratchDir dir("streamed_request");
        const std::string path = dir.file("t.csv", generated_csv(800, 2, 10));
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = spec_of("logistic");
        request.data = data_options(path);
        // By default only a file large beside the memory budget is streamed.
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.data.read.max_memory = 2 * std::filesystem::file_size(path);
        const TrainResult streamed = train_model(request, Context{});
        CHECK(streamed.streamed);
        CHECK(streamed.rows == 800);
        request.data.read.max_memory = 0;
        request.row_stream = TrainRequest::RowStream::never;
        const TrainResult whole = train_model(request, Context{});
        CHECK_FALSE(whole.streamed);
        CHECK(streamed.model.classes() == whole.model.classes());
        // A model that does not sum its loss over rows, a C search or a step on doubles: read whole.
        request.row_stream = TrainRequest::RowStream::always;
        request.spec = spec_of("svc");
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.spec = spec_of("logistic", {{"C", "auto"}});
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.spec = spec_of("logistic");
        request.spec.preprocessing = {"standard"};
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.spec.preprocessing.clear();
        CHECK(train_model(request, Context{}).streamed);
        // linear_svm's dual solver (the default) reads rows at random: read whole.
        request.spec = spec_of("linear_svm");
        CHECK_FALSE(train_model(request, Context{}).streamed);
    }

    TEST_CASE("stream: a table with categories, missing cells or a binary model's three classes") {
        const test::ScratchDir dir("streamed_refused");
        const std::string words = dir.file("w.csv", "a,colour,label\n1.5,red,yes\n0.5,blue,no\n2.5,red,yes\n0.1,blue,no\n");
        const std::string missing = dir.file("m.csv", "a,b,label\n1.5,2,yes\n0.5,NA,no\n2.5,1,yes\n0.1,0,no\n");
        const std::string three = dir.file("k.csv", generated_csv(300, 3, 11));
        const test::PinnedDate pinned;
        TrainRequest request;
        request.spec = spec_of("logistic");
        request.data = data_options(words);
        request.data.read.missing = MissingPolicy::keep;  // NA read as a missing cell, as --missing auto
        // automatic: a budget the file is half of, which the whole read still fits.
        request.row_stream = TrainRequest::RowStream::automatic;
        request.data.read.max_memory = 2 * std::filesystem::file_size(three);
        // automatic: read whole, as without a stream.
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.data.path = missing;
        CHECK_FALSE(train_model(request, Context{}).streamed);
        request.spec = spec_of("linear_svm", {{"solver", "primal"}});
        request.data.path = three;
        CHECK_FALSE(train_model(request, Context{}).streamed);
        // always: refused, saying why.
        request.row_stream = TrainRequest::RowStream::always;
        request.data.read.max_memory = 0;
        CHECK_THROWS_WITH_AS(train_model(request, Context{}), doctest::Contains("3 classes"), UsageError);
        request.spec = spec_of("logistic");
        request.data.path = words;
        CHECK_THROWS_WITH_AS(train_model(request, Context{}), doctest::Contains("holds categories"), UsageError);
        request.data.path = missing;
        CHECK_THROWS_WITH_AS(train_model(request, Context{}), doctest::Contains("missing"), UsageError);
    }
}

}  // namespace unit_tasks_streamed_training_test
}  // namespace
