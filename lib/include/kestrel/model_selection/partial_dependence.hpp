#pragma once
// Partial dependence and individual conditional expectation (Friedman 2001; Goldstein et
// al. 2015; scikit-learn's sklearn.inspection.partial_dependence, method="brute"): the
// model's output with one input column set to each value of a grid, on every row. The
// partial dependence is the mean over the rows; an ICE curve is one row's outputs.
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// scikit-learn's grid for a numeric column (inspection._partial_dependence._grid_from_X):
// the distinct finite values when there are fewer than `resolution`, else `resolution`
// points evenly spaced between the `lo` and `hi` quantiles, computed as scipy's
// mstats.mquantiles with its defaults (alphap = betap = 0.4), which scikit-learn 1.2 uses.
// NaN (missing) values are left out. DataError when no value is finite; UsageError when
// resolution < 2 or not 0 <= lo < hi <= 1.
std::vector<double> percentile_grid(std::vector<double> values, int resolution = 100, double lo = 0.05,
                                    double hi = 0.95);

// scipy.stats.mstats.mquantiles(values, prob, alphap=0.4, betap=0.4) of sorted finite values.
double mquantile(const std::vector<double>& sorted, double prob);

struct PartialDependence {
    Index column = 0;
    std::vector<double> grid;           // the values the column is set to (category codes for a categorical column)
    std::vector<std::string> labels;    // their text: the number, or the category's name
    std::vector<std::string> outputs;   // what is averaged: the classes (probabilities), or one output
    std::string response;               // "proba", "decision" or "prediction"
    Matrix average;                     // grid.size() x outputs.size()
    std::vector<Index> ice_rows;        // the rows whose curves are kept (ascending)
    std::vector<Matrix> ice;            // per output: ice_rows.size() x grid.size()
};

// The grid of input column `column` for `model` on X: each of the model's categories for a
// categorical column, else percentile_grid of the column's values.
std::vector<double> column_grid(const Model& model, const Features& X, Index column, int resolution);

// The model's response averaged over all rows of X with `column` set to each grid value:
// the probabilities of every class for a classifier that gives them (scikit-learn's
// response_method="auto"), else its decision values; the prediction for regression.
// ICE curves are kept for at most `ice_rows` rows (0 = none), a sample drawn with `seed`
// when X has more. Grid values are scored in parallel; the result does not depend on
// `threads`.
PartialDependence partial_dependence(const Model& model, const Features& X, Index column,
                                     const std::vector<double>& grid, Index ice_rows, std::uint64_t seed,
                                     int threads);

}  // namespace kestrel
