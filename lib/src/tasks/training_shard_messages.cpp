#include "training_shard_messages.hpp"

namespace kestrel::detail {
namespace {

std::vector<std::byte> pack_shard_words(const std::vector<std::string>& words) {
    std::vector<std::byte> out;
    for (const std::string& w : words) {
        const auto* p = reinterpret_cast<const std::byte*>(w.data());
        out.insert(out.end(), p, p + w.size());
        out.push_back(std::byte{0});
    }
    return out;
}

std::vector<std::string> unpack_shard_words(const std::vector<std::byte>& bytes) {
    std::vector<std::string> words;
    std::string w;
    for (const std::byte b : bytes) {
        if (b == std::byte{0}) {
            words.push_back(std::move(w));
            w.clear();
        } else {
            w.push_back(static_cast<char>(b));
        }
    }
    return words;
}

}  // namespace

std::vector<std::vector<double>> gather_numbers(ProcessGroup* group, const std::vector<double>& mine) {
    if (group == nullptr) return {mine};
    return share_numbers_with_all(*group, mine);
}

std::vector<std::vector<std::string>> gather_words(ProcessGroup* group, const std::vector<std::string>& mine) {
    if (group == nullptr) return {mine};
    std::vector<std::vector<std::string>> all;
    for (const auto& part : share_with_all(*group, pack_shard_words(mine))) all.push_back(unpack_shard_words(part));
    return all;
}

}  // namespace kestrel::detail
