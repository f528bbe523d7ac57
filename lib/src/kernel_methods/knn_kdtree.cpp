// k-d tree search for knn through nanoflann, with kestrel's exact distance and tie rule.
#include "knn_kdtree.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <nanoflann.hpp>

#include "knn_candidates.hpp"

namespace kestrel::knn_detail {

// Not in an anonymous namespace: KdTree::Impl, a class with linkage, holds them.
struct RowSource {
    const double* values = nullptr;  // row-major, `cols` a row
    Index rows = 0, cols = 0;
    std::size_t kdtree_get_point_count() const { return static_cast<std::size_t>(rows); }
    double kdtree_get_pt(std::uint32_t i, std::size_t dim) const {
        return values[static_cast<Index>(i) * cols + static_cast<Index>(dim)];
    }
    template <class Bbox>
    bool kdtree_get_bbox(Bbox&) const {
        return false;
    }
};

// nanoflann's own L2 adaptor sums in groups of four; this one evaluates the exact
// distance of knn_candidates.hpp, so the tree and brute force agree bit for bit.
template <bool L1>
struct ExactMetric {
    using ElementType = double;
    using DistanceType = double;
    const RowSource& src;
    explicit ExactMetric(const RowSource& s) : src(s) {}
    // NOLINTNEXTLINE(readability-identifier-naming): nanoflann calls it by this name
    double evalMetric(const double* a, std::uint32_t b, std::size_t size) const {
        const double* row = src.values + static_cast<Index>(b) * src.cols;
        return L1 ? exact_l1(a, row, static_cast<Index>(size)) : exact_sq_l2(a, row, static_cast<Index>(size));
    }
    template <class U, class V>
    double accum_dist(U a, V b, std::size_t) const {
        const double t = static_cast<double>(a) - static_cast<double>(b);
        return L1 ? std::abs(t) : t * t;
    }
};

// The k best by (distance, index). nanoflann admits a leaf point only when its
// distance is strictly below worstDist() and prunes a cell when its (rounded) lower
// bound exceeds it: reporting a slightly inflated worst distance keeps equal-distance
// points with lower indices and cells whose bound is off by rounding.
class TieResult {
public:
    using DistanceType = double;
    using IndexType = std::uint32_t;
    using CountType = std::size_t;

    TieResult(std::size_t k, Index* idx, double* dist) : k_(k), idx_(idx), dist_(dist) {}
    std::size_t size() const { return count_; }
    bool full() const { return count_ == k_; }
    // NOLINTNEXTLINE(readability-identifier-naming): nanoflann calls it by this name
    bool addPoint(double d, std::uint32_t index) {
        const auto j = static_cast<Index>(index);
        if (full() && !(d < dist_[k_ - 1] || (d == dist_[k_ - 1] && j < idx_[k_ - 1]))) return true;
        std::size_t i = full() ? k_ - 1 : count_++;
        for (; i > 0 && (dist_[i - 1] > d || (dist_[i - 1] == d && idx_[i - 1] > j)); --i) {
            dist_[i] = dist_[i - 1];
            idx_[i] = idx_[i - 1];
        }
        dist_[i] = d;
        idx_[i] = j;
        return true;
    }
    // NOLINTNEXTLINE(readability-identifier-naming): nanoflann calls it by this name
    double worstDist() const {
        if (!full()) return std::numeric_limits<double>::infinity();
        return dist_[k_ - 1] * (1 + 1e-9) + std::numeric_limits<double>::min();
    }

private:
    std::size_t k_, count_ = 0;
    Index* idx_;
    double* dist_;
};

template <bool L1>
using Tree = nanoflann::KDTreeSingleIndexAdaptor<ExactMetric<L1>, RowSource, -1, std::uint32_t>;

struct KdTree::Impl {
    RowSource src;
    std::unique_ptr<Tree<false>> l2;
    std::unique_ptr<Tree<true>> l1;
};

KdTree::KdTree(const DenseView& rows, bool l1, Index leaf_size) : impl_(std::make_unique<Impl>()) {
    impl_->src = RowSource{rows.data(), rows.rows(), rows.cols()};
    const nanoflann::KDTreeSingleIndexAdaptorParams params(static_cast<std::size_t>(leaf_size));
    const auto dim = static_cast<int>(rows.cols());
    if (l1)
        impl_->l1 = std::make_unique<Tree<true>>(dim, impl_->src, params);
    else
        impl_->l2 = std::make_unique<Tree<false>>(dim, impl_->src, params);
}

KdTree::~KdTree() = default;

void KdTree::query(const double* q, Index k, Index* idx, double* dist) const {
    TieResult result(static_cast<std::size_t>(k), idx, dist);
    const nanoflann::SearchParams params(32, 0.0f, true);
    if (impl_->l1)
        impl_->l1->findNeighbors(result, q, params);
    else
        impl_->l2->findNeighbors(result, q, params);
}

}  // namespace kestrel::knn_detail
