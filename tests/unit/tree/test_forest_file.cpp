// The forest's model file: trees written straight from the nodes (JsonTextSlots) and
// read back packed (parse_model_json), against the DOM path they replace.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/model.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "tree_test_util.hpp"

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

std::string temp_path(const std::string& name) { return (fs::temp_directory_path() / ("kestrel_test_" + name)).string(); }

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

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
        Dataset gaps = diabetes_train();  // gbdt may learn missing_left where a feature has NaN
        DenseMatrix holes = gaps.X.dense_ref();
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
                              {"gbdt", &gaps, {{"n_estimators", 5}}, &diabetes_test()}};
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
            // The packed reader holds the node arrays as binary values, not as JSON arrays.
            const std::optional<Json> packed = parse_model_json(dom_text);
            REQUIRE(packed);
            const Json& tree0 = (*packed)["state"]["trees"][0];
            CHECK(packed_array(tree0["threshold"]));
            REQUIRE(packed_array(tree0["value"]));
            CHECK(packed_array(tree0["value"])->width == (m.task() == Task::classification && c.model == std::string("forest") ? 3u : 1u));
            CHECK((*packed)["params"] == Json::parse(dom_text)["params"]);
            fs::remove(path);
        }
    }

    TEST_CASE("forest file: files of earlier kestrels load, whatever their layout") {
        // tests/fuzz/corpus/model_json/forest_small.json: a forest file as kestrel 0.1.0
        // wrote it with dump() (one line); dump(1) puts every number on its own line.
        const std::string old = read_whole_file(std::string(KESTREL_SOURCE_DIR) + "/tests/fuzz/corpus/model_json/forest_small.json");
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
        CHECK(edited([](Json& t) { t["value"][2] = Json::array({1.0}); })
                  .find("tree node 2 has a value of the wrong length") != std::string::npos);
        CHECK(edited([](Json& t) { t["feature"][0] = 4294967296LL; }).find("integer 4294967296 is out of range") !=
              std::string::npos);
        CHECK(edited([](Json& t) { t.erase("weight"); }).find("tree lacks the array \"weight\"") != std::string::npos);
        // Not numbers of the array's kind: read by Json::parse, with its messages as before.
        CHECK(edited([](Json& t) { t["feature"][0] = 1e300; }).find("expected an integer, found 1e+300") !=
              std::string::npos);
        CHECK(edited([](Json& t) { t["impurity"][0] = "x"; }).find("invalid model file") != std::string::npos);
        const std::string huge = std::string(text).replace(text.find("\"threshold\": [") + 14, 0, "1e999,");
        CHECK(load_error(path, huge).find("not valid JSON") != std::string::npos);
        fs::remove(path);
    }
}
