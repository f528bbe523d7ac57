#include "kestrel/tasks/search_text.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "kestrel/core/number_text.hpp"
#include "kestrel/core/text_pieces.hpp"

namespace kestrel {

std::string search_points_text(const GridSearchResult& r, const std::vector<GridAxis>& axes, std::size_t max_rows) {
    std::ostringstream os;
    std::vector<std::size_t> w;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        std::size_t width = axes[i].name.size();
        for (const auto& p : r.points) width = std::max(width, p.point[i].second.size());
        w.push_back(width + 2);
    }
    os << std::setw(5) << "rank";
    for (std::size_t i = 0; i < axes.size(); ++i) os << std::setw(static_cast<int>(w[i])) << axes[i].name;
    os << std::setw(12) << "mean" << std::setw(10) << "std" << std::setw(10) << "fit_s" << "\n";
    for (std::size_t i = 0; i < r.points.size() && i < max_rows; ++i) {
        const auto& p = r.points[i];
        os << std::setw(5) << p.rank;
        for (std::size_t a = 0; a < p.point.size(); ++a) os << std::setw(static_cast<int>(w[a])) << p.point[a].second;
        os << std::fixed << std::setprecision(4) << std::setw(12) << p.score.mean << std::setw(10) << p.score.std
           << std::setprecision(3) << std::setw(10) << p.fit_seconds << "\n";
        os.unsetf(std::ios::fixed);
    }
    return os.str();
}

std::string splits_text(const SplitOptions& s, std::size_t n_splits) {
    const auto n = static_cast<long long>(n_splits);
    switch (s.scheme) {
        case CvScheme::kfold:
            return plural(s.k, "fold") + (s.repeats > 1 ? " x " + std::to_string(s.repeats) + " repeats" : std::string());
        case CvScheme::leave_one_out: return "leave-one-out (" + plural(n, "fold") + ")";
        case CvScheme::shuffle_split: return plural(n, "shuffle-split");
        case CvScheme::group_kfold: return "group " + plural(s.k, "fold");
        case CvScheme::fixed: return "a train/validation split";
    }
    return "";
}

ErrorText search_rounds_text(const GridSearchResult& r) {
    ErrorText s;
    if (!r.rounds.empty()) {
        s += "successive halving, factor 3 (rows per round x3, points kept /3):\n";
        for (const auto& round : r.rounds)
            s += "  round " + std::to_string(round.iteration + 1) + ": " +
                 plural(static_cast<long long>(round.n_candidates), "point") + " on " +
                 plural(round.n_resources, "row") + "\n";
        s += "\n";
    }
    const std::size_t resumed = r.points.size() - r.fitted_points;
    if (resumed > 0)
        s += plural(static_cast<long long>(resumed), "point") + " taken from " + option_named("known") + ", " +
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

}  // namespace kestrel
