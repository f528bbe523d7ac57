#include "category_dictionary.hpp"

namespace kestrel::detail {

void CategoryDictionary::reindex() {
    std::size_t n = 16;
    while (n < 4 * (entries_.size() + 1)) n *= 2;
    slots_.assign(n, Slot{});
    const std::size_t mask = n - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
        const CategoryKey key(entries_[e].text);
        std::size_t i = key.hash & mask;
        while (slots_[i].entry >= 0) i = (i + 1) & mask;
        slots_[i] = Slot{key.head, key.tail, key.size, static_cast<int>(e), entries_[e].code};
    }
}

void CategoryDictionary::insert(std::string_view text, const CategoryKey& key, int code) {
    if (4 * (entries_.size() + 1) > slots_.size()) reindex();
    const std::size_t i = probe(text, key);
    slots_[i] = Slot{key.head, key.tail, key.size, static_cast<int>(entries_.size()), code};
    entries_.push_back(Entry{std::string(text), code});
}

void CategoryDictionary::add(std::string_view text, int code) {
    const CategoryKey key(text);
    if (slots_.empty()) reindex();
    if (slots_[probe(text, key)].entry >= 0) return;
    insert(text, key, code);
}

int CategoryDictionary::find(std::string_view text) const {
    if (slots_.empty()) {  // no table (released): the entries one by one
        for (const Entry& e : entries_)
            if (e.text == text) return e.code;
        return -1;
    }
    const CategoryKey key(text);
    const Slot& s = slots_[probe(text, key)];
    return s.entry < 0 ? -1 : s.code;
}

}  // namespace kestrel::detail
