#pragma once
// `-p C=auto` for logistic, linear_svm and linear_svr: LIBLINEAR's `-C` (find_parameter_C;
// Chu, Yeh, Lin, "Warm start for parameter selection of linear classifiers", KDD 2015).
// k-fold cross-validation along C = start, 2·start, 4·start, ... ≤ max_C, each fold's solver
// warm-started from that fold's solution at the previous C. It stops at max_C, when the
// fold solutions stop changing for 3 steps (LIBLINEAR's rule: larger C no longer matters), or
// when the CV score has not improved for `patience` steps. The best C is the smallest with
// the best score (accuracy for classification, mean squared error for regression).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

struct CSearchOptions {
    int folds = 5;
    double start_C = 0;   // <= 0: c_search_start(X, 1.0)
    double max_C = 1024;  // LIBLINEAR's default
    int patience = 5;
    std::uint64_t seed = 1;  // the folds
};

struct CSearchStep {
    double C = 0;
    double score = 0;
};

struct CSearchResult {
    double best_C = 0;
    double best_score = 0;
    std::string metric;  // "accuracy" (higher is better) or "mse" (lower is better)
    int folds = 0;
    std::string stopped;  // why the sequence ended
    std::vector<CSearchStep> path;
};

// Fits the fold's rows at C, warm-started from `warm` (empty: from zero), and returns
// the solver's solution vector, which is also what the next C starts from.
using CFoldFit = std::function<Vector(const Dataset& train, double C, const Vector& warm)>;
// Predictions for a fold's test rows from a solution: class index or value.
using CFoldPredict = std::function<Vector(const Features& X, const Vector& solution)>;

CSearchResult search_c(const Dataset& data, const CSearchOptions& o, const CFoldFit& fit, const CFoldPredict& predict);

// The C a model fits at: the number its `C` parameter gives, or with C=auto the best of
// search_c; `search` is that search as JSON (c_search_json), null for a given number.
struct ChosenC {
    double C = 0;
    Json search;
};
// Where a C=auto search starts (c_search_start's bias² and loss factor) and the seed of its folds.
struct CSearchStart {
    double extra = 0;
    double factor = 1;
    std::uint64_t seed = 1;
};
// CFoldFit in `quiet`: the model's context with its warnings silenced (LIBLINEAR is silent
// inside its search too).
using CQuietFoldFit = std::function<Vector(const Dataset& train, double C, const Vector& warm, const Context& quiet)>;
ChosenC choose_c(const RealOrWord& C, const Dataset& data, const Context& ctx, const CSearchStart& start,
                 const CQuietFoldFit& fit, const CFoldPredict& predict);

// LIBLINEAR's calc_start_C: the power of two at or below 1 / (factor · n · max_i ‖x̂_i‖²), where
// ‖x̂_i‖² includes extra² (the bias feature's square, or 0). factor 1 for the logistic loss,
// 2 for the squared losses.
double c_search_start(const Features& X, double extra, double factor);

// The search as JSON: {"metric", "folds", "best_C", "best_score", "stopped", "path": [{"C", "score"}]}
// (the "c_search" report of the models, shown by kestrel-train).
Json c_search_json(const CSearchResult& r);

// The `C` parameter of the linear models, with the symbolic value "auto" (bind it to a
// RealOrWord: `C.is("auto")`).
ParamDef c_param(double def, std::string help, std::string anchor);
// The reports of a model with this C: {"c_search"} when it is "auto", none otherwise.
std::vector<std::string> c_search_reports(const RealOrWord& C);

}  // namespace kestrel
