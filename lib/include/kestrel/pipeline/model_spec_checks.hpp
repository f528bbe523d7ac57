#pragma once
// The rules a ModelSpec's preparation options keep among themselves, checked where a spec
// is made (a command's -m and its options) so that a spec that cannot be meant fails
// before any data is read.
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// UsageError, naming the options (option_named), for a missing indicator without an
// imputer to add it, max_categories 1 (a one-category fold keeps nothing), and
// calibrate_folds without calibrate.
void check_model_spec(const ModelSpec& spec);

}  // namespace kestrel
