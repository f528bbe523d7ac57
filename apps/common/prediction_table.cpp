#include "common/prediction_table.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel::cli {

PredictionFormat prediction_format_from_string(const std::string& s) {
    if (s == "csv") return PredictionFormat::csv;
    if (s == "tsv") return PredictionFormat::tsv;
    if (s == "jsonl") return PredictionFormat::jsonl;
    throw UsageError("--output-format must be csv, tsv or jsonl, got '" + s + "'");
}

}  // namespace kestrel::cli
