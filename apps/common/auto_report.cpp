#include "common/auto_report.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "common/curves_output.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/report/svg_plot.hpp"

namespace kestrel::cli {
namespace {

// "C=1 scale=standard", or "defaults" for the empty point.
std::string auto_point_text(const GridPoint& point) {
    if (point.empty()) return "defaults";
    std::string s;
    for (const auto& [name, value] : point) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s;
}

std::string stop_text(const AutoResult& r, const AutoOptions& o) {
    const std::string n = plural(static_cast<long long>(r.evaluations()), "evaluation");
    std::string screened =
        r.screened > 0 ? ", " + plural(static_cast<long long>(r.screened), "candidate") + " screened out by halving" : "";
    if (r.confirmed > 0)
        screened += ", " + plural(static_cast<long long>(r.confirmed), "leader") + " confirmed on " +
                    plural(r.confirmation_rounds, "fresh split");
    if (r.stopped_by == "max-evals") return n + " (--max-evals " + std::to_string(o.max_evals) + ")" + screened;
    if (r.stopped_by == "time-budget") return n + " within --time-budget " + format_number(o.time_budget) + "s" + screened;
    return n + screened + ": every search space exhausted";
}

std::string verdict(const AutoEnsemble& e, const std::string& metric) {
    if (e.members.empty()) return "no ensemble: " + e.note;
    const std::string kept = e.kept ? "kept" : "not kept";
    // Six decimals: the two often agree to the leaderboard's four.
    if (e.held_out_scores.empty())
        return kept + ": cv " + metric + " " + format_fixed(e.score.mean, 6) + (e.kept ? " beats " : " does not beat ") +
               "the best single model's " + format_fixed(e.best_single, 6);
    const std::string confirmed =
        e.against_confirmed ? " and the confirmed winner's " + format_fixed(e.confirmed_single, 6) + " on its fresh splits" : "";
    return kept + ": on folds its selection did not see, cv " + metric + " " + format_fixed(e.held_out.mean, 6) +
           (e.kept ? " beats " : " does not beat ") + "the best single model's " + format_fixed(e.held_out_single.mean, 6) +
           confirmed + " (on the folds it was selected on: " + format_fixed(e.score.mean, 6) + " against " +
           format_fixed(e.best_single, 6) + ")";
}

std::string ensemble_markdown(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::ostringstream os;
    os << "\n## Ensemble\n\nEnsemble selection (" << e.rounds << " rounds over the best " << e.pool
       << " candidates that can join), " << verdict(e, r.metric) << ".";
    if (e.members.empty()) return os.str() + "\n";
    os << " Its score reuses the out-of-fold predictions it was selected on, so it is optimistic "
          "(docs/auto.md).\n\n| leaderboard rank | model | parameters | cv mean | weight |\n|---:|---|---|---:|---:|\n";
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        os << "| " << e.members[i] + 1 << " | " << c.model << " | " << auto_point_text(c.point) << " | "
           << format_fixed(c.score.mean, 4) << " | " << format_fixed(e.weights[i], 2) << " |\n";
    }
    os << "\nEnsemble cv " << r.metric << ": " << format_fixed(e.score.mean, 4) << " +/- " << format_fixed(e.score.std, 4)
       << ".";
    if (!e.held_out_scores.empty()) {
        os << " Held out (each fold scored by a selection made on the other folds): " << format_fixed(e.held_out.mean, 4)
           << " +/- " << format_fixed(e.held_out.std, 4) << ", against " << format_fixed(e.held_out_single.mean, 4)
           << " +/- " << format_fixed(e.held_out_single.std, 4) << " for the single model chosen the same way";
        if (e.against_confirmed)
            os << ", and " << format_fixed(e.confirmed_single, 4) << " for the confirmed winner on its fresh splits";
        os << ".";
    }
    os << "\n";
    return os.str();
}

std::string ensemble_text(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::string s = "\nensemble (" + std::to_string(e.rounds) + " rounds, pool of " + std::to_string(e.pool) +
                    "): " + verdict(e, r.metric) + "\n";
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        s += "  " + format_fixed(e.weights[i], 2) + "  rank " + std::to_string(e.members[i] + 1) + " " + c.model + " " +
             auto_point_text(c.point) + "\n";
    }
    return s;
}

// The report's plot: the best cv mean found so far against the seconds since the command
// started, one step per evaluation (where the budget went, and when it stopped paying).
std::string score_time_svg(const AutoResult& r, const std::string& source) {
    const AutoProgress progress = auto_best_so_far(r);
    report::LinePlot plot;
    plot.title = "kestrel-auto on " + plot_source_name(source) + ": best cv " + r.metric + " against time";
    plot.x_label = "seconds since the start (reading included)";
    plot.y_label = "cv " + r.metric + " (mean over " + std::to_string(r.n_splits) + " folds)";
    plot.step = true;
    plot.series.push_back({"best cv " + r.metric + " so far", progress.seconds, progress.best, {}, true});
    return report::render_line_plot(plot);
}

// report.md -> report.svg: the plot sits beside the report, under the same stem (a report
// itself named .svg gets report.svg.svg rather than being overwritten).
std::string svg_path_for(const std::string& report_path) {
    std::filesystem::path p(report_path);
    if (p.extension() == ".svg") return report_path + ".svg";
    return p.replace_extension(".svg").string();
}

// Why the refit's n_estimators differs from the candidate's: early stopping on the folds.
std::string refit_rounds_text(const AutoCandidate& c) {
    std::string rounds;
    for (const long long r : c.fold_rounds) rounds += (rounds.empty() ? "" : ", ") + std::to_string(r);
    std::string n;
    for (const auto& [name, value] : c.refit_point)
        if (name == "n_estimators") n = value;
    return "Early stopping kept " + rounds + " rounds on the folds; the refit on all rows boosts their mean, " + n +
           " rounds, with no hold-out (n_estimators=" + n + " early_stopping_rounds=0).";
}

// The kestrel-train line that refits the chosen candidate: what the report tells a user
// to run to reproduce the saved model.
std::string train_command(const AutoCandidate& c, const std::string& input, const std::string& task,
                          const DataFlags& data, const std::string& encode) {
    std::string s = "kestrel-train -m " + c.model;
    for (const auto& [name, value] : c.refit_point) {
        if (name == "scale") s += " --scale " + value;
        else s += " -p " + name + "=" + value;
    }
    if (!data.label_col.empty()) s += " --label-col " + data.label_col;
    if (encode != "auto") s += " --encode " + encode;
    return s + " --task " + task + " " + input + " -o BEST.json";
}

std::string report_markdown(const AutoRun& run, const std::string& input, std::uint64_t seed, const DataFlags& data,
                            const std::string& encode, const std::string& svg_name) {
    const AutoResult& r = run.result;
    const std::string task = to_string(run.task);
    std::ostringstream os;
    os << "# kestrel-auto on " << run.source << "\n\n"
       << "Task " << task << ", metric " << r.metric << (r.greater_is_better ? " (higher is better)" : " (lower is better)")
       << ", " << r.n_splits << "-fold cross-validation (the same folds for every candidate), seed " << seed << ".\n"
       << "Ran " << stop_text(r, run.options) << " in " << format_duration(r.seconds) << "; portfolio:";
    for (const auto& m : r.portfolio) os << " " << m;
    os << ".\n\n![best cv " << r.metric << " against time](" << svg_name << ")\n\n## Leaderboard\n\n";
    if (r.confirmed > 0)
        os << "The first " << r.confirmed << " are the leaders confirmed on fresh " << r.n_splits
           << "-fold splits (up to " << r.confirmation_rounds << ", " << r.n_splits
           << " folds each; those clearly behind dropped out after each): their cv mean and std are over the fresh "
              "folds only, and `folds` counts the search's and the fresh ones.\n\n";
    os << "| rank | model | parameters | cv mean | cv std | folds | fit seconds (mean per fold) |\n"
       << "|---:|---|---|---:|---:|---:|---:|\n";
    for (std::size_t i = 0; i < r.leaderboard.size(); ++i) {
        const auto& c = r.leaderboard[i];
        os << "| " << i + 1 << " | " << c.model << " | " << auto_point_text(c.point) << " | " << format_fixed(c.score.mean, 4)
           << " | " << format_fixed(c.score.std, 4) << " | " << c.fold_scores.size() + c.repeat_fold_scores.size()
           << " | " << format_fixed(c.fit_seconds, 3) << " |\n";
    }
    if (!r.skipped.empty()) {
        os << "\n## Not searched\n\n";
        for (const auto& s : r.skipped) os << "- " << s.model << ": " << s.reason << "\n";
    }
    if (!r.failed.empty()) {
        os << "\n## Candidates the table refused\n\n";
        for (const auto& s : r.failed) os << "- " << s.model << ": " << s.reason << "\n";
    }
    if (r.ensemble) os << ensemble_markdown(r);
    const auto& b = r.best();
    if (run.chose_ensemble()) {
        os << "\n## Chosen model\n\nThe ensemble above";
        if (!run.output.empty()) os << ", its members refit on all rows, saved to `" << run.output << "`";
        os << ". Each member from kestrel-train:\n\n";
        for (std::size_t m : r.ensemble->members)
            os << "    " << train_command(r.leaderboard[m], input, task, data, encode) << " --seed " << seed << "\n";
        return os.str();
    }
    os << "\n## Chosen model\n\n" << b.model << " (" << auto_point_text(b.point) << "): " << r.metric << " "
       << format_fixed(b.score.mean, 4) << " +/- " << format_fixed(b.score.std, 4) << ".\n";
    if (!run.output.empty()) os << "Refit on all rows and saved to `" << run.output << "`.\n";
    if (b.refit_point != b.point) os << refit_rounds_text(b) << "\n";
    os << "\nThe same model from kestrel-train:\n\n    " << train_command(b, input, task, data, encode) << " --seed " << seed << "\n";
    return os.str();
}

}  // namespace

void write_auto_report(const std::string& path, const AutoRun& run, const std::string& input, std::uint64_t seed,
                       const DataFlags& data, const std::string& encode) {
    const std::string svg = svg_path_for(path);
    write_file_atomically(svg, score_time_svg(run.result, run.source));
    write_file_atomically(path, report_markdown(run, input, seed, data, encode, std::filesystem::path(svg).filename().string()));
}

std::string auto_leaderboard_text(const AutoRun& run, std::uint64_t seed) {
    const AutoResult& r = run.result;
    const std::string& metric = run.options.metric;
    const AutoCandidate& best = r.best();
    std::ostringstream o;
    o << "kestrel-auto on " << run.source << ": " << to_string(run.task) << ", metric " << metric << ", " << r.n_splits
      << "-fold cv, seed " << seed << "; ran " << stop_text(r, run.options) << " in " << format_duration(r.seconds)
      << "\n\n";
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
    o << "\nbest: " << best.model << " " << auto_point_text(best.point) << "  " << metric << " = "
      << format_fixed(best.score.mean, 4) << " +/- " << format_fixed(best.score.std, 4) << "\n";
    if (!run.output.empty()) {
        o << (run.chose_ensemble() ? "the ensemble's members refit" : "refit") << " on all " << plural(run.rows, "row")
          << " -> " << run.output << "\n";
        if (!run.chose_ensemble() && best.refit_point != best.point) o << refit_rounds_text(best) << "\n";
    }
    return o.str();
}

}  // namespace kestrel::cli
