// The forest's model file: trees written straight from the nodes (JsonTextSlots) and
// read back packed (parse_model_json), against the DOM path they replace.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/model.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_forest_file_test {

using namespace kestrel;
using namespace kestrel::tree_test;
namespace fs = std::filesystem;

namespace {

Model train(const std::string& name, const Dataset& d, Params p) {
    ModelSpec spec;
    spec.model = name;
    spec.params = std::move(p);
    Context ctx;
    ctx.seed = 3;
    return Model::train(spec, d, ctx);
}

std::string temp_path(const std::string& name) {
    return (fs::temp_directory_path() / ("kestrel_test_" + name)).string();
}

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::string load_error(const std::string& path, const std::string& text) {
    write(path, text);
    try {
        Model::load(path);
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("forest file: the trees written from the nodes are the DOM's text; loading gives the same model") {
        Dataset gaps = diabetes_train();  // gbdt and forest learn missing_left where a feature has NaN
        DenseMatrix holes(gaps.X.dense_ref());
        for (Index i = 0; i < holes.rows(); i += 7) holes(i, 2) = std::nan("");
        gaps.X = Features(std::move(holes));
        struct Case {
            const char* model;
            const Dataset* data;
            Params params;
            const Dataset* test;
        };
        const Case cases[] = {{"forest", &iris_train(), {{"n_estimators", 5}, {"oob", true}}, &iris_test()},
                              {"forest", &diabetes_train(), {{"n_estimators", 40}}, &diabetes_test()},
                              {"gbdt", &gaps, {{"n_estimators", 5}}, &diabetes_test()},
                              {"forest", &gaps, {{"n_estimators", 5}}, &diabetes_test()}};
        for (const Case& c : cases) {
            CAPTURE(c.model);
            const Model m = train(c.model, *c.data, c.params);
            const std::string dom_text = model_json_text(m.to_json());
            JsonTextSlots slots;
            const Json with_slots = m.to_json(slots);
            CHECK(model_json_text(with_slots, &slots) == dom_text);
            // Handed on in pieces of a megabyte or more as it grows (Model::save's file).
            std::string joined;
            int pieces = 0;
            slots.set_sink([&](std::string_view piece) {
                joined += piece;
                ++pieces;
            });
            joined += model_json_text(with_slots, &slots);
            CHECK(joined == dom_text);
            const int megabytes = static_cast<int>(dom_text.size() >> 20);
            CHECK(pieces <= megabytes);  // each piece a megabyte or more
            if (megabytes >= 2) CHECK(pieces >= 1);

            const auto path = temp_path("forest_file.json");
            m.save(path);
            CHECK(read_whole_file(path) == dom_text);
            const Model back = Model::load(path);  // through parse_model_json
            CHECK(back.to_json() == m.to_json());
            CHECK(back.predict(c.test->X) == m.predict(c.test->X));
            if (m.has_predict_proba()) CHECK(back.predict_proba(c.test->X) == m.predict_proba(c.test->X));
            if (c.model == std::string("forest")) CHECK(back.report("tree") == m.report("tree"));
            // The packed reader holds the node arrays as binary values, not as JSON arrays.
            const std::optional<Json> packed = parse_model_json(dom_text);
            REQUIRE(packed);
            const Json& tree0 = (*packed)["state"]["trees"][0];
            CHECK(packed_array(tree0["threshold"]));
            if (c.model == std::string("gbdt")) {  // the boosted layout
                REQUIRE(packed_array(tree0["leaf_value"]));
                CHECK(packed_array(tree0["leaf_value"])->kind == PackedKind::reals);
                CHECK(packed_array(tree0["cover"])->kind == PackedKind::reals);
                CHECK(packed_array(tree0["split_gain"])->kind == PackedKind::reals);
            } else if (m.task() == Task::classification) {  // the forest's compact layout
                REQUIRE(packed_array(tree0["leaf_class"]));
                CHECK(packed_array(tree0["leaf_class"])->kind == PackedKind::ragged_integers);
                CHECK(packed_array(tree0["leaf_count"])->kind == PackedKind::ragged_reals);
                CHECK(packed_array(tree0["leaf_impurity"])->kind == PackedKind::reals);
                CHECK(packed_array(tree0["leaf_samples"])->kind == PackedKind::integers);
            } else {
                REQUIRE(packed_array(tree0["leaf_value"]));
                CHECK(packed_array(tree0["leaf_value"])->kind == PackedKind::reals);
            }
            CHECK((*packed)["params"] == Json::parse(dom_text)["params"]);
            fs::remove(path);
        }
    }

    TEST_CASE("forest file: files of earlier kestrels load, whatever their layout") {
        // tests/fuzz/corpus/model_json/forest_small.json: a forest file as kestrel 0.1.0
        // wrote it with dump() (one line); dump(1) puts every number on its own line.
        const std::string old =
            read_whole_file(std::string(KESTREL_SOURCE_DIR) + "/tests/fuzz/corpus/model_json/forest_small.json");
        REQUIRE(!old.empty());
        const Model reference = Model::from_json(Json::parse(old), "old");
        const DenseMatrix X = (DenseMatrix(4, 2) << 0, 0, 1, 5, -3, 2, 7, -1).finished();
        for (const std::string& text : {old, Json::parse(old).dump(1)}) {
            const auto path = temp_path("forest_old.json");
            write(path, text);
            const Model m = Model::load(path);
            CHECK(m.to_json() == reference.to_json());
            CHECK(m.predict_proba(Features(X)) == reference.predict_proba(Features(X)));
            fs::remove(path);
        }
    }

    TEST_CASE("forest file: malformed trees give the one-line error naming what is wrong") {
        const Model m = train("forest", iris_train(), {{"n_estimators", 2}, {"max_depth", 3}});
        const std::string text = model_json_text(m.to_json());
        const auto path = temp_path("forest_bad.json");
        CHECK(load_error(path, text.substr(0, text.size() / 2)).find("truncated or not valid JSON (at byte") !=
              std::string::npos);
        auto edited = [&](const std::function<void(Json&)>& edit) {
            Json j = Json::parse(text);
            edit(j["state"]["trees"][1]);
            return load_error(path, model_json_text(j));
        };
        // Packed, then checked: the node index and the array by name.
        CHECK(edited([](Json& t) { t["left"][0] = 0; }).find("tree node 0 is malformed") != std::string::npos);
        CHECK(edited([](Json& t) { t["threshold"].erase(1); }).find("tree array \"threshold\" has the wrong length") !=
              std::string::npos);
        CHECK(edited([](Json& t) {
                  t["leaf_count"][2] = Json::array({1.0, 2.0, 3.0, 4.0});
              }).find("has leaf classes and counts of different lengths") != std::string::npos);
        CHECK(edited([](Json& t) {
                  t["leaf_class"][0] = Json::array({3});
              }).find("has a leaf class out of range or out of order") != std::string::npos);
        CHECK(edited([](Json& t) {
                  t["leaf_count"][0] = Json::array({0});
              }).find("has a leaf count that is not a positive number") != std::string::npos);
        CHECK(edited([](Json& t) { t["feature"][0] = 4294967296LL; }).find("integer 4294967296 is out of range") !=
              std::string::npos);
        CHECK(edited([](Json& t) { t.erase("leaf_samples"); }).find("tree lacks the array \"leaf_samples\"") !=
              std::string::npos);
        CHECK(edited([](Json& t) {
                  t["leaf_impurity"].erase(0);
              }).find("tree array \"leaf_impurity\" has the wrong length") != std::string::npos);
        // Not numbers of the array's kind: read by Json::parse, with its messages as before.
        CHECK(edited([](Json& t) { t["feature"][0] = 1e300; }).find("expected an integer, found 1e+300") !=
              std::string::npos);
        CHECK(edited([](Json& t) { t["leaf_impurity"][0] = "x"; }).find("invalid model file") != std::string::npos);
        const std::string huge = std::string(text).replace(text.find("\"threshold\": [") + 14, 0, "1e999,");
        CHECK(load_error(path, huge).find("not valid JSON") != std::string::npos);
        fs::remove(path);
    }

    TEST_CASE("forest file: version 1 files give the predictions their kestrel wrote, and are saved as version 3") {
        // tests/fixtures/forest-v1 (README there): written before the compact layout.
        const std::string dir = std::string(KESTREL_SOURCE_DIR) + "/tests/fixtures/forest-v1/";
        struct Case {
            const char* model;
            const char* predictions;  // kestrel-predict's CSV: the probabilities, or the values
            const Dataset* test;
        };
        for (const Case& c : {Case{"iris_forest_v1.json", "iris_forest_v1.proba.csv", &iris_test()},
                              Case{"diabetes_forest_v1.json", "diabetes_forest_v1.pred.csv", &diabetes_test()}}) {
            CAPTURE(c.model);
            const Model old = Model::load(dir + c.model);
            const Matrix outputs =
                old.task() == Task::classification ? old.predict_proba(c.test->X) : Matrix(old.predict(c.test->X));
            const Matrix expected = csv_numbers(dir + c.predictions, old.task() == Task::classification ? 1 : 0);
            CHECK(outputs == expected);

            const auto path = temp_path("forest_v1_resaved.json");
            old.save(path);
            const Json state = Json::parse(read_whole_file(path))["state"];
            CHECK(state["state_version"] == 3);
            CHECK(!state["trees"][0].contains("value"));
            const Model back = Model::load(path);
            CHECK(back.predict(c.test->X) == old.predict(c.test->X));
            if (old.has_predict_proba()) CHECK(back.predict_proba(c.test->X) == old.predict_proba(c.test->X));
            CHECK(back.report("tree") == old.report("tree"));
            CHECK(back.to_json() == old.to_json());
            fs::remove(path);
        }
    }

    TEST_CASE("forest file: the compact layout keeps fractional counts, many classes and probabilities exact") {
        // Fractional sample weights (balanced class weights) and a class-count row per leaf of
        // up to 214 classes (diabetes' targets as labels): probabilities divide each count
        // by the leaf weight, which the compact layout no longer stores but sums again.
        const Dataset many = [] {
            Dataset d = diabetes_train();
            std::map<double, double> index;
            for (Index i = 0; i < d.y.size(); ++i) index.emplace(d.y[i], 0.0);
            d.classes.clear();
            for (auto& [value, k] : index) {
                k = static_cast<double>(d.classes.size());
                d.classes.push_back(format_number(value));
            }
            for (Index i = 0; i < d.y.size(); ++i) d.y[i] = index[d.y[i]];
            d.task = Task::classification;
            return d;
        }();
        for (const Dataset* d : {&iris_train(), &many}) {
            const Model m = train("forest", *d, {{"n_estimators", 6}, {"class_weight", "balanced"}, {"max_depth", 6}});
            const auto path = temp_path("forest_compact.json");
            m.save(path);
            const std::string text = read_whole_file(path);
            const Model back = Model::load(path);
            CHECK(back.predict_proba(d->X) == m.predict_proba(d->X));
            CHECK(back.predict(d->X) == m.predict(d->X));
            CHECK(back.report("tree") == m.report("tree"));
            back.save(path);
            CHECK(read_whole_file(path) == text);
            fs::remove(path);
        }
        // Unit weights: whole counts written as integers ("3", not "3.0"), a pure leaf's impurity as 0.
        const Model unit = train("forest", iris_train(), {{"n_estimators", 2}});
        const Json tree0 = unit.to_json()["state"]["trees"][0];
        for (const Json& row : tree0["leaf_count"])
            for (const Json& count : row) CHECK(count.is_number_integer());
        CHECK(std::any_of(tree0["leaf_impurity"].begin(), tree0["leaf_impurity"].end(),
                          [](const Json& x) { return x.is_number_integer() && x == 0; }));
        const std::string text = model_json_text(unit.to_json());
        CHECK(text.find("\"value\"") == std::string::npos);
        CHECK(text.find("\"weight\"") == std::string::npos);
    }

    TEST_CASE("forest file: a state version newer than this kestrel's is refused by name") {
        Json j = train("forest", iris_train(), {{"n_estimators", 2}}).to_json();
        j["state"]["state_version"] = 4;
        const auto path = temp_path("forest_v4.json");
        CHECK(load_error(path, j.dump())
                  .find("state version 4 of model forest is not supported (this kestrel reads versions 1 to 3)") !=
              std::string::npos);
        fs::remove(path);
    }
}

}  // namespace unit_tree_forest_file_test
}  // namespace
