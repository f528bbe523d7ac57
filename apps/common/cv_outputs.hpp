#pragma once
// kestrel-cv's learning curves (--learning-curve FRACTIONS, printed as a table or JSON,
// --curve-csv FILE). Their text, JSON and CSV, the scheme's title and the per-split
// predictions' CSV are the library's (kestrel/tasks/cv_report.hpp).
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

// Runs the learning curve kestrel-cv was asked for and prints / writes it.
LearningCurve run_learning_curve(const CvOutputFlags& flags, const ModelSpec& spec, const Dataset& data,
                                 const CvOptions& opts, const Context& ctx);
void print_learning_curve(const LearningCurve& c, const ModelSpec& spec, const Dataset& data, const CvOptions& opts,
                          bool json, std::uint64_t seed, Io& io);

}  // namespace kestrel::cli
