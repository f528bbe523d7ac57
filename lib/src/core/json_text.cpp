#include "kestrel/core/json_text.hpp"

namespace kestrel {
namespace {

bool flat(const Json& j) {
    if (!j.is_array()) return !j.is_object();
    for (const Json& e : j)
        if (e.is_object() || (e.is_array() && !flat(e))) return false;
    return true;
}

void write(const Json& j, int depth, std::string& out) {
    if (flat(j)) {
        out += j.dump();  // scalars, and arrays of scalars, compact
        return;
    }
    const std::string inner(static_cast<std::size_t>(depth + 1), ' ');
    const bool object = j.is_object();
    if (j.empty()) {
        out += object ? "{}" : "[]";
        return;
    }
    out += object ? "{\n" : "[\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out += inner;
        if (object) {
            out += Json(it.key()).dump();
            out += ": ";
        }
        write(it.value(), depth + 1, out);
    }
    out += '\n';
    out.append(static_cast<std::size_t>(depth), ' ');
    out += object ? '}' : ']';
}

}  // namespace

std::string model_json_text(const Json& j) {
    std::string out;
    write(j, 0, out);
    out += '\n';
    return out;
}

}  // namespace kestrel
