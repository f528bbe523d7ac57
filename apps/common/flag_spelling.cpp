#include "common/flag_spelling.hpp"

#include <string_view>
#include <utility>

namespace kestrel::cli {
namespace {

// Library option -> the flag that sets it. One row per option a library message names
// (option_named in lib/src; scripts/check_library_messages.sh checks that each has a row).
// A key is qualified ("job.option") only where two options share a name but not a flag.
constexpr std::pair<std::string_view, std::string_view> kFlagOfOption[] = {
    // Cross-validation splits (common/splits.cpp, model_selection/cv_scheme.cpp).
    {"k", "-k"},
    {"repeats", "--repeat"},
    {"shuffle_splits", "--shuffle-split"},
    {"test_fraction", "--test-fraction"},
    {"leave_one_out", "--loo"},
    {"groups", "--groups"},
    {"validation", "--validation"},
};

}  // namespace

std::string flag_spelling(const std::string& key) {
    for (const auto& [option, flag] : kFlagOfOption)
        if (option == key) return std::string(flag);
    return {};
}

std::string command_message(const Error& e) { return e.text().respelled(flag_spelling); }

}  // namespace kestrel::cli
