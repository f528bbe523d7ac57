#include "kestrel/tasks/auto_report.hpp"

#include <filesystem>
#include <sstream>

#include "kestrel/core/number_text.hpp"
#include "kestrel/core/text_pieces.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/report/svg_plot.hpp"
#include "kestrel/tasks/prediction_plots.hpp"

namespace kestrel {
namespace {

std::string spelled(const ErrorText& text, const AutoReportOptions& options) {
    return options.option_spelling ? text.respelled(options.option_spelling) : text.text();
}

std::string ensemble_markdown(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::ostringstream os;
    os << "\n## Ensemble\n\nEnsemble selection (" << e.rounds << " rounds over the best " << e.pool
       << " candidates that can join), " << auto_ensemble_verdict(e, r.metric) << ".";
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
        os << ", and " << format_fixed(e.best_single, 4) << " for the leaderboard's winner on the same folds";
        os << ".";
    }
    os << "\n";
    return os.str();
}

void leaderboard_markdown(std::ostream& os, const AutoResult& r) {
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
}

std::string stack_markdown(const AutoResult& r) {
    const AutoStack& s = *r.stack;
    std::ostringstream os;
    os << "\n## Stacking\n\nA second layer over the out-of-fold predictions of " << s.members.size()
       << " first-layer candidates (ranks";
    for (const std::size_t m : s.members) os << " " << m + 1;
    os << ")" << (s.features ? " and the table's own columns" : "") << ", " << auto_stack_verdict(s, r.metric) << ".\n";
    if (!s.candidates.empty()) {
        os << "\n| second layer | parameters | cv " << r.metric << " | std | seconds |\n|---|---|---:|---:|---:|\n";
        for (const auto& c : s.candidates)
            os << "| " << c.model << " | " << auto_point_text(c.point) << " | " << format_fixed(c.score.mean, 4) << " | "
               << format_fixed(c.score.std, 4) << " | " << format_fixed(c.seconds, 2) << " |\n";
    }
    return os.str();
}

void choice_markdown(std::ostream& os, const AutoRun& run, const AutoRecipe& recipe) {
    const AutoResult& r = run.result;
    if (run.chose_stack()) {
        const AutoStack& s = *r.stack;
        os << "\n## Chosen model\n\nThe stack above: " << s.best().model << " (" << auto_point_text(s.best().point)
           << ") over its first-layer members";
        if (!run.output.empty())
            os << (run.fold_models > 0 ? ", each layer's models the " + std::to_string(run.fold_models) + " fold models"
                                       : std::string(", every model refit on all rows"))
               << ", saved to `" << run.output << "`";
        os << ". Each first-layer member from " << recipe.tool << ":\n\n";
        for (std::size_t m : s.members) os << "    " << recipe.line(r.leaderboard[m]) << "\n";
        return;
    }
    if (run.chose_ensemble()) {
        os << "\n## Chosen model\n\nThe ensemble above";
        if (!run.output.empty())
            os << (run.fold_models > 0 ? ", each member the average of its " + std::to_string(run.fold_models) + " fold models"
                                       : std::string(", its members refit on all rows"))
               << ", saved to `" << run.output << "`";
        os << ". Each member from " << recipe.tool << ":\n\n";
        for (std::size_t m : r.ensemble->members) os << "    " << recipe.line(r.leaderboard[m]) << "\n";
        return;
    }
    const auto& b = r.best();
    os << "\n## Chosen model\n\n" << b.model << " (" << auto_point_text(b.point) << "): " << r.metric << " "
       << format_fixed(b.score.mean, 4) << " +/- " << format_fixed(b.score.std, 4) << ".\n";
    if (!run.output.empty() && run.fold_models > 0)
        os << "Saved to `" << run.output << "` as the average of its " << run.fold_models
           << " fold models, the models its cross-validation scored.\n";
    else if (!run.output.empty())
        os << "Refit on all rows and saved to `" << run.output << "`.\n";
    if (run.fold_models == 0 && b.refit_point != b.point) os << auto_refit_rounds_text(b) << "\n";
    os << "\n" << (run.fold_models > 0 ? "The candidate refit on all rows instead, from " : "The same model from ")
       << recipe.tool << ":\n\n    " << recipe.line(b) << "\n";
}

}  // namespace

std::string auto_point_text(const GridPoint& point) {
    if (point.empty()) return "defaults";
    std::string s;
    for (const auto& [name, value] : point) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s;
}

ErrorText auto_stop_text(const AutoResult& r, const AutoOptions& o) {
    const std::string n = plural(static_cast<long long>(r.evaluations()), "evaluation");
    std::string screened = r.screened > 0 ? ", " + plural(static_cast<long long>(r.screened), "candidate") + " screened out by halving" : "";
    if (r.confirmed > 0)
        screened += ", " + plural(static_cast<long long>(r.confirmed), "leader") + " confirmed on " +
                    plural(r.confirmation_rounds, "fresh split");
    if (r.stopped_by == "max-evals")
        return n + " (" + option_named("max_evals") + " " + std::to_string(o.max_evals) + ")" + screened;
    if (r.stopped_by == "time-budget")
        return n + " within " + option_named("time_budget") + " " + format_number(o.time_budget) + "s" + screened;
    return ErrorText(n + screened + ": every search space exhausted");
}

std::string auto_ensemble_verdict(const AutoEnsemble& e, const std::string& metric) {
    if (e.members.empty()) return "no ensemble: " + e.note;
    const std::string kept = e.kept ? "kept" : "not kept";
    // Six decimals: the two often agree to the leaderboard's four.
    if (e.held_out_scores.empty())
        return kept + ": cv " + metric + " " + format_fixed(e.score.mean, 6) + (e.kept ? " beats " : " does not beat ") +
               "the best single model's " + format_fixed(e.best_single, 6);
    return kept + ": on folds its selection did not see, cv " + metric + " " + format_fixed(e.held_out.mean, 6) +
           (e.kept ? " beats " : " does not beat ") + "the best single model's " + format_fixed(e.held_out_single.mean, 6) +
           " and the winner's own " + format_fixed(e.best_single, 6) + " on the same folds (on the folds it was selected on: " +
           format_fixed(e.score.mean, 6) + ")";
}

std::string auto_stack_verdict(const AutoStack& s, const std::string& metric) {
    if (s.candidates.empty()) return "no stack: " + s.note;
    const AutoStackCandidate& b = s.best();
    return std::string(s.kept ? "kept" : "not kept") + ": the second layer's " + b.model + " scores cv " + metric + " " +
           format_fixed(b.score.mean, 6) + " out of fold, " + (s.kept ? "beating" : "not beating") + " the " + s.rival +
           "'s " + format_fixed(s.rival_mean, 6) + " by " + format_fixed(s.margin, 6);
}

std::string auto_time_text(const AutoRun& run) {
    const AutoTimes& t = run.result.times;
    std::string text = format_duration(t.reading) + " reading, " + format_duration(t.search) + " the search, " +
                       format_duration(t.confirmation) + " confirming the leaders";
    if (run.result.ensemble) text += ", " + format_duration(t.ensemble) + " the ensemble";
    if (run.result.stack) text += ", " + format_duration(t.stack) + " the stack";
    if (!run.output.empty())
        text += ", " + format_duration(t.final_fits) + " the final fits and writing the model" +
                (run.options.time_budget > 0 ? " (" + format_duration(t.final_fits_reserved) + " kept for them)" : "");
    text += "; " + format_duration(t.total) + " in all";
    if (run.options.time_budget > 0) text += " of the " + format_duration(run.options.time_budget) + " budget";
    return text;
}

std::string auto_refit_rounds_text(const AutoCandidate& c) {
    std::string rounds;
    for (const long long r : c.fold_rounds) rounds += (rounds.empty() ? "" : ", ") + std::to_string(r);
    std::string n;
    for (const auto& [name, value] : c.refit_point)
        if (name == "n_estimators") n = value;
    return "Early stopping kept " + rounds + " rounds on the folds; the refit on all rows boosts their mean, " + n +
           " rounds, with no hold-out (n_estimators=" + n + " early_stopping_rounds=0).";
}

std::string auto_score_time_svg(const AutoRun& run) {
    const AutoResult& r = run.result;
    const AutoProgress progress = auto_best_so_far(r);
    report::LinePlot plot;
    plot.title = "kestrel-auto on " + plot_source_name(run.source) + ": best cv " + r.metric + " against time";
    plot.x_label = "seconds since the start (reading included)";
    plot.y_label = "cv " + r.metric + " (mean over " + std::to_string(r.n_splits) + " folds)";
    plot.step = true;
    plot.series.push_back({"best cv " + r.metric + " so far", progress.seconds, progress.best, {}, true});
    return report::render_line_plot(plot);
}

std::string auto_report_svg_path(const std::string& report_path) {
    std::filesystem::path p(report_path);
    if (p.extension() == ".svg") return report_path + ".svg";
    return p.replace_extension(".svg").string();
}

std::string auto_report_markdown(const AutoRun& run, const AutoReportOptions& options, const std::string& svg_name) {
    const AutoResult& r = run.result;
    std::ostringstream os;
    os << "# kestrel-auto on " << run.source << "\n\n"
       << "Task " << to_string(run.task) << ", metric " << r.metric
       << (r.greater_is_better ? " (higher is better)" : " (lower is better)") << ", " << r.n_splits
       << "-fold cross-validation (the same folds for every candidate), seed " << options.seed << ".\n"
       << "Ran " << spelled(auto_stop_text(r, run.options), options) << " in " << format_duration(r.seconds)
       << "; portfolio:";
    for (const auto& m : r.portfolio) os << " " << m;
    os << ".\n\n![best cv " << r.metric << " against time](" << svg_name << ")\n\n## Leaderboard\n\n";
    leaderboard_markdown(os, r);
    if (r.ensemble) os << ensemble_markdown(r);
    if (r.stack) os << stack_markdown(r);
    choice_markdown(os, run, options.recipe);
    os << "\n## Where the time went\n\n" << auto_time_text(run) << ".\n";
    return os.str();
}

void write_auto_report(const std::string& path, const AutoRun& run, const AutoReportOptions& options) {
    const std::string svg = auto_report_svg_path(path);
    write_file_atomically(svg, auto_score_time_svg(run));
    write_file_atomically(path, auto_report_markdown(run, options, std::filesystem::path(svg).filename().string()));
}

}  // namespace kestrel
