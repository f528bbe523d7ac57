#include "common/auto_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/flag_spelling.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tasks/auto_report.hpp"

namespace kestrel::cli {
namespace {

std::string stop_text(const AutoRun& run) { return auto_stop_text(run.result, run.options).respelled(flag_spelling); }

std::string ensemble_text(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::string s = "\nensemble (" + std::to_string(e.rounds) + " rounds, pool of " + std::to_string(e.pool) +
                    "): " + auto_ensemble_verdict(e, r.metric) + "\n";
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        s += "  " + format_fixed(e.weights[i], 2) + "  rank " + std::to_string(e.members[i] + 1) + " " + c.model + " " +
             auto_point_text(c.point) + "\n";
    }
    return s;
}

std::string stack_text(const AutoResult& r) {
    const AutoStack& st = *r.stack;
    std::string s = "\nstack (" + std::to_string(st.members.size()) + " first-layer members" +
                    (st.features ? " and the table's own columns" : "") + "): " +
                    auto_stack_verdict(st, r.metric) + "\n";
    for (const std::size_t m : st.members) {
        const AutoCandidate& c = r.leaderboard[m];
        s += "  input  rank " + std::to_string(m + 1) + " " + c.model + " " + auto_point_text(c.point) + "\n";
    }
    for (const auto& c : st.candidates)
        s += "  second layer " + c.model + " " + auto_point_text(c.point) + "  " + r.metric + " = " +
             format_fixed(c.score.mean, 4) + " +/- " + format_fixed(c.score.std, 4) + "\n";
    return s;
}

// The kestrel-train line that refits a candidate: what the report tells a user to run to
// reproduce the saved model.
std::string train_command(const AutoCandidate& c, const std::string& input, const std::string& task,
                          const DataFlags& data, const std::string& encode, std::uint64_t seed) {
    std::string s = "kestrel-train -m " + c.model;
    for (const auto& [name, value] : c.refit_point) {
        if (name == "scale") s += " --scale " + value;
        else s += " -p " + name + "=" + value;
    }
    if (!data.label_col.empty()) s += " --label-col " + data.label_col;
    if (encode != "auto") s += " --encode " + encode;
    return s + " --task " + task + " " + input + " -o BEST.json --seed " + std::to_string(seed);
}

}  // namespace

void write_auto_report(const std::string& path, const AutoRun& run, const std::string& input, std::uint64_t seed,
                       const DataFlags& data, const std::string& encode) {
    AutoReportOptions options;
    options.seed = seed;
    options.option_spelling = flag_spelling;
    const std::string task = to_string(run.task);
    options.recipe = {"kestrel-train", [&](const AutoCandidate& c) {
                          return train_command(c, input, task, data, encode, seed);
                      }};
    kestrel::write_auto_report(path, run, options);
}

std::string auto_leaderboard_text(const AutoRun& run, std::uint64_t seed) {
    const AutoResult& r = run.result;
    const std::string& metric = run.options.metric;
    const AutoCandidate& best = r.best();
    std::ostringstream o;
    o << "kestrel-auto on " << run.source << ": " << to_string(run.task) << ", metric " << metric << ", " << r.n_splits
      << "-fold cv, seed " << seed << "; ran " << stop_text(run) << " in " << format_duration(r.seconds) << "\n\n";
    o << std::setw(5) << "rank" << "  " << std::left << std::setw(14) << "model" << std::right << std::setw(10) << "mean"
      << std::setw(9) << "std" << std::setw(9) << "fit_s" << "  parameters\n";
    const std::size_t shown = std::min<std::size_t>(r.leaderboard.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& c = r.leaderboard[i];
        o << std::setw(5) << i + 1 << "  " << std::left << std::setw(14) << (c.confirmed() ? c.model + " *" : c.model)
          << std::right << std::setw(10) << format_fixed(c.score.mean, 4) << std::setw(9) << format_fixed(c.score.std, 4)
          << std::setw(9) << format_fixed(c.fit_seconds, 3) << "  " << auto_point_text(c.point) << "\n";
    }
    if (r.leaderboard.size() > shown) o << "  ... " << r.leaderboard.size() - shown << " more (--report or --json has all)\n";
    if (r.confirmed > 0)
        o << "  * a leader confirmed on fresh " << r.n_splits << "-fold splits (up to " << r.confirmation_rounds
          << "): mean and std over those folds only\n";
    for (const auto& s : r.skipped) o << "not searched: " << s.model << ": " << s.reason << "\n";
    if (!r.failed.empty())
        o << plural(static_cast<long long>(r.failed.size()), "candidate") << " refused by the table (--report lists them)\n";
    if (r.ensemble) o << ensemble_text(r);
    if (r.stack) o << stack_text(r);
    o << "\nbest: " << best.model << " " << auto_point_text(best.point) << "  " << metric << " = "
      << format_fixed(best.score.mean, 4) << " +/- " << format_fixed(best.score.std, 4) << "\n";
    if (!run.output.empty()) {
        if (run.chose_stack())
            o << "the stack: its " << r.stack->members.size() << " first-layer members and its second layer, "
              << (run.fold_models > 0 ? "each the average of its " + std::to_string(run.fold_models) + " fold models"
                                      : std::string("each refit on all rows"))
              << " -> " << run.output << "\n";
        else if (run.fold_models > 0)
            o << (run.chose_ensemble() ? "the ensemble's members, each the average of its " : "the average of its ")
              << run.fold_models << " fold models -> " << run.output << "\n";
        else
            o << (run.chose_ensemble() ? "the ensemble's members refit" : "refit") << " on all "
              << plural(run.rows, "row") << " -> " << run.output << "\n";
        if (run.fold_models == 0 && !run.chose_ensemble() && !run.chose_stack() && best.refit_point != best.point)
            o << auto_refit_rounds_text(best) << "\n";
    }
    o << "time: " << auto_time_text(run) << "\n";
    return o.str();
}

}  // namespace kestrel::cli
