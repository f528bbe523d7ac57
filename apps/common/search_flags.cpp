#include "common/search_flags.hpp"

namespace kestrel::cli {

void SearchFlags::add_to(CLI::App& app) {
    app.add_option("--n-iter", request.n_iter,
                   "random search: N points sampled (seeded) from the axes; -g also takes uniform(a,b), "
                   "loguniform(a,b), randint(a,b), choice(...)")
        ->check(whole_number(1, 1000000));
    app.add_flag("--halving", request.halving,
                 "successive halving (as sklearn's HalvingGridSearchCV): rounds on 3x more rows, keeping the best third");
    app.add_option("--outer-k", request.outer_k,
                   "nested cross-validation: K outer folds, each tuned on its training rows only")
        ->check(whole_number(2, 100000));
    app.add_option("--resume", request.known_file, "skip the points already scored in this results CSV, and update it")
        ->type_name("FILE");
}

}  // namespace kestrel::cli
