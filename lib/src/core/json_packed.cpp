#include "kestrel/core/json_packed.hpp"

#include <fast_float/fast_float.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace kestrel {
namespace {

constexpr Json::binary_t::subtype_type kPackedSubtype = 0x6b70616b00;  // "kpak" + the kind

using Bytes = Json::binary_t::container_type;

void append_bytes(Bytes& b, const void* p, std::size_t n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    b.insert(b.end(), c, c + n);
}

// The kind of array a tree object's member holds (tree_json.cpp writes these, in either
// layout); nullopt: not a node array.
std::optional<PackedKind> node_array_kind(std::string_view key) {
    if (key == "feature" || key == "left" || key == "right" || key == "samples" || key == "missing_left" ||
        key == "leaf_samples")
        return PackedKind::integers;
    if (key == "threshold" || key == "impurity" || key == "weight" || key == "leaf_impurity" || key == "leaf_value" ||
        key == "cover" || key == "split_gain")
        return PackedKind::reals;
    if (key == "value") return PackedKind::real_rows;
    if (key == "leaf_class") return PackedKind::ragged_integers;
    if (key == "leaf_count") return PackedKind::ragged_reals;
    return std::nullopt;
}

// The kind of array a "support_vectors" object's member holds (io/features_json.cpp).
std::optional<PackedKind> feature_rows_kind(std::string_view key) {
    if (key == "rows") return PackedKind::real_rows;
    if (key == "indices") return PackedKind::ragged_integers;
    if (key == "values") return PackedKind::ragged_reals;
    return std::nullopt;
}

// What the value being read is, for packing.
enum class JsonPlace { plain, trees_array, tree_object, feature_rows };

// A strict reader of RFC 8259 JSON producing what Json::parse produces. It gives up
// (returns false) on anything unusual; it never reads past the text.
class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    bool document(Json& out) {
        skip_space();
        if (!value(out, JsonPlace::plain, 0)) return false;
        skip_space();
        return p_ == s_.size();
    }

private:
    static constexpr int kMaxDepth = 512;

    bool at_end() const { return p_ >= s_.size(); }
    char peek() const { return s_[p_]; }  // only when !at_end()

    void skip_space() {
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t')) ++p_;
    }

    bool eat(char c) {
        skip_space();
        if (at_end() || peek() != c) return false;
        ++p_;
        return true;
    }

    bool literal(std::string_view word) {
        if (s_.substr(p_, word.size()) != word) return false;
        p_ += word.size();
        return true;
    }

    bool value(Json& out, JsonPlace ctx, int depth) {
        skip_space();
        if (at_end() || depth > kMaxDepth) return false;
        switch (peek()) {
            case '{':
                return object(out, ctx, depth);
            case '[':
                return array(out, ctx == JsonPlace::trees_array ? JsonPlace::tree_object : JsonPlace::plain, depth);
            case '"': {
                std::string str;
                if (!string(str)) return false;
                out = std::move(str);
                return true;
            }
            case 't':
                out = true;
                return literal("true");
            case 'f':
                out = false;
                return literal("false");
            case 'n':
                out = nullptr;
                return literal("null");
            default:
                return number(out);
        }
    }

    // At an opening bracket: the elements up to `close`, separated by ',' (none is fine).
    template <class Element>
    bool list(char close, Element element) {
        ++p_;  // the opening bracket
        skip_space();
        if (!at_end() && peek() == close) {
            ++p_;
            return true;
        }
        for (;;) {
            skip_space();
            if (!element()) return false;
            skip_space();
            if (at_end()) return false;
            const char c = s_[p_++];
            if (c == close) return true;
            if (c != ',') return false;
        }
    }

    bool object(Json& out, JsonPlace ctx, int depth) {
        out = Json::object();
        return list('}', [&] {
            std::string key;
            if (at_end() || peek() != '"' || !string(key) || !eat(':')) return false;
            Json& member = out[key];  // a repeated key: the last one wins, as in Json::parse
            const std::optional<PackedKind> kind = ctx == JsonPlace::tree_object    ? node_array_kind(key)
                                                   : ctx == JsonPlace::feature_rows ? feature_rows_kind(key)
                                                                                  : std::nullopt;
            skip_space();
            if (kind && !at_end() && peek() == '[') return packed(member, *kind);
            const JsonPlace inner = key == "trees"                              ? JsonPlace::trees_array
                                  : key == "tree"                             ? JsonPlace::tree_object
                                  : key == "support_vectors" || key == "rows" ? JsonPlace::feature_rows
                                                                              : JsonPlace::plain;
            return value(member, inner, depth + 1);
        });
    }

    bool array(Json& out, JsonPlace element, int depth) {
        out = Json::array();
        return list(']', [&] {
            out.push_back(Json());
            return value(out.back(), element, depth + 1);
        });
    }

    bool string(std::string& out) {
        const std::size_t begin = p_;  // at '"'
        std::size_t i = p_ + 1;
        bool simple = true;
        for (; i < s_.size() && s_[i] != '"'; ++i) {
            const auto c = static_cast<unsigned char>(s_[i]);
            if (c < 0x20) return false;
            if (c == '\\') {
                simple = false;
                ++i;  // the escaped character, whatever it is ('"' included)
            } else if (c >= 0x80) {
                simple = false;
            }
        }
        if (i >= s_.size()) return false;
        p_ = i + 1;
        if (simple) {
            out.assign(s_.data() + begin + 1, i - begin - 1);
            return true;
        }
        // Escapes and UTF-8 (validated) as Json::parse reads them: rare, and short.
        try {
            out = Json::parse(s_.substr(begin, p_ - begin)).get<std::string>();
            return true;
        } catch (const Json::exception&) {
            return false;
        }
    }

    // One number token: [-](0|[1-9][0-9]*)[.[0-9]+][(e|E)[+-][0-9]+].
    bool token(std::size_t& end, bool& integral) const {
        std::size_t i = p_;
        auto digit = [&](std::size_t k) { return k < s_.size() && s_[k] >= '0' && s_[k] <= '9'; };
        if (i < s_.size() && s_[i] == '-') ++i;
        if (!digit(i)) return false;
        if (s_[i] == '0')
            ++i;
        else
            while (digit(i)) ++i;
        integral = true;
        if (i < s_.size() && s_[i] == '.') {
            ++i;
            if (!digit(i)) return false;
            while (digit(i)) ++i;
            integral = false;
        }
        if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
            ++i;
            if (i < s_.size() && (s_[i] == '+' || s_[i] == '-')) ++i;
            if (!digit(i)) return false;
            while (digit(i)) ++i;
            integral = false;
        }
        end = i;
        return true;
    }

    bool real_at(std::size_t end, double& x) const {
        const char* first = s_.data() + p_;
        const auto r = fast_float::from_chars(first, s_.data() + end, x);
        // Past double's range: Json::parse fails (out_of_range); let it say so.
        return r.ptr == s_.data() + end && std::isfinite(x);
    }

    bool number(Json& out) {
        std::size_t end = 0;
        bool integral = false;
        if (!token(end, integral)) return false;
        const char* first = s_.data() + p_;
        const char* last = s_.data() + end;
        // As Json::parse: unsigned when not negative, else signed; a float when too large.
        const auto whole = [&](auto v) {
            const auto r = std::from_chars(first, last, v);
            if (r.ec != std::errc() || r.ptr != last) return false;
            out = v;
            p_ = end;
            return true;
        };
        if (integral && (*first == '-' ? whole(std::int64_t{0}) : whole(std::uint64_t{0}))) return true;
        double x = 0;
        if (!real_at(end, x)) return false;
        out = x;
        p_ = end;
        return true;
    }

    // A packed array of `kind`: numbers only (integers in range of int64 for the integer
    // kinds; rows of one width for real_rows, of any length for the ragged kinds), else false.
    bool packed(Json& out, PackedKind kind) {
        Bytes bytes;
        std::size_t count = 0;
        std::uint64_t width = 0;
        std::vector<std::uint64_t> starts{0};  // ragged kinds
        const bool ragged = kind == PackedKind::ragged_reals || kind == PackedKind::ragged_integers;
        if (kind == PackedKind::real_rows) append_bytes(bytes, &width, sizeof width);
        const bool ok = list(']', [&] {
            if (kind == PackedKind::real_rows || ragged) {
                std::uint64_t n = 0;
                if (at_end() || peek() != '[') return false;
                const bool integers = kind == PackedKind::ragged_integers;
                if (!list(']', [&] { return (integers ? integer(bytes) : real(bytes)) && ++n > 0; })) return false;
                if (ragged)
                    starts.push_back(starts.back() + n);
                else if (count == 0)
                    width = n;
                else if (n != width)
                    return false;
            } else if (kind == PackedKind::reals) {
                if (!real(bytes)) return false;
            } else if (!integer(bytes)) {
                return false;
            }
            ++count;
            return true;
        });
        if (!ok) return false;
        // Rows of no numbers would leave no trace of their count: not a node array.
        if (kind == PackedKind::real_rows && count > 0 && width == 0) return false;
        if (kind == PackedKind::real_rows) std::memcpy(bytes.data(), &width, sizeof width);
        if (ragged) {
            // [rows][row starts...][numbers...]
            Bytes head;
            const std::uint64_t rows = count;
            head.reserve(sizeof rows + starts.size() * sizeof(std::uint64_t) + bytes.size());
            append_bytes(head, &rows, sizeof rows);
            append_bytes(head, starts.data(), starts.size() * sizeof(std::uint64_t));
            head.insert(head.end(), bytes.begin(), bytes.end());
            bytes.swap(head);
        }
        bytes.shrink_to_fit();
        out = Json::binary(std::move(bytes), kPackedSubtype + static_cast<std::uint64_t>(kind));
        return true;
    }

    bool integer(Bytes& bytes) {
        std::size_t end = 0;
        bool integral = false;
        if (!token(end, integral) || !integral) return false;
        std::int64_t v = 0;
        const auto r = std::from_chars(s_.data() + p_, s_.data() + end, v);
        if (r.ec != std::errc() || r.ptr != s_.data() + end) return false;
        append_bytes(bytes, &v, sizeof v);
        p_ = end;
        return true;
    }

    bool real(Bytes& bytes) {
        std::size_t end = 0;
        bool integral = false;
        double x = 0;
        if (!token(end, integral) || !real_at(end, x)) return false;
        append_bytes(bytes, &x, sizeof x);
        p_ = end;
        return true;
    }

    std::string_view s_;
    std::size_t p_ = 0;
};

}  // namespace

double PackedArray::real(std::size_t i) const {
    double x = 0;
    std::memcpy(&x, data + i * sizeof x, sizeof x);
    return x;
}

std::int64_t PackedArray::integer(std::size_t i) const {
    std::int64_t v = 0;
    std::memcpy(&v, data + i * sizeof v, sizeof v);
    return v;
}

std::size_t PackedArray::row_start(std::size_t r) const {
    std::uint64_t v = 0;
    std::memcpy(&v, offsets + r * sizeof v, sizeof v);
    return static_cast<std::size_t>(v);
}

std::optional<PackedArray> packed_array(const Json& j) {
    if (!j.is_binary()) return std::nullopt;
    const Json::binary_t& b = j.get_binary();
    if (!b.has_subtype() || b.subtype() < kPackedSubtype + 1 || b.subtype() > kPackedSubtype + 5) return std::nullopt;
    PackedArray a;
    a.kind = static_cast<PackedKind>(b.subtype() - kPackedSubtype);
    a.data = b.data();
    std::size_t bytes = b.size();
    if (a.kind == PackedKind::ragged_reals || a.kind == PackedKind::ragged_integers) {
        std::uint64_t rows = 0;
        if (bytes < sizeof rows) return std::nullopt;
        std::memcpy(&rows, a.data, sizeof rows);
        const std::size_t head = sizeof rows + (static_cast<std::size_t>(rows) + 1) * sizeof(std::uint64_t);
        if (rows > bytes / sizeof(std::uint64_t) || bytes < head) return std::nullopt;
        a.size = static_cast<std::size_t>(rows);
        a.offsets = a.data + sizeof rows;
        a.data += head;
        bytes -= head;
        if (bytes % 8 != 0 || a.row_start(0) != 0 || a.row_start(a.size) != bytes / 8) return std::nullopt;
        return a;
    }
    if (a.kind == PackedKind::real_rows) {
        std::uint64_t width = 0;
        if (bytes < sizeof width) return std::nullopt;
        std::memcpy(&width, a.data, sizeof width);
        a.data += sizeof width;
        bytes -= sizeof width;
        a.width = static_cast<std::size_t>(width);
        const std::size_t numbers = bytes / sizeof(double);
        if (bytes % sizeof(double) != 0 || (a.width == 0 ? numbers != 0 : numbers % a.width != 0)) return std::nullopt;
        // The reader packs rows of no numbers only as an empty array.
        a.size = a.width == 0 ? 0 : numbers / a.width;
        return a;
    }
    if (bytes % 8 != 0) return std::nullopt;
    a.size = bytes / 8;
    return a;
}

std::optional<Json> parse_model_json(std::string_view text) {
    Json out;
    if (!Reader(text).document(out)) return std::nullopt;
    return out;
}

}  // namespace kestrel
