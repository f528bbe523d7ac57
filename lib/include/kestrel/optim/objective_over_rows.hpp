#pragma once
// The objective of all the rows of a fit, wherever they are: held whole, spread over MPI
// ranks (ObjectiveOverRanks: each rank's rows, rank 0's carrying the penalty) or read as a
// stream (ObjectiveOverBlocks: each block's rows, the first carrying the penalty). The
// models whose loss is a sum over rows (logistic, linear_svm's primal) build their local
// objective once, here, and the three cases are the same steps of the same solver.
#include <memory>

#include "kestrel/common/row_blocks.hpp"
#include "kestrel/core/context.hpp"
#include "kestrel/optim/objective_over_blocks.hpp"
#include "kestrel/optim/objective_over_ranks.hpp"

namespace kestrel {

// make_local(X, first_row): a std::unique_ptr to the objective of X's rows (first_row ..
// first_row + X.rows() − 1 of the data) with a set_penalty_weight(double); minimize(Objective&)
// solves it. Returns minimize's result.
template <class MakeLocal, class Minimize>
auto minimize_over_rows(const Dataset& data, const Context& ctx, MakeLocal make_local, Minimize minimize) {
    if (const RowBlocks* blocks = streamed_rows_of(data)) {
        const Index dimension = make_local(Features(SparseMatrix(0, data.cols())), 0)->dimension();
        ObjectiveOverBlocks whole(*blocks, dimension, [&](const Features& X, Index first, double penalty) {
            auto local = make_local(X, first);
            local->set_penalty_weight(penalty);
            return std::unique_ptr<Objective>(std::move(local));
        });
        return minimize(static_cast<Objective&>(whole));
    }
    auto local = make_local(data.X, 0);
    if (!ctx.rows_sharded) return minimize(static_cast<Objective&>(*local));
    if (process_group()->rank() != 0) local->set_penalty_weight(0);
    ObjectiveOverRanks whole(*local, ctx);
    return minimize(static_cast<Objective&>(whole));
}

}  // namespace kestrel
