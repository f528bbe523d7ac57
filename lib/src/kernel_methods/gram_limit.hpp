#pragma once
// The exact kernel solvers hold the n x n Gram matrix in memory; past a fixed size they refuse
// before allocating and name the way out (the Nystrom approximation).
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Throws UsageError when n rows need a double Gram matrix over 16 GiB.
void require_exact_gram_fits(const std::string& model, Index n);

}  // namespace kestrel
