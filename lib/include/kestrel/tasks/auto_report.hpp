#pragma once
// The report of an auto run (kestrel/tasks/auto_task.hpp) as a document a user keeps:
// Markdown with the leaderboard, the ensemble's verdict and the choice, and beside it an
// SVG of the best cv score against time. The front end says how its users rebuild the
// choice (a command line, a constructor call) and how it spells the options named in the
// text; the JSON is auto_json.hpp's.
#include <cstdint>
#include <functional>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/tasks/auto_task.hpp"

namespace kestrel {

// How the report tells its reader to rebuild the choice: "The same model from <tool>:"
// then `line` of the chosen candidate, or "Each member from <tool>:" and one line per
// member of the kept ensemble.
struct AutoRecipe {
    std::string tool;
    std::function<std::string(const AutoCandidate&)> line;
};

struct AutoReportOptions {
    std::uint64_t seed = 0;
    AutoRecipe recipe;
    // How the front end spells an option the text names (ErrorText::respelled); empty:
    // the library's own words.
    std::function<std::string(const std::string& key)> option_spelling;
};

// "C=1 scale=standard", or "defaults" for the empty point.
std::string auto_point_text(const GridPoint& point);

// What ended the search: "12 evaluations (max_evals 12)", "... within time_budget 60s",
// "...: every search space exhausted", with the screened and confirmed counts.
ErrorText auto_stop_text(const AutoResult& result, const AutoOptions& options);

// Whether the ensemble was kept, and the scores that decided it.
std::string auto_ensemble_verdict(const AutoEnsemble& ensemble, const std::string& metric);

// Whether the stack was kept, and the out-of-fold scores that decided it.
std::string auto_stack_verdict(const AutoStack& stack, const std::string& metric);

// Where the run's wall time went (AutoTimes), one sentence: "1.20 s reading, 40.1 s the
// search, ..., 5.02 s the final fits (5.30 s kept for them); 48.9 s in all of the 60.0 s budget".
std::string auto_time_text(const AutoRun& run);

// Why the refit's n_estimators differs from the candidate's: early stopping on the folds.
std::string auto_refit_rounds_text(const AutoCandidate& candidate);

// The report's plot: the best cv mean so far against the seconds since the start.
std::string auto_score_time_svg(const AutoRun& run);

// report.md -> report.svg: where write_auto_report puts the plot (a report itself named
// .svg gets report.svg.svg rather than being overwritten).
std::string auto_report_svg_path(const std::string& report_path);

// The Markdown, its plot linked as `svg_name`.
std::string auto_report_markdown(const AutoRun& run, const AutoReportOptions& options, const std::string& svg_name);

// Writes the Markdown to `path` and the plot beside it, each atomically.
void write_auto_report(const std::string& path, const AutoRun& run, const AutoReportOptions& options);

}  // namespace kestrel
