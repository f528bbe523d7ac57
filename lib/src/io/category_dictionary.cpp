#include "category_dictionary.hpp"

#include <cstring>

namespace kestrel::detail {
namespace {

// A multiply-xorshift hash over 8-byte words (the finaliser is MurmurHash3's fmix64).
std::uint64_t text_hash(std::string_view s) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
    const char* p = s.data();
    std::size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    if (n > 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

}  // namespace

std::size_t CategoryDictionary::probe(std::string_view text, std::uint64_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (s.entry < 0 || (s.hash == hash && entries_[static_cast<std::size_t>(s.entry)].text == text)) return i;
    }
}

void CategoryDictionary::grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.entry < 0) continue;
        std::size_t i = s.hash & mask;
        while (slots_[i].entry >= 0) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

void CategoryDictionary::insert(std::string_view text, std::uint64_t hash, int code) {
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    const std::size_t i = probe(text, hash);
    slots_[i] = Slot{hash, static_cast<int>(entries_.size())};
    entries_.push_back(Entry{std::string(text), code});
}

int CategoryDictionary::code(std::string_view text) {
    const std::uint64_t h = text_hash(text);
    if (!slots_.empty()) {
        const Slot& s = slots_[probe(text, h)];
        if (s.entry >= 0) return entries_[static_cast<std::size_t>(s.entry)].code;
    }
    const int next = static_cast<int>(entries_.size());
    insert(text, h, next);
    return next;
}

void CategoryDictionary::add(std::string_view text, int code) {
    const std::uint64_t h = text_hash(text);
    if (!slots_.empty() && slots_[probe(text, h)].entry >= 0) return;
    insert(text, h, code);
}

int CategoryDictionary::find(std::string_view text) const {
    if (slots_.empty()) return -1;
    const Slot& s = slots_[probe(text, text_hash(text))];
    return s.entry < 0 ? -1 : entries_[static_cast<std::size_t>(s.entry)].code;
}

}  // namespace kestrel::detail
