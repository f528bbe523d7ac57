#pragma once
// Learning curves: the model trained on growing fractions of each training fold,
// scored on those training rows and on the fold's test rows (sklearn's
// learning_curve with shuffle=True). The gap shows the optimism of training error;
// the slope, the value of more data. A plain struct, for tables, CSV and plots.
#include <string>
#include <vector>

#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel {

struct LearningCurveOptions {
    SplitOptions split;
    std::vector<double> fractions;  // of the training fold, in (0, 1], increasing
    std::string metric;             // empty = accuracy / r2
};

struct LearningCurvePoint {
    double fraction = 0;
    Index train_size = 0;  // rows each fit used (the same for every fold)
    MetricSummary train, validation;
    std::vector<double> train_scores, validation_scores;  // per fold
    double fit_seconds = 0;                               // mean per fold
};

struct LearningCurve {
    std::string metric;
    bool greater_is_better = true;
    std::vector<LearningCurvePoint> points;  // by increasing train_size
};

// "start:stop:count" (np.linspace(start, stop, count), as 0.1:1.0:10) or a list
// "0.1,0.5,1". UsageError naming the option fractions for anything else, a fraction
// outside (0, 1], or a count below 1.
std::vector<double> parse_fractions(const std::string& text);

// Sizes are floor(fraction x the smallest training fold), at least 1, duplicates
// dropped (as sklearn's train_sizes_abs). Each fold's training rows are shuffled once
// (seeded) and every size takes a prefix, so larger sets contain the smaller ones.
LearningCurve learning_curve(const ModelSpec& spec, const Dataset& data, const LearningCurveOptions& opts,
                             const Context& ctx);

}  // namespace kestrel
