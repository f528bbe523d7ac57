#pragma once
// The loop that sums a node's gradient pairs into its histogram cells, a few features a pass
// over its rows (accumulate_block), for HistTreeLearner (gbdt_tree_learner.cpp) and its
// tests. Each cell gets the same rows in the same order whichever features share its pass,
// and so the same sum: the learner may group a node's features as it likes (by thread count,
// by node count) without changing the model.
//
// The order of a cell's sum: with one chain, the node's rows in order. With two chains (many
// rows per cell, kRowsPerCellForTwoChains), the rows at even positions of the node into the
// cell, those at odd positions into a spare cell, the spare added to the cell, and then, when
// the node has an odd number of rows, its last row: two independent dependency chains where
// repeated bins would make each add wait on the last one's store.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kestrel/boosting/histogram.hpp"
#include "kestrel/boosting/losses.hpp"

namespace kestrel {

// A feature's cells take two chains from this many rows a cell on (a node's choice per
// feature, from its row count and the feature's bins alone, never from the threads).
constexpr Index kRowsPerCellForTwoChains = 4;

inline bool two_chains_for(Index node_rows, int cells) { return node_rows >= kRowsPerCellForTwoChains * cells; }

inline void add_spare(BinStat* hist, const BinStat* spare, int cells) {
    for (int b = 0; b < cells; ++b) {
        hist[b].g += spare[b].g;
        hist[b].h += spare[b].h;
    }
}

// Up to this many features of a node summed in one pass over its column-major codes, each
// row's index and gradient pair read once for all of them.
constexpr int kBlockFeatures = 4;

// The columns of one pass: each feature's codes, cells, histogram and spare cells.
template <class Bin>
struct BlockColumns {
    const Bin* col[kBlockFeatures];
    BinStat* hist[kBlockFeatures];
    BinStat* spare[kBlockFeatures];
    int cells[kBlockFeatures];
};

// F features at once over positions begin..end (row_of(k): the k-th row's index into the
// bin columns; gh[k] its gradient pair), every feature of the block with two chains or every
// one with one (the caller groups them so).
template <int F, class Bin, class RowOf>
void accumulate_block(const BlockColumns<Bin>& c, RowOf row_of, const GradPair* gh, Index begin, Index end,
                      bool two_chains) {
    Index k = begin;
    if (two_chains) {
        for (int f = 0; f < F; ++f) std::fill(c.spare[f], c.spare[f] + c.cells[f], BinStat{});
        for (; k + 1 < end; k += 2) {
            const Index r0 = row_of(k), r1 = row_of(k + 1);
            const double g0 = gh[k].g, h0 = gh[k].h, g1 = gh[k + 1].g, h1 = gh[k + 1].h;
            for (int f = 0; f < F; ++f) {
                BinStat& a = c.hist[f][c.col[f][r0]];
                a.g += g0;
                a.h += h0;
                BinStat& b = c.spare[f][c.col[f][r1]];
                b.g += g1;
                b.h += h1;
            }
        }
        for (int f = 0; f < F; ++f) add_spare(c.hist[f], c.spare[f], c.cells[f]);
    }
    for (; k < end; ++k) {
        const Index r = row_of(k);
        const double g = gh[k].g, h = gh[k].h;
        for (int f = 0; f < F; ++f) {
            BinStat& a = c.hist[f][c.col[f][r]];
            a.g += g;
            a.h += h;
        }
    }
}

template <class Bin, class RowOf>
void accumulate_block(const BlockColumns<Bin>& c, int features, RowOf row_of, const GradPair* gh, Index begin,
                      Index end, bool two_chains) {
    switch (features) {
        case 1: accumulate_block<1>(c, row_of, gh, begin, end, two_chains); break;
        case 2: accumulate_block<2>(c, row_of, gh, begin, end, two_chains); break;
        case 3: accumulate_block<3>(c, row_of, gh, begin, end, two_chains); break;
        default: accumulate_block<kBlockFeatures>(c, row_of, gh, begin, end, two_chains); break;
    }
}

}  // namespace kestrel
