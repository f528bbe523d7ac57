#pragma once
// A grown tree's leaf values added to the raw scores of its rows (GbdtFit::grow_tree), on
// several threads without them writing the same cache lines.
#include <algorithm>
#include <cstddef>
#include <span>

#include "kestrel/boosting/gbdt_tree_learner.hpp"

namespace kestrel {

// Adds each leaf's value to the raw scores F[r · K] of its rows r < n (`grouped`: the
// learner's rows by leaf, ascending within a leaf, its partitions being stable). A thread
// takes a range of rows, not a leaf: a leaf's rows are spread over all of F, so threads taking
// leaves wrote the same cache lines. Each row gets its one value whatever the threads.
inline void add_leaf_values(const GrownTree& g, std::span<const int> grouped, double* F, Index K, Index n,
                            int threads) {
    const auto n_leaves = static_cast<Index>(g.leaves.size());
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int t = 0; t < threads; ++t) {
        const auto lo = static_cast<int>(n * t / threads), hi = static_cast<int>(n * (t + 1) / threads);
        for (Index l = 0; l < n_leaves; ++l) {
            const auto leaf = static_cast<std::size_t>(l);
            const double v = g.tree.value(g.leaves[leaf])[0];
            const int* end = grouped.data() + g.leaf_end[leaf];
            const int* from = std::lower_bound(grouped.data() + g.leaf_begin[leaf], end, lo);
            for (const int* r = from; r != end && *r < hi; ++r)
                F[static_cast<std::size_t>(*r) * static_cast<std::size_t>(K)] += v;
        }
    }
}

}  // namespace kestrel
