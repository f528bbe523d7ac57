#include "kestrel/core/json_text.hpp"

#include <charconv>
#include <cstring>

namespace kestrel {
namespace {

// Marks a slot placeholder: a binary value (never produced by parsing JSON text).
constexpr Json::binary_t::subtype_type kSlotSubtype = 0x6b736c6f74;  // "kslot"

bool flat(const Json& j) {
    if (!j.is_array()) return !j.is_object();
    for (const Json& e : j)
        if (e.is_object() || (e.is_array() && !flat(e))) return false;
    return true;
}

void write(const Json& j, int depth, std::string& out, const JsonTextSlots* slots) {
    if (slots && j.is_binary()) {
        if (const JsonTextSlots::Writer* w = slots->find(j)) {
            (*w)(out, depth);
            return;
        }
    }
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
        write(it.value(), depth + 1, out, slots);
    }
    out += '\n';
    out.append(static_cast<std::size_t>(depth), ' ');
    out += object ? '}' : ']';
}

}  // namespace

Json JsonTextSlots::add(Writer writer) {
    const std::uint64_t index = writers_.size();
    writers_.push_back(std::move(writer));
    Json::binary_t::container_type bytes(sizeof index);
    std::memcpy(bytes.data(), &index, sizeof index);
    return Json::binary(std::move(bytes), kSlotSubtype);
}

const JsonTextSlots::Writer* JsonTextSlots::find(const Json& j) const {
    if (!j.is_binary()) return nullptr;
    const Json::binary_t& b = j.get_binary();
    if (!b.has_subtype() || b.subtype() != kSlotSubtype || b.size() != sizeof(std::uint64_t)) return nullptr;
    std::uint64_t index = 0;
    std::memcpy(&index, b.data(), sizeof index);
    return index < writers_.size() ? &writers_[static_cast<std::size_t>(index)] : nullptr;
}

void JsonTextSlots::flush(std::string& out) const {
    if (sink_ && out.size() >= (std::size_t{1} << 20)) {
        sink_(out);
        out.clear();
    }
}

std::string model_json_text(const Json& j, const JsonTextSlots* slots) {
    std::string out;
    write(j, 0, out, slots);
    out += '\n';
    return out;
}

void append_json_number(std::string& out, double x) {
    char buf[64];
    // The serializer of Json::dump() itself, so that the text is the DOM's to the byte.
    char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, end);
}

void append_json_number(std::string& out, std::int64_t x) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
}

void append_json_newline(std::string& out, int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(depth), ' ');
}

}  // namespace kestrel
