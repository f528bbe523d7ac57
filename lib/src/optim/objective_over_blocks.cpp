#include "kestrel/optim/objective_over_blocks.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {
namespace {

double penalty_of_block(Index first_row) { return first_row == 0 ? 1.0 : 0.0; }

}  // namespace

double ObjectiveOverBlocks::value_gradient(const Vector& w, Vector& grad) {
    grad = Vector::Zero(dimension_);
    double f = 0;
    Vector part;
    blocks_.for_each([&](const Features& X, Index first) {
        interruption_point();
        const std::unique_ptr<Objective> local = make_(X, first, penalty_of_block(first));
        f += local->value_gradient(w, part);
        grad += part;
    });
    last_w_ = w;
    return f;
}

double ObjectiveOverBlocks::value(const Vector& w) {
    double f = 0;
    blocks_.for_each([&](const Features& X, Index first) {
        interruption_point();
        f += make_(X, first, penalty_of_block(first))->value(w);
    });
    return f;
}

void ObjectiveOverBlocks::hessian_vector(const Vector& v, Vector& out) const {
    if (last_w_.size() != dimension_) throw InternalError("ObjectiveOverBlocks::hessian_vector before value_gradient");
    out = Vector::Zero(dimension_);
    Vector gradient, part;
    blocks_.for_each([&](const Features& X, Index first) {
        interruption_point();
        const std::unique_ptr<Objective> local = make_(X, first, penalty_of_block(first));
        local->value_gradient(last_w_, gradient);
        local->hessian_vector(v, part);
        out += part;
    });
}

}  // namespace kestrel
