#pragma once
// The per-row bootstrap of the histogram forest (tree_method=hist; docs/models/forest.md,
// "On shards"): each row's count in a tree's sample is drawn from a generator seeded by
// (the tree's bag seed, the row's global number) alone, so a rank draws its own rows'
// counts without knowing the others', and the sample is the same for any number of ranks
// (Oza and Russell's online bagging).
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Row g's count: with_replacement, a Poisson(fraction) draw (the limit of a bootstrap of
// fraction·n rows out of n as n grows); without, 1 with probability fraction, else 0.
// fraction in (0, 1].
double row_bag_count(std::uint64_t bag_seed, Index g, double fraction, bool with_replacement);

}  // namespace kestrel
