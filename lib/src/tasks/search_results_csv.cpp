#include "kestrel/tasks/search_results_csv.hpp"

#include <charconv>
#include <cstdint>
#include <fstream>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel {
namespace {

// Appends ",value" (appending, not "," + value: GCC 12 warns falsely on the latter).
void append_results_field(std::string& out, const std::string& value) {
    out += ',';
    out += value;
}

// One CSV record, RFC 4180 quotes (as csv_field writes them).
std::vector<std::string> split_results_record(const std::string& line) {
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

double read_results_number(const std::string& s, const std::string& where) {
    if (s == "nan" || s == "NaN" || s == "-nan") return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw DataError(where + ": '" + s + "' is not a number");
    return v;
}

}  // namespace

std::string results_csv(const GridSearchResult& r, const std::vector<GridAxis>& axes) {
    const bool halving = r.kind == "halving";
    std::string out = "rank";
    for (const auto& a : axes) append_results_field(out, csv_field(a.name));
    out += ",mean_" + r.metric + ",std_" + r.metric + ",mean_fit_seconds";
    for (std::size_t f = 0; f < r.best().fold_scores.size(); ++f) out += ",fold" + std::to_string(f + 1);
    if (halving) out += ",iteration,n_resources";
    out += "\n";
    for (const auto& p : r.points) {
        out += std::to_string(p.rank);
        for (const auto& [name, value] : p.point) append_results_field(out, csv_field(value));
        append_results_field(out, format_number(p.score.mean));
        append_results_field(out, format_number(p.score.std));
        append_results_field(out, format_number(p.fit_seconds));
        for (double s : p.fold_scores) append_results_field(out, format_number(s));
        if (halving) {
            append_results_field(out, std::to_string(p.iteration));
            append_results_field(out, std::to_string(p.n_resources));
        }
        out += "\n";
    }
    return out;
}

std::vector<GridPointResult> read_results_csv(const std::string& path, const std::vector<GridAxis>& axes,
                                              const std::string& metric, std::size_t n_splits) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path + ": cannot open file (" + option_named("known") + ")");
    std::string line;
    if (!std::getline(in, line)) return {};
    const auto header = split_results_record(line);
    const std::size_t na = axes.size();
    std::vector<std::string> expected{"rank"};
    for (const auto& a : axes) expected.push_back(a.name);
    expected.push_back("mean_" + metric);
    expected.push_back("std_" + metric);
    expected.emplace_back("mean_fit_seconds");
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (i >= header.size() || header[i] != expected[i]) {
            if (i == na + 1 && i < header.size() && header[i].rfind("mean_", 0) == 0)
                throw UsageError(option_named("known") + " " + path + ": scored with metric " + header[i].substr(5) + ", this search uses " +
                                 metric);
            throw UsageError(option_named("known") + " " + path + ": column " + std::to_string(i + 1) + " is '" +
                             (i < header.size() ? header[i] : std::string()) + "', expected '" + expected[i] +
                             "' (the same " + option_named("grid") + " axes, in the same order)");
        }
    }
    std::size_t folds = 0;
    while (expected.size() + folds < header.size() && header[expected.size() + folds].rfind("fold", 0) == 0) ++folds;
    if (folds != n_splits)
        throw UsageError(option_named("known") + " " + path + ": scored with " + std::to_string(folds) + " splits, this search has " +
                         std::to_string(n_splits));

    std::vector<GridPointResult> out;
    std::uint64_t line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty() || line == "\r") continue;
        const auto f = split_results_record(line);
        const std::string where = path + ":" + std::to_string(line_no);
        if (f.size() < expected.size() + folds) throw DataError(where + ": too few fields");
        GridPointResult p;
        for (std::size_t a = 0; a < na; ++a) p.point.emplace_back(axes[a].name, f[1 + a]);
        p.score.mean = read_results_number(f[na + 1], where);
        p.score.std = read_results_number(f[na + 2], where);
        p.fit_seconds = read_results_number(f[na + 3], where);
        for (std::size_t k = 0; k < folds; ++k) p.fold_scores.push_back(read_results_number(f[na + 4 + k], where));
        p.resumed = true;
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace kestrel
