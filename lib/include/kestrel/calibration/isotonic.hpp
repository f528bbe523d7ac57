#pragma once
// Isotonic regression of 0/1 targets on scores: the non-decreasing step-and-ramp map that
// model calibration uses (scikit-learn 1.2's IsotonicRegression(out_of_bounds="clip")).
#include <span>
#include <vector>

namespace kestrel {

// The fitted map: knots x (increasing) and their values y (non-decreasing); between knots
// it interpolates linearly, outside them it is clipped to the end values.
struct IsotonicFit {
    std::vector<double> x;
    std::vector<double> y;
    double operator()(double score) const;
};

// As scikit-learn: rows of zero weight dropped; scores within 1e-15 of the first of a run
// of equal scores merged into one point (weighted mean target, summed weight); pool
// adjacent violators; interior knots whose value equals both neighbours' dropped.
// Throws InternalError on mismatched input, UsageError when no row has positive weight.
IsotonicFit fit_isotonic(std::span<const double> scores, std::span<const double> targets,
                         std::span<const double> weights = {});

}  // namespace kestrel
