#pragma once
// The prediction table is library behaviour (kestrel/tasks/prediction_text.hpp); the
// command line adds only its spelling of the output format.
#include <string>

#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel::cli {

using TableFormat = PredictionFormat;
// "csv", "tsv", "jsonl"; UsageError naming --output-format.
TableFormat table_format_from_string(const std::string& s);

}  // namespace kestrel::cli
