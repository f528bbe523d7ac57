#pragma once
// Internal to knn_search: a k-d tree over dense training rows (nanoflann), searching
// the exact squared Euclidean or L1 distance of knn_candidates.hpp, ties to the lower row.
#include <memory>

#include "kestrel/core/dataset.hpp"

namespace kestrel::knn_detail {

class KdTree {
public:
    // `rows` must outlive the tree.
    KdTree(const DenseView& rows, bool l1, Index leaf_size);
    ~KdTree();
    KdTree(const KdTree&) = delete;
    KdTree& operator=(const KdTree&) = delete;

    // The k nearest rows of q (length = rows.cols()), nearest first: exact squared L2
    // (or L1) distance, then row index.
    void query(const double* q, Index k, Index* idx, double* dist) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace kestrel::knn_detail
