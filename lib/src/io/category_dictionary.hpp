#pragma once
// One column's categories met in a piece of a CSV file, each with its code: the
// reader looks every categorical cell up here, so lookups must be cheap. Open
// addressing with linear probing over a power-of-two table kept at most half full;
// the hash reads the text 8 bytes at a time (category strings are short). The
// cell's text is compared only when its 64-bit hash matches a slot's.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::detail {

class CategoryDictionary {
public:
    struct Entry {
        std::string text;
        int code;
    };

    // The code of `text`: its code when known, else the next code (size()), added.
    int code(std::string_view text);
    // Adds `text` with the given code unless it is known (a model's list).
    void add(std::string_view text, int code);
    // The code of `text`, or -1 when unknown.
    int find(std::string_view text) const;

    std::size_t size() const { return entries_.size(); }
    const std::vector<Entry>& entries() const { return entries_; }  // in order of addition

private:
    struct Slot {
        std::uint64_t hash = 0;
        int entry = -1;  // index into entries_, -1 = empty
    };
    // The slot holding `text`, or the empty slot where it belongs.
    std::size_t probe(std::string_view text, std::uint64_t hash) const;
    void insert(std::string_view text, std::uint64_t hash, int code);
    void grow();

    std::vector<Slot> slots_;
    std::vector<Entry> entries_;
};

}  // namespace kestrel::detail
