#include "common/prediction_table.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel::cli {

TableFormat table_format_from_string(const std::string& s) {
    if (s == "csv") return TableFormat::csv;
    if (s == "tsv") return TableFormat::tsv;
    if (s == "jsonl") return TableFormat::jsonl;
    throw UsageError("--output-format must be csv, tsv or jsonl, got '" + s + "'");
}

}  // namespace kestrel::cli
