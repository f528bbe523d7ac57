// One explicit line per built-in model (see DESIGN.md: static self-registration is
// dropped by the linker in static libraries).
#include "kestrel/core/registry.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/linear/ridge.hpp"

namespace kestrel {

void register_builtin_models(Registry& r) {
    r.add(ridge_model_info());
    r.add(logistic_model_info());
}

}  // namespace kestrel
