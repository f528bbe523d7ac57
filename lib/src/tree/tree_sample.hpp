#pragma once
// The rows one tree is grown on: those with a positive weight, numbered 0..m-1 in row
// order (their local index), with the class or target and the weight of each.
#include <span>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct TreeSample {
    std::vector<int> local_of;   // global row -> local index, -1 when not in the sample
    std::vector<int> global_of;  // local index -> global row
    std::vector<int> klass;      // class of a local row (classification)
    std::vector<double> target;  // target of a local row (regression)
    std::vector<double> weight;

    Index size() const { return static_cast<Index>(weight.size()); }
    // Refills the sample from one weight per row of y; n_classes = 0 for regression.
    void gather(std::span<const double> row_weights, const Vector& y, Index n_classes);
};

}  // namespace kestrel
