#pragma once
// An objective whose loss is a sum over rows spread over MPI ranks (Context::rows_sharded),
// as Distributed LIBLINEAR splits TRON's work: each rank evaluates the loss, gradient and
// Hessian-vector product on its own rows, and the parts are summed over the ranks
// (sum_over_ranks), so every rank holds the whole data's values and the solver takes the
// same steps everywhere. The penalty must be counted once: the local objective of rank 0
// carries it, the others are built with a penalty weight of 0.
#include "kestrel/common/row_shards.hpp"
#include "kestrel/optim/objective.hpp"

namespace kestrel {

class ObjectiveOverRanks final : public Objective {
public:
    ObjectiveOverRanks(Objective& local, const Context& ctx) : local_(local), ctx_(ctx) {}

    Index dimension() const override { return local_.dimension(); }

    // The gradient and the value travel in one message: one allreduce per evaluation.
    double value_gradient(const Vector& w, Vector& grad) override {
        const double f = local_.value_gradient(w, grad);
        Vector both(grad.size() + 1);
        both << grad, f;
        sum_over_ranks(ctx_, both);
        grad = both.head(grad.size());
        return both[grad.size()];
    }
    double value(const Vector& w) override {
        double f = local_.value(w);
        sum_over_ranks(ctx_, std::span<double>(&f, 1));
        return f;
    }
    bool has_hessian_vector() const override { return local_.has_hessian_vector(); }
    void hessian_vector(const Vector& v, Vector& out) const override {
        local_.hessian_vector(v, out);
        sum_over_ranks(ctx_, out);
    }

private:
    Objective& local_;
    const Context& ctx_;
};

}  // namespace kestrel
