#include "kestrel/optim/objective.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

double Objective::value(const Vector& w) {
    Vector grad;
    return value_gradient(w, grad);
}

void Objective::hessian_vector(const Vector& /*v*/, Vector& /*out*/) const {
    throw InternalError("this objective has no Hessian-vector product (check has_hessian_vector() first)");
}

}  // namespace kestrel
