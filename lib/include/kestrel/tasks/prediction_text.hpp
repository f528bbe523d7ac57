#pragma once
// Predictions as a table of text: a `prediction` column (class labels as their original
// strings, or values), then the score columns present in the ScoredRows (`proba_<class>`,
// `decision` or `decision_<class>`) and contributions (Model::contribution_names), as
// CSV, TSV or JSON lines. The header and the rows are separate, so that a stream of row
// pieces makes the same bytes as the whole table.
#include <string>
#include <vector>

#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/score_rows.hpp"

namespace kestrel {

enum class PredictionFormat { csv, tsv, jsonl };

struct PredictionLayout {
    PredictionFormat format = PredictionFormat::csv;
    bool header = true;                    // csv/tsv: the column names first (jsonl has none)
    std::vector<std::string> passthrough;  // names of the input columns copied before the predictions
};

// The column names, in order: the pass-through columns, then the predictions'.
std::vector<std::string> prediction_column_names(const Model& model, const ScoredRows& cols,
                                                 const PredictionLayout& layout);
// The header line ("" for jsonl or without a header).
std::string prediction_header(const Model& model, const ScoredRows& cols, const PredictionLayout& layout);
// The rows of `cols`; `passthrough[j][i]` is row i's text of pass-through column j.
std::string prediction_rows(const Model& model, const ScoredRows& cols, const PredictionLayout& layout,
                            const std::vector<std::vector<std::string>>& passthrough = {});

// Header and rows as CSV (the default layout).
std::string prediction_csv(const Model& model, const ScoredRows& cols);
// RFC 4180 quoting when a field holds a comma, quote or newline (or ; or tab, which a
// reader detecting the delimiter could take for one).
std::string csv_field(const std::string& s);

}  // namespace kestrel
