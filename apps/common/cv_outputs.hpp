#pragma once
// kestrel-cv's outputs beyond the score table: the per-split predictions
// (--predictions FILE), the scheme's title and JSON keys, and learning curves
// (--learning-curve FRACTIONS, printed as a table or JSON, --curve-csv FILE).
#include <string>

#include "common/cli.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/learning_curve.hpp"

namespace kestrel::cli {

struct CvOutputFlags {
    std::string predictions;     // --predictions FILE
    std::string learning_curve;  // --learning-curve 0.1:1.0:10
    std::string curve_csv;       // --curve-csv FILE
    void add_to(CLI::App& app);
    bool wants_curve() const { return !learning_curve.empty(); }
    // UsageError naming the flag for a curve file without a curve, bad fractions, or
    // --predictions with --learning-curve; before any data is read.
    void check() const;
};

// "5-fold cross-validation x 2 repeats", "leave-one-out cross-validation", ...
std::string cv_title(const SplitOptions& s);
// JSON keys describing the scheme: scheme, k / splits / test_fraction, ...
Json scheme_json(const SplitOptions& s);

// One line per (split, test row): row (0-based data row; for --validation, the row of
// the validation file), fold (1-based; a repeat
// column for repeated k-fold), truth, prediction, then probabilities and decision
// values where the model gives them. Written atomically.
void write_fold_predictions(const std::string& path, const Dataset& data, const CvResult& r, const SplitOptions& s);

// The curve as text, JSON ({"metric", "points": [...]}) and CSV.
std::string learning_curve_text(const LearningCurve& c);
Json learning_curve_json(const LearningCurve& c);
std::string learning_curve_csv(const LearningCurve& c);

// Runs the learning curve kestrel-cv was asked for and prints / writes it.
LearningCurve run_learning_curve(const CvOutputFlags& flags, const ModelSpec& spec, const Dataset& data,
                                 const CvOptions& opts, const Context& ctx);
void print_learning_curve(const LearningCurve& c, const CvOutputFlags& flags, const ModelSpec& spec,
                          const Dataset& data, const CvOptions& opts, bool json, std::uint64_t seed, Io& io);

}  // namespace kestrel::cli
