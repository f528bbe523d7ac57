#pragma once
// The hints the readers' errors share, one wording for CSV and LIBSVM. They name the
// library's options (option_named), and a command prints its flag in their place.
#include "kestrel/core/error.hpp"

namespace kestrel::detail {

// "use missing=drop": the policy that skips rows with a missing cell (the command's
// "use --missing=drop").
inline ErrorText drop_missing_hint() {
    return "use " + option_named("missing") + "=drop";
}

// An unknown category is an error only because the caller asked (unknown_category_error);
// the option named with its value, so that a command spells both its own way ("(--unknown
// ignore treats it as unknown)").
inline ErrorText unknown_category_hint() {
    return "(" + option_named("unknown_category_error=false") + " treats it as unknown)";
}

}  // namespace kestrel::detail
