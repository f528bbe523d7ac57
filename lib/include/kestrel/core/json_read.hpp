#pragma once
// Integers read back from model files. nlohmann's get<int>() casts whatever number
// it finds: a float such as 1e300 where a node index belongs is undefined behaviour,
// and 4294967296 silently wraps to 0 (a valid index). A model file is untrusted
// input, so its integers go through these: a value that is not an integer of the
// target type throws ModelStateError, which Model::from_json reports as a
// malformed model (ModelFileError). Found by fuzzing (docs/fuzzing.md).
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

template <class T>
T json_integer(const Json& j) {
    static_assert(std::is_integral_v<T> && std::is_signed_v<T>, "json_integer reads signed integers");
    constexpr auto kLo = std::numeric_limits<T>::min();
    constexpr auto kHi = std::numeric_limits<T>::max();
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(kHi))
            throw ModelStateError("integer " + std::to_string(u) + " is out of range");
        return static_cast<T>(u);
    }
    if (j.is_number_integer()) {
        const auto v = j.get<std::int64_t>();
        if (v < static_cast<std::int64_t>(kLo) || v > static_cast<std::int64_t>(kHi))
            throw ModelStateError("integer " + std::to_string(v) + " is out of range");
        return static_cast<T>(v);
    }
    if (j.is_number_float()) {
        // Written as 3.0 by another tool: accepted when it is an integer in range.
        const double d = j.get<double>();
        // hi + 1.0 is exact (a power of two) where hi itself may round up to it.
        if (!(d == std::floor(d) && d >= static_cast<double>(kLo) && d < static_cast<double>(kHi) + 1.0))
            throw ModelStateError("expected an integer, found " + j.dump());
        return static_cast<T>(d);
    }
    throw ModelStateError(std::string("expected an integer, found ") + j.type_name());
}

template <class T>
std::vector<T> json_integers(const Json& j) {
    if (!j.is_array()) throw ModelStateError("expected an array of integers");
    std::vector<T> out;
    out.reserve(j.size());
    for (const auto& x : j) out.push_back(json_integer<T>(x));
    return out;
}

}  // namespace kestrel
