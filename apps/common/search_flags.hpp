#pragma once
// kestrel-gridsearch's search flags: random search (--n-iter), successive halving
// (--halving), nested cross-validation (--outer-k) and --resume, in a SearchRequest with
// the axes (-g) and the metric that the command declares (kestrel/tasks/search_request.hpp decides what they mean). The tables are
// kestrel/tasks/search_text.hpp's.
#include "common/cli.hpp"
#include "kestrel/tasks/search_request.hpp"

namespace kestrel::cli {

struct SearchFlags {
    SearchRequest request;
    void add_to(CLI::App& app);
};

}  // namespace kestrel::cli
