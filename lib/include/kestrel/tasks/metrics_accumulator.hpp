#pragma once
// Metrics over a stream of scored pieces: truths, predictions and scores appended piece
// by piece (std::vector grows amortised; an Eigen matrix would be copied whole each time),
// 8 bytes per row for each of truth, prediction and score column, and handed over whole
// as Predictions at the end.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/metrics/predictions.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

struct MetricsSettings {
    // The column of query ids (learning to rank), read as the last pass-through column
    // of each table (Table::kept); empty = the rows' qid:N, if any.
    std::string group_column;
    // The label column asked for; empty = the model's (or, for a model file that does not
    // record it, the reader's default, which is warned about once).
    std::string label_column;
    std::string model_path;  // names the model file in the warning
};

class MetricsAccumulator {
public:
    // `model` and `ctx` must outlive the accumulator.
    MetricsAccumulator(const Model& model, MetricsSettings settings, const Context& ctx);

    // One piece: its table (labels, query ids) and its scores (proba and decision may be empty).
    void add(const Table& t, const Vector& predicted, const Matrix& proba, const Matrix& decision);

    // Every piece added so far; query ids are checked whole here.
    Predictions predictions() const;

private:
    void warn_unrecorded_label(const Table& t);
    std::vector<double> query_ids(const Table& t);
    std::string missing_label_reason() const;

    const Model& model_;
    bool classify_ = false;
    MetricsSettings settings_;
    const Context& ctx_;
    std::vector<std::string> classes_;
    bool label_checked_ = false;
    std::unordered_map<std::string, std::size_t> words_;
    std::vector<double> y_true_, y_pred_, proba_, decision_, qid_;
    std::vector<std::uint64_t> y_line_;
    std::string source_;
    Index proba_cols_ = 0, decision_cols_ = 0;
};

}  // namespace kestrel
