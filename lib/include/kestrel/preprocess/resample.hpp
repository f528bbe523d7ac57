#pragma once
// Class rebalancing of training rows (--resample), a train-time-only step of the
// Model pipeline: Model::train applies it after the preprocessing steps, so
// cross-validation and grid search resample the training folds only and the test
// fold is never touched. Nothing of it is stored for prediction.
#include <cstdint>
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct ResampleSpec {
    enum class Kind { none, under, over, smote };
    Kind kind = Kind::none;
    double jitter = 0;   // over: Gaussian noise sd, in units of each feature's sd
    int neighbours = 5;  // smote: k nearest same-class neighbours
};

// Parses "under", "over", "over:JITTER", "smote", "smote:K"; UsageError naming the option resample.
ResampleSpec parse_resample(const std::string& text);

// UsageError naming `--resample SPEC` when the data is no classification, or when its
// rows are in query groups (Dataset::qid): resampling draws single rows, and the copies
// and synthetic rows it adds after the others would break a query's rows apart.
void check_resample_applies(const Dataset& data, const std::string& spec);

// Rebalanced rows, drawn from `seed` (the same seed gives the same rows):
//   under  every class is cut to the minority's count by sampling without replacement
//          (imbalanced-learn's RandomUnderSampler, sampling_strategy="auto");
//   over   every class is grown to the majority's count by drawing its rows with
//          replacement; with jitter j > 0 each added copy gets N(0, (j·sd_f)²) noise on
//          feature f, sd_f the feature's standard deviation over the rows;
//   smote  every class is grown to the majority's count by SMOTE (Chawla et al. 2002):
//          x + u·(z - x), x a random row of the class, z one of its k nearest
//          (Euclidean) neighbours within the class, u ~ U[0, 1). A class of one row is
//          grown by copies.
// Original rows come first in their order, added rows after; weights follow their
// source row. Sparse features are densified for jitter and SMOTE and returned sparse.
// Data check_resample_applies refuses is a UsageError naming the option resample.
Dataset resample(const Dataset& data, const ResampleSpec& spec, std::uint64_t seed);

}  // namespace kestrel
