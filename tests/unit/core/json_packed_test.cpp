// parse_model_json reads what Json::parse reads, to the same DOM outside tree node
// arrays, and gives up (nullopt) on what it does not read.
#include <doctest/doctest.h>

#include "kestrel/core/json_packed.hpp"

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
            "{\"trees\": [{\"feature\": [0, -1, -1], \"threshold\": [2.5, 0.0, 0], \"value\": [[1.0, 2.0], [3, 4], [5, 6]],"
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
        for (const char* text :
             {"", "{", "[1,]", "{\"a\" 1}", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "tru", "[nul]", "\"a\tb\"",
              "[1] x", "{\"a\":1,}", "[1e400]", "\xef\xbb\xbf{}", "\"\\x\"", "\"\xff\"",
              "{\"trees\": [{\"feature\": [1.5]}]}", "{\"trees\": [{\"feature\": [1e300]}]}",
              "{\"trees\": [{\"feature\": [9223372036854775808]}]}", "{\"trees\": [{\"threshold\": [\"x\"]}]}",
              "{\"trees\": [{\"value\": [[1], [2, 3]]}]}", "{\"trees\": [{\"value\": [[], []]}]}",
              "{\"tree\": {\"value\": [1]}}"}) {
            CAPTURE(text);
            CHECK_FALSE(parse_model_json(text));
        }
        CHECK_FALSE(parse_model_json(std::string(600, '[') + std::string(600, ']')));  // deeper than 512
        CHECK(parse_model_json(std::string(500, '[') + std::string(500, ']')));
    }
}
