#include "kestrel/core/context.hpp"

#include <omp.h>

#include "kestrel/core/rng.hpp"

namespace kestrel {

int Context::resolved_threads() const { return threads > 0 ? threads : omp_get_num_procs(); }

Context Context::child(std::uint64_t stream, int child_threads) const {
    Context c;
    c.seed = derive_seed(seed, stream);
    c.threads = child_threads;
    c.warn = warn;
    c.option_spelling = option_spelling;
    return c;
}

}  // namespace kestrel
