// Determinism of the model files themselves, for every registered model: the same
// data, parameters and seed give byte-identical files with --threads 1 and
// --threads 2 and across separate processes (so neither scheduling nor address-space
// layout leaks into a model). SOURCE_DATE_EPOCH pins the one varying field, the date.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/run_tool.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_determinism_test {

using namespace kestrel;
using namespace kestrel::test;

namespace {

std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string to_csv(const Dataset& d) {
    std::string s = "label";
    for (Index j = 0; j < d.cols(); ++j) s += ",x" + std::to_string(j);
    s += '\n';
    const DenseView X = d.X.dense_ref();
    for (Index i = 0; i < d.rows(); ++i) {
        s += d.task == Task::classification ? d.classes[static_cast<std::size_t>(d.y[i])] : number(d.y[i]);
        for (Index j = 0; j < d.cols(); ++j) s += "," + number(X(i, j));
        s += '\n';
    }
    return s;
}

}  // namespace

TEST_SUITE("cli.determinism") {
    TEST_CASE("every model: same seed, byte-identical model files at --threads 1 and 2, run after run") {
        ScratchDir dir("determinism");
        const auto classes = dir.file("classes.csv", to_csv(blobs(150, 5, 3)));
        const auto values = dir.file("values.csv", to_csv(linear_regression(150, 5)));
        for (const auto& name : registry().names()) {
            CAPTURE(name);
            const std::string data = registry().info(name).is_classifier() ? classes : values;
            auto train = [&](int threads, const std::string& out) {
                return "SOURCE_DATE_EPOCH=0 " + std::string(KESTREL_BIN_DIR) + "/kestrel-train -q -m " + name + " --seed 42 --threads " +
                       std::to_string(threads) + " '" + data + "' -o '" + (dir / out) + "'";
            };
            const auto r = run_tool(train(1, "t1.json") + " && " + train(2, "t2.json") + " && " + train(2, "t2b.json"));
            REQUIRE(r.exit_code == 0);
            const std::string one = slurp(dir / "t1.json");
            CHECK(one.find("\"date\": \"1970-01-01T00:00:00Z\"") != std::string::npos);
            CHECK(slurp(dir / "t2.json") == one);
            CHECK(slurp(dir / "t2b.json") == one);
        }
    }
}

TEST_SUITE("cli.determinism") {
    // common/simd: the dispatched loops sum in the order the portable ones spell out, so
    // forcing the portable loops changes no bit of a model or a prediction. 40 features:
    // two full 16-wide steps of the dot products and a tail of 8.
    TEST_CASE("vector paths: KESTREL_SIMD=generic gives byte-identical models and predictions") {
        ScratchDir dir("simd_paths");
        const auto classes = dir.file("classes.csv", to_csv(blobs(300, 40, 3)));
        const auto values = dir.file("values.csv", to_csv(linear_regression(300, 40)));
        const std::vector<std::pair<std::string, std::string>> runs{
            {"-m svc -p C=10", classes},
            {"-m svc -p kernel=poly -p degree=2", classes},
            {"-m nu_svc", classes},
            {"-m svr -p C=10", values},
            {"-m knn -p algorithm=brute", classes},
            {"-m knn -p algorithm=brute -p metric=cosine", classes},
            {"-m knn -p metric=kernel -p kernel=rbf", classes},
        };
        for (const auto& [model, data] : runs) {
            CAPTURE(model);
            auto pair = [&](const std::string& env, const std::string& tag) {
                const std::string m = dir / (tag + ".json"), p = dir / (tag + ".pred");
                const std::string bin = std::string(KESTREL_BIN_DIR) + "/";
                return env + " SOURCE_DATE_EPOCH=0 " + bin + "kestrel-train -q " + model + " --threads 2 '" + data +
                       "' -o '" + m + "' && " + env + " " + bin + "kestrel-predict -q --threads 2 '" + m + "' '" + data +
                       "' -o '" + p + "'";
            };
            const auto r = run_tool(pair("KESTREL_SIMD=auto", "fast") + " && " + pair("KESTREL_SIMD=generic", "generic"));
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            const std::string model_file = slurp(dir / "fast.json"), pred = slurp(dir / "fast.pred");
            REQUIRE(!model_file.empty());
            REQUIRE(!pred.empty());
            CHECK(slurp(dir / "generic.json") == model_file);
            CHECK(slurp(dir / "generic.pred") == pred);
        }
    }

    // common/tree_walk: forest and gbdt predict through one walk, whose top levels the
    // AVX-512 path takes from level tables; a walk is comparisons only, so every path
    // (as the CPU chooses, AVX2 forced, portable forced) gives byte-identical predictions,
    // on data with missing cells (NaN sent either way) and on the training rows' ties.
    TEST_CASE("vector paths: forest and gbdt predictions are byte-identical on every path") {
        ScratchDir dir("simd_tree_paths");
        auto with_missing = [](std::string csv) {
            // Every 7th number cell emptied (a missing value), the label column kept.
            std::string out;
            std::size_t cell = 0;
            bool first = true, header = true;
            for (std::size_t i = 0; i < csv.size();) {
                const std::size_t end = std::min(csv.find_first_of(",\n", i), csv.size());
                const std::string field = csv.substr(i, end - i);
                out += (!header && !first && ++cell % 7 == 0) ? std::string() : field;
                if (end < csv.size()) out += csv[end];
                first = end < csv.size() && csv[end] == '\n';
                if (first) header = false;
                i = end + 1;
            }
            return out;
        };
        const auto classes = dir.file("classes.csv", with_missing(to_csv(blobs(600, 12, 4))));
        const auto values = dir.file("values.csv", with_missing(to_csv(linear_regression(600, 12))));
        const std::vector<std::tuple<std::string, std::string, std::string>> runs{
            {"-m forest -p n_estimators=20", classes, "--proba"},
            {"-m forest -p n_estimators=20", values, ""},
            {"-m gbdt -p n_estimators=30 -p max_depth=6", values, ""},
            {"-m gbdt -p n_estimators=10 -p max_depth=8", classes, "--proba"},
            {"-m gbdt -p n_estimators=10 -p max_depth=3", classes, ""},
        };
        for (const auto& [model, data, flag] : runs) {
            CAPTURE(model);
            CAPTURE(data);
            const std::string bin = std::string(KESTREL_BIN_DIR) + "/", m = dir / "model.json";
            auto predict = [&](const std::string& env, const std::string& tag) {
                return env + " " + bin + "kestrel-predict -q --threads 2 " + flag + " '" + m + "' '" + data + "' -o '" +
                       (dir / (tag + ".pred")) + "'";
            };
            const auto r = run_tool(bin + "kestrel-train -q " + model + " --seed 3 --threads 2 '" + data + "' -o '" + m +
                                    "' && " + predict("KESTREL_SIMD=auto", "auto") + " && " +
                                    predict("KESTREL_SIMD=avx2", "avx2") + " && " +
                                    predict("KESTREL_SIMD=generic", "generic"));
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            const std::string pred = slurp(dir / "auto.pred");
            REQUIRE(!pred.empty());
            CHECK(slurp(dir / "avx2.pred") == pred);
            CHECK(slurp(dir / "generic.pred") == pred);
        }
    }
}

}  // namespace cli_determinism_test
}  // namespace
