#include "common/search_flags.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "common/prediction_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel::cli {

namespace {

// Appends ",value" (appending, not "," + value: GCC 12 warns falsely on the latter).
void add(std::string& out, const std::string& value) {
    out += ',';
    out += value;
}

// One CSV record, RFC 4180 quotes (as csv_field writes them).
std::vector<std::string> split_record(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

double read_number(const std::string& s, const std::string& where) {
    if (s == "nan" || s == "NaN" || s == "-nan") return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw DataError(where + ": '" + s + "' is not a number");
    return v;
}

}  // namespace

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

std::string results_csv(const GridSearchResult& r, const std::vector<GridAxis>& axes) {
    const bool halving = r.kind == "halving";
    std::string out = "rank";
    for (const auto& a : axes) add(out, csv_field(a.name));
    out += ",mean_" + r.metric + ",std_" + r.metric + ",mean_fit_seconds";
    for (std::size_t f = 0; f < r.best().fold_scores.size(); ++f) out += ",fold" + std::to_string(f + 1);
    if (halving) out += ",iteration,n_resources";
    out += "\n";
    for (const auto& p : r.points) {
        out += std::to_string(p.rank);
        for (const auto& [name, value] : p.point) add(out, csv_field(value));
        add(out, format_number(p.score.mean));
        add(out, format_number(p.score.std));
        add(out, format_number(p.fit_seconds));
        for (double s : p.fold_scores) add(out, format_number(s));
        if (halving) {
            add(out, std::to_string(p.iteration));
            add(out, std::to_string(p.n_resources));
        }
        out += "\n";
    }
    return out;
}

std::vector<GridPointResult> read_results_csv(const std::string& path, const std::vector<GridAxis>& axes,
                                              const std::string& metric, std::size_t n_splits) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path + ": cannot open file (--resume)");
    std::string line;
    if (!std::getline(in, line)) return {};
    const auto header = split_record(line);
    const std::size_t na = axes.size();
    std::vector<std::string> expected{"rank"};
    for (const auto& a : axes) expected.push_back(a.name);
    expected.push_back("mean_" + metric);
    expected.push_back("std_" + metric);
    expected.emplace_back("mean_fit_seconds");
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (i >= header.size() || header[i] != expected[i]) {
            if (i == na + 1 && i < header.size() && header[i].rfind("mean_", 0) == 0)
                throw UsageError("--resume " + path + ": scored with metric " + header[i].substr(5) + ", this search uses " +
                                 metric);
            throw UsageError("--resume " + path + ": column " + std::to_string(i + 1) + " is '" +
                             (i < header.size() ? header[i] : std::string()) + "', expected '" + expected[i] +
                             "' (the same -g axes, in the same order)");
        }
    }
    std::size_t folds = 0;
    while (expected.size() + folds < header.size() && header[expected.size() + folds].rfind("fold", 0) == 0) ++folds;
    if (folds != n_splits)
        throw UsageError("--resume " + path + ": scored with " + std::to_string(folds) + " splits, this search has " +
                         std::to_string(n_splits));

    std::vector<GridPointResult> out;
    std::uint64_t line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty() || line == "\r") continue;
        const auto f = split_record(line);
        const std::string where = path + ":" + std::to_string(line_no);
        if (f.size() < expected.size() + folds) throw DataError(where + ": too few fields");
        GridPointResult p;
        for (std::size_t a = 0; a < na; ++a) p.point.emplace_back(axes[a].name, f[1 + a]);
        p.score.mean = read_number(f[na + 1], where);
        p.score.std = read_number(f[na + 2], where);
        p.fit_seconds = read_number(f[na + 3], where);
        for (std::size_t k = 0; k < folds; ++k) p.fold_scores.push_back(read_number(f[na + 4 + k], where));
        p.resumed = true;
        out.push_back(std::move(p));
    }
    return out;
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

Json nested_json(const NestedSearchResult& r) {
    Json j = {{"metric", r.metric}, {"mean", r.score.mean}, {"std", r.score.std}, {"outer", Json::array()}};
    for (const auto& o : r.outer) {
        Json point = Json::object();
        for (const auto& [name, value] : o.best_point) point[name] = value;
        j["outer"].push_back({{"fold", o.index + 1}, {"params", point}, {"inner_score", o.inner_score},
                              {"test_score", o.test_score}});
    }
    return j;
}

}  // namespace kestrel::cli
