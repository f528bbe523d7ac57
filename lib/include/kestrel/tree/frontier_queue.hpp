#pragma once
// The order in which a CART builder splits its open nodes, shared by the dense and the
// sparse builder so that both grow identical trees: depth-first (the left child next)
// without a leaf budget; best-first with max_leaf_nodes (largest improvement first,
// ties to the older node), stopping after max_leaf_nodes - 1 splits.
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Frontier: {int node; Split split (with valid() and improvement); ...}.
template <class Frontier>
class FrontierQueue {
public:
    explicit FrontierQueue(Index max_leaf_nodes)
        : best_first_(max_leaf_nodes > 0),
          splits_left_(best_first_ ? max_leaf_nodes - 1 : std::numeric_limits<Index>::max()) {}

    // A node without a valid split stays a leaf.
    void push(Frontier fr) {
        if (!fr.split.valid()) return;
        if (best_first_)
            queue_.push(std::move(fr));
        else
            stack_.push_back(std::move(fr));
    }

    // The next node to split; false when none is left or the leaf budget is spent.
    bool pop(Frontier& fr) {
        if (best_first_ ? queue_.empty() : stack_.empty()) return false;
        if (best_first_) {
            fr = queue_.top();
            queue_.pop();
        } else {
            fr = std::move(stack_.back());
            stack_.pop_back();
        }
        if (splits_left_ <= 0) return false;
        --splits_left_;
        return true;
    }

private:
    struct Later {
        bool operator()(const Frontier& a, const Frontier& b) const {
            return a.split.improvement < b.split.improvement ||
                   (a.split.improvement == b.split.improvement && a.node > b.node);
        }
    };
    bool best_first_;
    Index splits_left_;
    std::priority_queue<Frontier, std::vector<Frontier>, Later> queue_;
    std::vector<Frontier> stack_;
};

}  // namespace kestrel
