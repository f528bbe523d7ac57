#pragma once
// One column's categories met in a piece of a CSV file, each with its code: the
// reader looks every categorical cell up here, so lookups must be cheap. Open
// addressing with linear probing over a power-of-two table kept at most a quarter full
// (most lookups read one slot; the table lives only while its chunk is parsed).
// A text is keyed by its length and two 8-byte words that together cover every byte
// of a text up to 16 bytes (category strings are short), read with a few unaligned
// loads and no copy: such a text is equal to an entry when its key is, so the lookup
// of a short cell compares three words and never the bytes. Longer texts compare
// their bytes when the key matches. The whole lookup is inline: it runs once per cell.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::detail {

// The key of a text: `head` and `tail` read its first and last bytes (overlapping when
// shorter than 16 bytes, so that with the size they determine a text of up to 16
// bytes), `hash` all of its bytes.
struct CategoryKey {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    std::uint64_t hash = 0;
    std::uint64_t size = 0;

    static constexpr std::uint64_t kWhole = 16;  // texts up to this size are their key

    explicit CategoryKey(std::string_view text) : size(text.size()) {
        const char* p = text.data();
        const std::size_t n = text.size();
        if (n >= 8) {
            head = word64(p);
            tail = word64(p + n - 8);
        } else if (n >= 4) {
            head = word32(p) | (word32(p + n - 4) << 32);
        } else if (n > 0) {
            head = std::uint64_t{static_cast<unsigned char>(p[0])} |
                   (std::uint64_t{static_cast<unsigned char>(p[n >> 1])} << 8) |
                   (std::uint64_t{static_cast<unsigned char>(p[n - 1])} << 16);
        }
        std::uint64_t h = (head ^ 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;
        for (std::size_t i = 8; i + 8 < n; i += 8) h = (h ^ (h >> 32) ^ word64(p + i)) * 0xff51afd7ed558ccdULL;
        h = (h ^ (h >> 32) ^ tail ^ (size << 56)) * 0xc4ceb9fe1a85ec53ULL;
        hash = h ^ (h >> 29);
    }

private:
    static std::uint64_t word64(const char* p) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        return w;
    }
    static std::uint64_t word32(const char* p) {
        std::uint32_t w;
        std::memcpy(&w, p, 4);
        return w;
    }
};

class CategoryDictionary {
public:
    struct Entry {
        std::string text;
        int code;
    };

    // The code of `text`: its code when known, else the next code (size()), added.
    int code(std::string_view text) {
        const CategoryKey key(text);
        if (slots_.empty()) reindex();  // the first text, or the first since release_index()
        const Slot& s = slots_[probe(text, key)];
        if (s.entry >= 0) return s.code;
        const int next = static_cast<int>(entries_.size());
        insert(text, key, next);
        return next;
    }
    // Adds `text` with the given code unless it is known (a model's list).
    void add(std::string_view text, int code);
    // The code of `text`, or -1 when unknown.
    int find(std::string_view text) const;

    std::size_t size() const { return entries_.size(); }
    const std::vector<Entry>& entries() const { return entries_; }  // in order of addition
    // Frees the lookup table and keeps the entries, which is all the merge of the chunks'
    // dictionaries reads: a parsed chunk holds no more than its texts. The next code()
    // or add() builds the table again.
    void release_index() { std::vector<Slot>().swap(slots_); }

private:
    // An entry's key words and code beside its index, so that a lookup reads one slot.
    struct Slot {
        std::uint64_t head = 0;
        std::uint64_t tail = 0;
        std::uint64_t size = 0;
        int entry = -1;  // index into entries_, -1 = empty
        int code = 0;
    };

    // The slot holding `text`, or the empty slot where it belongs.
    std::size_t probe(std::string_view text, const CategoryKey& key) const {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = key.hash & mask;; i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (s.entry < 0) return i;
            if (s.head == key.head && s.tail == key.tail && s.size == key.size &&
                (key.size <= CategoryKey::kWhole || entries_[static_cast<std::size_t>(s.entry)].text == text))
                return i;
        }
    }
    void insert(std::string_view text, const CategoryKey& key, int code);
    // A new table (a power of two slots, at least 16 and more than 4 times the entries)
    // with every entry placed in it.
    void reindex();

    std::vector<Slot> slots_;
    std::vector<Entry> entries_;
};

}  // namespace kestrel::detail
