#pragma once
// Which library option each training-data message names (option_named), so that the
// library's text names the option ("weights_col w") and a command prints its flag in its
// place ("--weights-col w"), as every other library message does.
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel::detail {

struct OptionWording {
    std::string words;  // what the option is, for messages that say it in words: "weights column"
    std::string key;    // the library option (option_named): "weights_col"
    // The option with its value: "weights_col w".
    ErrorText with_value(const std::string& value) const { return option_named(key) + " " + value; }
    // The option alone: "weights_col".
    ErrorText alone() const { return option_named(key); }
    // The option and a value in quotes: "shards 'a*.csv'".
    ErrorText quoted(const std::string& value) const { return option_named(key) + " '" + value + "'"; }
    // The option in brackets after words that say what it is: " (weights_col)".
    ErrorText aside() const { return " (" + option_named(key) + ")"; }
};

inline OptionWording weights_wording() { return {"weights column", "weights_col"}; }
inline OptionWording group_wording() { return {"query column", "group_col"}; }
inline OptionWording validation_wording(const TrainingDataOptions& o) { return {"a validation file", o.validation_option}; }
inline OptionWording group_folds_wording() { return {"group column", "groups"}; }
inline OptionWording shard_wording() { return {"a sharded read", "shard"}; }
inline OptionWording shards_wording() { return {"shard files", "shards"}; }

}  // namespace kestrel::detail
