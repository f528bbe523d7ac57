#pragma once
// A candidate's fold models (AutoGluon's bagged models, docs/auto.md "Bagging"): the K
// models cross-validation fitted on the K training parts of the folds, whose predictions on
// the held-out parts were the candidate's out-of-fold predictions. kestrel-auto saves their
// average instead of a refit on all rows. They are fitted again here rather than kept from
// the search: the same rows, the same seed stream per fold and one thread each give the
// same models, and the search need not hold hundreds of candidates' models in memory.
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/common/splits.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// Fold k's model: `spec` fitted on data's rows folds[k].train with ctx.child(k, 1), as the
// search's fit of fold k (stream k, the fold's own hold-out for early stopping, never its
// test rows). The folds run in parallel on ctx's threads; the models do not depend on it.
// Warnings go to ctx.warn prefixed with `label` and "fold k/K".
std::vector<Model> fit_fold_models(const Dataset& data, const std::vector<Fold>& folds, const ModelSpec& spec,
                                   const Context& ctx, const std::string& label);

}  // namespace kestrel
