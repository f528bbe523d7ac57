#pragma once
// How a training-data message names an option: in words, or by the caller's spelling
// (TrainingOptionSpellings), so that a command's users read the flag they typed while
// the library's own text names no flag.
#include <string>

#include "kestrel/tasks/training_data.hpp"

namespace kestrel::detail {

struct OptionWording {
    std::string words;     // "weights column"
    std::string spelling;  // the caller's spelling of the option, or empty
    // The option with its value: "weights column 'w'", or "--weights-col w".
    std::string with_value(const std::string& value) const {
        return spelling.empty() ? words + " '" + value + "'" : spelling + " " + value;
    }
    // The option alone: "weights column", or "--weights-col".
    const std::string& alone() const { return spelling.empty() ? words : spelling; }
    // The option and a value in quotes: "shard files 'a*.csv'", or "--shards 'a*.csv'".
    std::string quoted(const std::string& value) const { return alone() + " '" + value + "'"; }
    // The spelling in brackets after words that already name the option: "" or " (--weights-col)".
    std::string aside() const { return spelling.empty() ? std::string() : " (" + spelling + ")"; }
};

inline OptionWording weights_wording(const TrainingDataOptions& o) {
    return {"weights column", o.spellings.weights_column};
}
inline OptionWording group_wording(const TrainingDataOptions& o) {
    return {"query column", o.spellings.group_column};
}
inline OptionWording validation_wording(const TrainingDataOptions& o) {
    return {"a validation file", o.spellings.validation_file};
}
inline OptionWording group_folds_wording(const TrainingDataOptions& o) {
    return {"group column", o.spellings.group_folds_column};
}
inline OptionWording shard_wording(const TrainingDataOptions& o) {
    return {"a sharded read", o.spellings.shard};
}
inline OptionWording shards_wording(const TrainingDataOptions& o) {
    return {"shard files", o.spellings.shard_files};
}

}  // namespace kestrel::detail
