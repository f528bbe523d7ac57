#pragma once
// Post-pruning of a grown tree (docs/models/tree.md, "Pruning"). Both turn internal
// nodes into leaves (each node keeps its value) and then compact the tree.
#include "kestrel/common/tree.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Minimal cost-complexity pruning (Breiman et al. 1984; scikit-learn's ccp_alpha):
// with R(t) = (W_t / W_root) · I_t, repeatedly collapse the internal node of smallest
// effective alpha g(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1) while g(t) <= alpha.
void prune_cost_complexity(Tree& tree, double alpha);

// Reduced-error pruning (Quinlan 1987) on held-out rows: bottom-up, a subtree becomes
// a leaf when the leaf's validation error is no larger than the subtree's
// (misclassified weight, or weighted squared error for regression). The validation
// error of the tree can only go down. `classification`: targets are class indices.
void prune_reduced_error(Tree& tree, const Features& X, const Vector& y, const Vector& weights, bool classification);

// The weighted validation error used by prune_reduced_error (for tests).
double tree_error(const Tree& tree, const Features& X, const Vector& y, const Vector& weights, bool classification);

}  // namespace kestrel
