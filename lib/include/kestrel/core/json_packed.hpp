#pragma once
// Reading large model files without a DOM of their node arrays. A forest of 100 trees
// grown on 100000 rows has millions of nodes; nlohmann's DOM holds each number in a
// 16-byte value (each node's value vector in its own allocation), several times the
// nodes' own size, and its parser reads numbers slowly. parse_model_json reads the
// text with a small strict parser (fast_float for numbers) and keeps the arrays of
// tree nodes (members of an object in a "trees" array or under "tree") and feature rows
// (members "rows", "indices", "values" of an object under "support_vectors" or "rows":
// io/features_json.cpp) packed: one binary DOM value of 8 bytes a number, read back through packed_array().
#include <cstdint>
#include <optional>
#include <string_view>

#include "kestrel/core/params.hpp"

namespace kestrel {

// real_rows: rows of one width; ragged_*: rows of any length (sparse feature rows, and
// the class counts of a compact tree's leaves).
enum class PackedKind : std::uint8_t { reals = 1, integers = 2, real_rows = 3, ragged_reals = 4, ragged_integers = 5 };

// A view of a packed array (valid while its Json lives).
struct PackedArray {
    PackedKind kind = PackedKind::reals;
    std::size_t size = 0;   // elements, or rows for the row kinds
    std::size_t width = 0;  // numbers per row (real_rows only)
    const std::uint8_t* data = nullptr;
    const std::uint8_t* offsets = nullptr;  // ragged kinds: size + 1 row starts

    // reals: element i; the row kinds: the i-th number of the rows laid end to end.
    double real(std::size_t i) const;
    std::int64_t integer(std::size_t i) const;  // integers and ragged_integers
    // Ragged kinds: row r is numbers [row_start(r), row_start(r + 1)).
    std::size_t row_start(std::size_t r) const;
};

// The packed array `j` holds; nullopt when `j` is anything else.
std::optional<PackedArray> packed_array(const Json& j);

// Parses a model file's text to the DOM Json::parse gives, except for the packed node
// arrays. nullopt for whatever it does not read (invalid JSON, a node array holding
// anything but numbers of its kind, nesting deeper than 512, a byte order mark): the
// caller then parses with Json::parse, whose DOM and errors are the reference.
std::optional<Json> parse_model_json(std::string_view text);

}  // namespace kestrel
