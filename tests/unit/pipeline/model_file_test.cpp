#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/model_text.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_model_file_test {

using namespace kestrel;
namespace fs = std::filesystem;

namespace {

Model trained(const std::vector<std::string>& steps = {}) {
    ModelSpec spec;
    spec.model = "logistic";
    spec.params = {{"C", "0.5"}};
    spec.preprocessing = steps;
    return Model::train(spec, test::blobs(40, 3, 3), Context{});
}

std::string temp_path(const std::string& name) { return (fs::temp_directory_path() / ("kestrel_test_" + name)).string(); }

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

TEST_SUITE("core.model_file") {
    TEST_CASE("the envelope holds every documented field") {
        const Json j = trained({"standard"}).to_json();
        CHECK(j["format"] == "kestrel-model");
        CHECK(j["version"] == 4);  // a linear model keeps its training mean (feature_mean)
        CHECK(j["feature_mean"].size() == 3);
        CHECK(j["model"] == "logistic");
        CHECK(j["task"] == "classification");
        CHECK(j["params"]["C"].get<double>() == 0.5);
        CHECK(j["features"]["count"] == 3);
        CHECK(j["features"]["names"] == Json({"x0", "x1", "x2"}));
        CHECK(j["classes"] == Json({"c0", "c1", "c2"}));
        CHECK(j["preprocessing"][0]["type"] == "standard");
        CHECK(j["state"]["state_version"].is_number_integer());
        CHECK(j["provenance"]["kestrel_version"] == kestrel_version());
        CHECK(j["provenance"]["rows"] == 40);
    }

    TEST_CASE("save and load round-trip exactly, with preprocessing") {
        const Model m = trained({"minmax"});
        const auto path = temp_path("roundtrip.json");
        m.save(path);
        const Model back = Model::load(path);
        CHECK(back.to_json() == m.to_json());
        const Dataset d = test::blobs(40, 3, 3, 99);
        CHECK(back.predict_proba(d.X) == m.predict_proba(d.X));
        fs::remove(path);
    }

    TEST_CASE("an XGBoost model saved as a kestrel model file keeps its float32 sums") {
        // One tree: x0 < 0.5 gives 1e-8, else -1; base_score 0.5. In float32 (XGBoost's
        // sums) 0.5 + 1e-8 is 0.5.
        const std::string xgboost = R"({"learner": {"attributes": {}, "feature_names": [], "feature_types": [],
          "gradient_booster": {"model": {"gbtree_model_param": {"num_parallel_tree": "1", "num_trees": "1"},
            "tree_info": [0], "trees": [{"base_weights": [0, 1, -1], "default_left": [1, 0, 0], "id": 0,
            "left_children": [1, -1, -1], "loss_changes": [3, 0, 0], "parents": [2147483647, 0, 0],
            "right_children": [2, -1, -1], "split_conditions": [0.5, 1E-8, -1], "split_indices": [0, 0, 0],
            "split_type": [0, 0, 0], "sum_hessian": [10, 5, 5]}]}, "name": "gbtree"},
          "learner_model_param": {"base_score": "5E-1", "num_class": "0", "num_feature": "2", "num_target": "1"},
          "objective": {"name": "reg:squarederror"}}, "version": [1, 7, 4]})";
        const Model m = model_from_file_text(xgboost, "m.json");
        DenseMatrix X(2, 2);
        X << 0, 0, 1, 0;
        CHECK(m.predict(Features(X))[0] == 0.5);
        const std::string text = model_file_text(m);
        CHECK(text.find("\"xgboost_float32\": true") != std::string::npos);
        // Read back through the packed reader of model files: the same arithmetic and bytes.
        const Model back = model_from_file_text(text, "m.kestrel.json");
        CHECK(back.predict(Features(X)) == m.predict(Features(X)));
        CHECK(back.contributions(Features(X)) == m.contributions(Features(X)));
        CHECK(model_file_text(back) == text);
    }

    TEST_CASE("bad model files give one clear error each") {
        const std::string good = trained().to_json().dump();
        const auto path = temp_path("bad.json");
        auto load_error = [&](const std::string& text) -> std::string {
            write(path, text);
            try {
                Model::load(path);
            } catch (const ModelFileError& e) {
                CHECK(e.code() == ExitCode::bad_input);
                return e.what();
            }
            return "no error";
        };
        CHECK(load_error(good.substr(0, good.size() / 2)).find("truncated or not valid JSON") != std::string::npos);
        CHECK(load_error("").find("model file is empty") != std::string::npos);
        CHECK(load_error("[1,2]").find("not a kestrel model") != std::string::npos);

        Json j = Json::parse(good);
        j["version"] = kModelFormatVersion + 1;
        CHECK(load_error(j.dump()).find("format version " + std::to_string(kModelFormatVersion + 1) + " is newer") !=
              std::string::npos);
        j = Json::parse(good);
        j["model"] = "quantum_forest";
        CHECK(load_error(j.dump()).find("unknown model 'quantum_forest'") != std::string::npos);
        j = Json::parse(good);
        j["format"] = "sklearn-pickle";
        CHECK(load_error(j.dump()).find("not a kestrel model") != std::string::npos);
        j = Json::parse(good);
        j["params"]["C"] = -1;
        CHECK(load_error(j.dump()).find("invalid parameters") != std::string::npos);
        j = Json::parse(good);
        j["state"].erase("state_version");
        CHECK(load_error(j.dump()).find("invalid model file") != std::string::npos);
        j = Json::parse(good);
        j["features"]["count"] = 5;
        CHECK_THROWS_AS((write(path, j.dump()), Model::load(path)), ModelFileError);
        j = Json::parse(good);
        j["classes"] = Json({"a"});
        CHECK_THROWS_AS((write(path, j.dump()), Model::load(path)), ModelFileError);
        fs::remove(path);
        CHECK_THROWS_AS(Model::load(temp_path("does_not_exist.json")), Error);
    }

    TEST_CASE("a failed save leaves no file behind") {
        const Model m = trained();
        CHECK_THROWS_AS(m.save("/nonexistent-dir/model.json"), OutputError);
        CHECK_FALSE(fs::exists("/nonexistent-dir/model.json"));
    }

    TEST_CASE("predict-time width checks") {
        const Model m = trained();
        CHECK_THROWS_WITH_AS(m.predict(Features(DenseMatrix(DenseMatrix::Zero(2, 4)))),
                             "data has 4 features but the model was trained on 3", DataError);
        // A sparse file that never mentions the last feature is padded, not rejected.
        SparseMatrix narrow(2, 2);
        narrow.insert(0, 0) = 1.0;
        CHECK(m.predict(Features(narrow)).size() == 2);
    }

    TEST_CASE("a single class is refused by a classifier") {
        Dataset d = test::blobs(10, 2, 2);
        d.y.setZero();
        ModelSpec spec;
        spec.model = "logistic";
        CHECK_THROWS_WITH_AS(Model::train(spec, d, Context{}),
                             "blobs: a classifier needs at least two classes, but every row has class 'c0'", DataError);
    }

    TEST_CASE("choose_task: forced, single-task models, and label shapes") {
        RawLabels words;
        words.text = {"a", "b"};
        words.numeric = {std::nan(""), std::nan("")};
        RawLabels reals;
        reals.text = {"0.5", "1.25"};
        reals.numeric = {0.5, 1.25};
        ModelSpec ridge{"ridge", Params::object(), {}, std::nullopt, {}};
        ModelSpec logistic{"logistic", Params::object(), {}, std::nullopt, {}};
        CHECK(choose_task(ridge, reals) == Task::regression);
        CHECK(choose_task(logistic, words) == Task::classification);
        logistic.task = Task::regression;
        CHECK_THROWS_AS(choose_task(logistic, words), UsageError);
    }
}

}  // namespace unit_pipeline_model_file_test
}  // namespace
