// One resolution of -m's parameters per command: the spec carries it from where it is
// made (the command line, a grid point) to every place that builds or asks the model.
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

void resolve_params(ModelSpec& spec) { spec.resolved = registry().resolve(spec.model, spec.params); }

std::shared_ptr<const ResolvedParams> resolved_params(const ModelSpec& spec) {
    // The check costs a comparison of two small objects; it keeps a spec whose params
    // were edited after resolve_params (a search point, an L1 path step) from building
    // the model it was before.
    if (spec.resolved && spec.resolved->model() == spec.model && spec.resolved->given() == spec.params)
        return spec.resolved;
    return registry().resolve(spec.model, spec.params);
}

}  // namespace kestrel
