#pragma once
// A model's JSON as text: objects indented one space per level, as dump(1) writes them,
// but an array of numbers (or of such arrays) on one line. A forest's node arrays would
// otherwise take one line per number: several times the bytes to write, read and parse.
//
// Parts too large to hold as a DOM (a forest's millions of tree nodes: a DOM keeps each
// number in 16 bytes plus its array's overhead) are written straight to the text: the
// DOM holds a placeholder from JsonTextSlots::add, and model_json_text calls the slot's
// writer there. The text is the same as for the DOM the writer stands for.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kestrel/core/params.hpp"

namespace kestrel {

class JsonTextSlots {
public:
    // Appends the value's text; `depth` is the nesting level of the value (its closing
    // bracket is indented by `depth` spaces, its members by depth + 1).
    using Writer = std::function<void(std::string& out, int depth)>;
    // The placeholder to put in the DOM where the writer's value belongs.
    Json add(Writer writer);
    // The writer of a placeholder of these slots; nullptr for any other value.
    const Writer* find(const Json& j) const;

    // Where the text goes as it grows: writers call flush(out) between items (trees), and
    // a sink set here takes `out` and empties it once it holds a megabyte or more.
    void set_sink(std::function<void(std::string_view)> sink) { sink_ = std::move(sink); }
    void flush(std::string& out) const;

private:
    std::vector<Writer> writers_;
    std::function<void(std::string_view)> sink_;
};

std::string model_json_text(const Json& j, const JsonTextSlots* slots = nullptr);

// Numbers exactly as Json::dump() writes them (a double always with a '.' or an
// exponent: 3.0, 1e-05). `x` must be finite.
void append_json_number(std::string& out, double x);
void append_json_number(std::string& out, std::int64_t x);
// Indentation of model_json_text: a newline and `depth` spaces.
void append_json_newline(std::string& out, int depth);

}  // namespace kestrel
