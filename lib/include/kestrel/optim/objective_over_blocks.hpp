#pragma once
// An objective whose loss is a sum over rows read a block at a time (common/row_blocks.hpp),
// as ObjectiveOverRanks sums it over MPI ranks: each evaluation is one pass over the
// blocks, a local objective made on each block's rows and the parts summed in block
// order. The penalty is counted once: the local objective of the first block carries it.
// The solver takes the steps it takes on the whole table (the sums differ only in their
// rounding), so a streamed fit stops by the same rule at the same optimum.
//
// A Hessian-vector product needs each row's curvature at the last point, which no block
// keeps: the local objective is evaluated there again first (a second computation of the
// rows' losses per pass, small beside the pass's reading).
#include <functional>
#include <memory>

#include "kestrel/common/row_blocks.hpp"
#include "kestrel/optim/objective.hpp"

namespace kestrel {

class ObjectiveOverBlocks final : public Objective {
public:
    // The local objective of a block's rows (first_row .. first_row + X.rows() − 1) with the
    // given weight of the penalty (1 for the first block, 0 for the others). It may keep a
    // reference to X: it is destroyed before the block is.
    using MakeLocal = std::function<std::unique_ptr<Objective>(const Features& X, Index first_row, double penalty)>;
    ObjectiveOverBlocks(const RowBlocks& blocks, Index dimension, MakeLocal make)
        : blocks_(blocks), dimension_(dimension), make_(std::move(make)) {}

    Index dimension() const override { return dimension_; }
    double value_gradient(const Vector& w, Vector& grad) override;
    double value(const Vector& w) override;
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override;

private:
    const RowBlocks& blocks_;
    Index dimension_;
    MakeLocal make_;
    Vector last_w_;  // the point of the last value_gradient, for hessian_vector
};

}  // namespace kestrel
