#include "common/search_flags.hpp"

#include <filesystem>
#include <iomanip>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel::cli {

void SearchFlags::add_to(CLI::App& app) {
    app.add_option("--n-iter", n_iter,
                   "random search: N points sampled (seeded) from the axes; -g also takes uniform(a,b), "
                   "loguniform(a,b), randint(a,b), choice(...)")
        ->check(whole_number(1, 1000000));
    app.add_flag("--halving", halving,
                 "successive halving (as sklearn's HalvingGridSearchCV): rounds on 3x more rows, keeping the best third");
    app.add_option("--outer-k", outer_k, "nested cross-validation: K outer folds, each tuned on its training rows only")
        ->check(whole_number(2, 100000));
    app.add_option("--resume", resume, "skip the points already scored in this results CSV, and update it")->type_name("FILE");
}

void SearchFlags::check() const {
    if (n_iter < 0) throw UsageError("--n-iter " + std::to_string(n_iter) + ": must be at least 1");
    if (outer_k == 1 || outer_k < 0)
        throw UsageError("--outer-k " + std::to_string(outer_k) + ": nested cross-validation needs at least 2 outer folds");
    if (!resume.empty() && halving) throw UsageError("--resume cannot be combined with --halving");
    if (!resume.empty() && nested()) throw UsageError("--resume cannot be combined with --outer-k");
}

SearchOptions SearchFlags::options(const SplitOptions& split, const std::string& metric,
                                   const std::vector<GridAxis>& axes, std::size_t n_splits) const {
    SearchOptions o;
    o.split = split;
    o.metric = metric;
    o.n_iter = n_iter;
    o.halving = halving;
    if (!resume.empty() && std::filesystem::exists(resume)) o.known = read_results_csv(resume, axes, metric, n_splits);
    return o;
}



std::string splits_text(const SplitOptions& s, std::size_t n_splits) {
    switch (s.scheme) {
        case CvScheme::kfold:
            return plural(s.k, "fold") + (s.repeats > 1 ? " x " + std::to_string(s.repeats) + " repeats" : std::string());
        case CvScheme::leave_one_out: return "leave-one-out (" + plural(static_cast<long long>(n_splits), "fold") + ")";
        case CvScheme::shuffle_split: return plural(static_cast<long long>(n_splits), "shuffle-split");
        case CvScheme::group_kfold: return "group " + plural(s.k, "fold");
        case CvScheme::fixed: return "a train/validation split";
    }
    return "";
}

std::string search_rounds_text(const GridSearchResult& r) {
    std::string s;
    if (!r.rounds.empty()) {
        s = "successive halving, factor 3 (rows per round x3, points kept /3):\n";
        for (const auto& round : r.rounds)
            s += "  round " + std::to_string(round.iteration + 1) + ": " +
                 plural(static_cast<long long>(round.n_candidates), "point") + " on " +
                 plural(round.n_resources, "row") + "\n";
        s += "\n";
    }
    const std::size_t resumed = r.points.size() - r.fitted_points;
    if (resumed > 0)
        s += plural(static_cast<long long>(resumed), "point") + " taken from --resume, " +
             std::to_string(r.fitted_points) + " fitted now\n\n";
    return s;
}

std::string nested_text(const NestedSearchResult& r) {
    std::ostringstream os;
    os << "nested cross-validation: each outer fold tuned on its own training rows\n\n";
    os << std::setw(7) << "outer" << std::setw(10) << "inner" << std::setw(10) << "test" << "  best point\n";
    for (const auto& o : r.outer) {
        std::string point;
        for (const auto& [name, value] : o.best_point) point += (point.empty() ? "" : " ") + name + "=" + value;
        os << std::setw(7) << o.index + 1 << std::setw(10) << format_fixed(o.inner_score, 4) << std::setw(10)
           << format_fixed(o.test_score, 4) << "  " << point << "\n";
    }
    os << "\nestimate of the tuned model: " << r.metric << " = " << format_fixed(r.score.mean, 4) << " +/- "
       << format_fixed(r.score.std, 4) << " over " << plural(static_cast<long long>(r.outer.size()), "outer fold") << "\n";
    return os.str();
}

}  // namespace kestrel::cli
