#include "gram_limit.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

void require_exact_gram_fits(const std::string& model, Index n) {
    constexpr double kMaxGramBytes = 16.0 * 1024 * 1024 * 1024;
    if (static_cast<double>(n) * static_cast<double>(n) * 8.0 > kMaxGramBytes)
        throw UsageError(model + ": " + std::to_string(n) + " rows need a Gram matrix over 16 GiB; use " +
                         option_named("params") + " nystrom=m (e.g. nystrom=1000)");
}

}  // namespace kestrel
