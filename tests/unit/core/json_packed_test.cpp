// parse_model_json reads what Json::parse reads, to the same DOM outside tree node
// arrays, and gives up (nullopt) on what it does not read.
#include "kestrel/core/json_packed.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/io/features_json.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_json_packed_test {

using namespace kestrel;

TEST_SUITE("core.json_packed") {
    TEST_CASE("parse_model_json: the DOM of Json::parse, number types and strings included") {
        for (const char* text :
             {"{}", "[]", " [1, -2, 3.5, -0.0, 1E3, 2e-5, 18446744073709551615, -9223372036854775808, 1e20]\n",
              "{\"a\": {\"b\": [true, false, null, \"x\"]}, \"a\": 7}", "\"caf\\u00e9 \\\"q\\\" \xc3\xa9\"",
              "{\"tree\": {\"name\": \"x\", \"value\": 3}, \"trees\": [1, {\"feature\": \"f\"}]}",
              "123456789012345678901234567890", "{\"k\":[[1,2],[3]]}"}) {
            CAPTURE(text);
            const std::optional<Json> j = parse_model_json(text);
            REQUIRE(j);
            CHECK(*j == Json::parse(text));
            CHECK(j->dump() == Json::parse(text).dump());
        }
    }

    TEST_CASE("parse_model_json: node arrays of trees are packed") {
        const std::optional<Json> j = parse_model_json(
            "{\"trees\": [{\"feature\": [0, -1, -1], \"threshold\": [2.5, 0.0, 0], \"value\": [[1.0, 2.0], [3, 4], [5, "
            "6]],"
            " \"other\": [1, 2]}], \"tree\": {\"left\": []}}");
        REQUIRE(j);
        const Json& t = (*j)["trees"][0];
        const auto feature = packed_array(t["feature"]), threshold = packed_array(t["threshold"]),
                   value = packed_array(t["value"]), left = packed_array((*j)["tree"]["left"]);
        REQUIRE(feature);
        REQUIRE(threshold);
        REQUIRE(value);
        REQUIRE(left);
        CHECK(feature->kind == PackedKind::integers);
        CHECK(feature->size == 3);
        CHECK(feature->integer(1) == -1);
        CHECK(threshold->kind == PackedKind::reals);
        CHECK(threshold->real(0) == 2.5);
        CHECK(threshold->real(2) == 0.0);
        CHECK(value->kind == PackedKind::real_rows);
        CHECK(value->size == 3);
        CHECK(value->width == 2);
        CHECK(value->real(5) == 6.0);
        CHECK(left->size == 0);
        CHECK(t["other"] == Json({1, 2}));  // not a node array
        CHECK_FALSE(packed_array(Json({1, 2})));
    }

    TEST_CASE("parse_model_json: gives up on invalid JSON and on node arrays it does not pack") {
        for (const char* text : {"",
                                 "{",
                                 "[1,]",
                                 "{\"a\" 1}",
                                 "[01]",
                                 "[1.]",
                                 "[.5]",
                                 "[-]",
                                 "[1e]",
                                 "tru",
                                 "[nul]",
                                 "\"a\tb\"",
                                 "[1] x",
                                 "{\"a\":1,}",
                                 "[1e400]",
                                 "\xef\xbb\xbf{}",
                                 "\"\\x\"",
                                 "\"\xff\"",
                                 "{\"trees\": [{\"feature\": [1.5]}]}",
                                 "{\"trees\": [{\"feature\": [1e300]}]}",
                                 "{\"trees\": [{\"feature\": [9223372036854775808]}]}",
                                 "{\"trees\": [{\"threshold\": [\"x\"]}]}",
                                 "{\"trees\": [{\"value\": [[1], [2, 3]]}]}",
                                 "{\"trees\": [{\"value\": [[], []]}]}",
                                 "{\"tree\": {\"value\": [1]}}"}) {
            CAPTURE(text);
            CHECK_FALSE(parse_model_json(text));
        }
        CHECK_FALSE(parse_model_json(std::string(600, '[') + std::string(600, ']')));  // deeper than 512
        CHECK(parse_model_json(std::string(500, '[') + std::string(500, ']')));
    }

    TEST_CASE("features_to_json: the text slots write the DOM's bytes") {
        SparseMatrix sp(4, 5);
        sp.insert(0, 1) = 1.5;
        sp.insert(0, 4) = -2.0;
        sp.insert(2, 0) = 1.0 / 3.0;
        sp.insert(3, 3) = -1e-300;
        sp.makeCompressed();
        DenseMatrix dn(2, 3);
        dn << 1, 2, 3, -4.5, 0, 6e-3;
        DenseMatrix nan = dn;
        nan(1, 1) = std::nan("");
        for (const Features& X : {Features(sp), Features(dn), Features(DenseMatrix(0, 3)), Features(DenseMatrix(2, 0)),
                                  Features(SparseMatrix(2, 4)), Features(nan)}) {
            JsonTextSlots slots;
            const Json with_slots = {{"state", {{"support_vectors", features_to_json(X, slots)}, {"n", 1}}}};
            const Json dom = {{"state", {{"support_vectors", features_to_json(X)}, {"n", 1}}}};
            CHECK(model_json_text(with_slots, &slots) == model_json_text(dom));
        }
    }

    TEST_CASE("parse_model_json: feature rows are packed and read back as the DOM reads them") {
        SparseMatrix sp(3, 5);
        sp.insert(0, 1) = 1.5;
        sp.insert(0, 4) = -2.0;
        sp.insert(2, 0) = 3.25;
        sp.makeCompressed();
        DenseMatrix dn(2, 3);
        dn << 1, 2, 3, -4.5, 0, 6e-3;
        for (const Features& X : {Features(sp), Features(dn), Features(DenseMatrix(0, 3))}) {
            const Json doc = {
                {"state", {{"support_vectors", features_to_json(X)}, {"knn", {{"rows", features_to_json(X)}}}}}};
            const std::optional<Json> j = parse_model_json(doc.dump());
            REQUIRE(j);
            for (const Json* rows : {&(*j)["state"]["support_vectors"], &(*j)["state"]["knn"]["rows"]}) {
                if (X.is_sparse()) {
                    const auto idx = packed_array((*rows)["indices"]), val = packed_array((*rows)["values"]);
                    REQUIRE(idx);
                    REQUIRE(val);
                    CHECK(idx->kind == PackedKind::ragged_integers);
                    CHECK(val->kind == PackedKind::ragged_reals);
                    CHECK(idx->size == 3);
                    CHECK(idx->row_start(1) == 2);
                    CHECK(idx->row_start(2) == 2);  // an empty row
                    CHECK(idx->integer(1) == 4);
                    CHECK(val->real(2) == 3.25);
                } else {
                    const auto r = packed_array((*rows)["rows"]);
                    REQUIRE(r);
                    CHECK(r->kind == PackedKind::real_rows);
                }
                const Features back = features_from_json(*rows, 5 - (X.is_sparse() ? 0 : 2));
                CHECK(back.to_dense() == X.to_dense());
                CHECK(back.is_sparse() == X.is_sparse());
            }
        }
        // The same errors as the DOM path: a wrong width, an index out of range or not increasing.
        auto packed_rows = [](const char* text) { return (*parse_model_json(text))["support_vectors"]; };
        CHECK_THROWS_WITH(
            features_from_json(packed_rows(R"({"support_vectors":{"format":"dense","rows":[[1,2]]}})"), 3),
            "feature row with the wrong length");
        CHECK_THROWS_WITH(
            features_from_json(packed_rows(R"({"support_vectors":{"format":"sparse","indices":[[3]],"values":[[1]]}})"),
                               3),
            "feature row feature index out of range");
        CHECK_THROWS_WITH(
            features_from_json(
                packed_rows(R"({"support_vectors":{"format":"sparse","indices":[[1,1]],"values":[[1,2]]}})"), 3),
            "feature row feature indices must increase");
        CHECK_THROWS_WITH(
            features_from_json(
                packed_rows(R"({"support_vectors":{"format":"sparse","indices":[[1]],"values":[[1,2]]}})"), 3),
            "feature row indices and values differ in length");
        // Not packed (whole document left to Json::parse): a non-integer index.
        CHECK_FALSE(parse_model_json(R"({"support_vectors":{"format":"sparse","indices":[[1.5]],"values":[[1]]}})"));
    }
}

}  // namespace unit_core_json_packed_test
}  // namespace
