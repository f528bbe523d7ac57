#pragma once
// The prediction table is library behaviour (kestrel/tasks/prediction_text.hpp); the
// command line adds only its spelling of the output format.
#include <string>

#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel::cli {

// "csv", "tsv", "jsonl"; UsageError naming --output-format.
PredictionFormat prediction_format_from_string(const std::string& s);

}  // namespace kestrel::cli
