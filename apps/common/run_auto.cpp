#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "common/auto_ensemble.hpp"
#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/cv_outputs.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/report/svg_plot.hpp"

namespace kestrel::cli {
namespace {

// Without --max-evals or --time-budget, the run gets this many seconds (docs/auto.md).
constexpr const char* kDefaultBudget = "60s";

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

Json result_json(const AutoResult& r, const AutoOptions& o, const std::string& task, const std::string& output) {
    Json j = {{"task", task},
              {"metric", r.metric},
              {"greater_is_better", r.greater_is_better},
              {"folds", r.n_splits},
              {"portfolio", r.portfolio},
              {"evaluations", r.evaluations()},
              {"stopped_by", r.stopped_by},
              {"max_evals", o.max_evals},
              {"time_budget_seconds", o.time_budget},
              {"seconds", r.seconds},
              {"halving_batch", o.halving_batch},
              {"screened", r.screened},
              {"screening_rounds", r.screening_rounds},
              {"confirm_leaders", o.confirm_leaders},
              {"confirm_splits", o.confirm_splits},
              {"confirmed", r.confirmed},
              {"confirmation_rounds", r.confirmation_rounds},
              {"confirmation_fits", r.confirmation_fits},
              {"unconfirmed", r.unconfirmed}};
    j["leaderboard"] = Json::array();
    for (std::size_t i = 0; i < r.leaderboard.size(); ++i) {
        const auto& c = r.leaderboard[i];
        Json entry{{"rank", i + 1},
                   {"order", c.order},
                   {"model", c.model},
                   {"params", auto_point_json(c.point)},
                   {"mean", c.score.mean},
                   {"std", c.score.std},
                   {"fold_scores", c.fold_scores},
                   {"mean_fit_seconds", c.fit_seconds}};
        if (c.confirmed()) entry["repeat_fold_scores"] = c.repeat_fold_scores;
        if (!c.fold_rounds.empty()) {  // early stopping: the rounds per fold, and the refit's
            entry["fold_rounds"] = c.fold_rounds;
            entry["refit_params"] = auto_point_json(c.refit_point);
        }
        j["leaderboard"].push_back(std::move(entry));
    }
    j["skipped"] = Json::array();
    for (const auto& s : r.skipped) j["skipped"].push_back({{"model", s.model}, {"reason", s.reason}});
    j["failed"] = Json::array();
    for (const auto& s : r.failed) j["failed"].push_back({{"candidate", s.model}, {"error", s.reason}});
    j["best"] = j["leaderboard"][0];
    if (r.ensemble) j["ensemble"] = ensemble_json(r);
    if (!output.empty()) j["output"] = output;
    return j;
}

// The report's plot: the best cv mean found so far against the seconds since the command
// started, one step per evaluation (where the budget went, and when it stopped paying).
std::string score_time_svg(const AutoResult& r, const std::string& source) {
    std::vector<const AutoCandidate*> by_order;
    for (const auto& c : r.leaderboard) by_order.push_back(&c);
    std::sort(by_order.begin(), by_order.end(), [](const AutoCandidate* a, const AutoCandidate* b) { return a->order < b->order; });
    report::Series best{"best cv " + r.metric + " so far", {}, {}, {}, true};
    for (const AutoCandidate* c : by_order) {
        const double y = c->score.mean;
        const bool improves = best.y.empty() || (std::isfinite(y) && (!std::isfinite(best.y.back()) ||
                                                                       (r.greater_is_better ? y > best.y.back() : y < best.y.back())));
        best.x.push_back(c->finished_at);
        best.y.push_back(improves ? y : best.y.back());
    }
    report::LinePlot plot;
    plot.title = "kestrel-auto on " + short_source(source) + ": best cv " + r.metric + " against time";
    plot.x_label = "seconds since the start (reading included)";
    plot.y_label = "cv " + r.metric + " (mean over " + std::to_string(r.n_splits) + " folds)";
    plot.step = true;
    plot.series.push_back(std::move(best));
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

std::string report_markdown(const AutoResult& r, const AutoOptions& o, const std::string& source,
                            const std::string& task, const std::string& input, const std::string& output,
                            std::uint64_t seed, const DataFlags& data, const std::string& encode,
                            const std::string& svg_name) {
    std::ostringstream os;
    os << "# kestrel-auto on " << source << "\n\n"
       << "Task " << task << ", metric " << r.metric << (r.greater_is_better ? " (higher is better)" : " (lower is better)")
       << ", " << r.n_splits << "-fold cross-validation (the same folds for every candidate), seed " << seed << ".\n"
       << "Ran " << stop_text(r, o) << " in " << format_duration(r.seconds) << "; portfolio:";
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
    if (r.ensemble && r.ensemble->kept) {
        os << "\n## Chosen model\n\nThe ensemble above";
        if (!output.empty()) os << ", its members refit on all rows, saved to `" << output << "`";
        os << ". Each member from kestrel-train:\n\n";
        for (std::size_t m : r.ensemble->members)
            os << "    " << train_command(r.leaderboard[m], input, task, data, encode) << " --seed " << seed << "\n";
        return os.str();
    }
    os << "\n## Chosen model\n\n" << b.model << " (" << auto_point_text(b.point) << "): " << r.metric << " "
       << format_fixed(b.score.mean, 4) << " +/- " << format_fixed(b.score.std, 4) << ".\n";
    if (!output.empty()) os << "Refit on all rows and saved to `" << output << "`.\n";
    if (b.refit_point != b.point) os << refit_rounds_text(b) << "\n";
    os << "\nThe same model from kestrel-train:\n\n    " << train_command(b, input, task, data, encode) << " --seed " << seed << "\n";
    return os.str();
}

// Refits the choice (the best candidate, or the ensemble's members) on all rows and saves it.
void save_auto_model(const AutoResult& r, const Dataset& d, const DataFlags& data, const std::string& input,
                     const std::string& output, const std::string& metric, std::uint64_t seed, const Context& ctx) {
    const AutoCandidate& best = r.best();
    if (r.ensemble && r.ensemble->kept) {
        Model m = refit_ensemble(r, d, ctx);
        m.provenance()["data_file"] = input == "-" ? "<stdin>" : input;
        m.provenance()["seed"] = seed;
        m.provenance()["auto"] = {{"metric", metric},
                                  {"cv", std::to_string(r.n_splits) + "-fold"},
                                  {"cv_mean", r.ensemble->score.mean},
                                  {"cv_std", r.ensemble->score.std},
                                  {"best_single_cv_mean", r.ensemble->best_single},
                                  {"held_out_mean", r.ensemble->held_out.mean},
                                  {"held_out_single_mean", r.ensemble->held_out_single.mean},
                                  {"ensemble_size", r.ensemble->rounds},
                                  {"evaluations", r.evaluations()}};
        m.save(output);
    } else {
        // A model that reads absent sparse entries as missing (gbdt) is refit on the table
        // read as kestrel-train and kestrel-predict read it for that model.
        const bool reread = input != "-" && registry().capabilities(*resolved_params(best.refit_spec)).absent_is_missing;
        const TrainingDataOptions again = data.training_options(input, ctx.threads);
        Model m = Model::train(best.refit_spec, reread ? read_training_data(again, best.refit_spec) : d, ctx);
        m.provenance()["data_file"] = input == "-" ? "<stdin>" : input;
        m.provenance()["seed"] = seed;
        m.provenance()["auto"] = {{"metric", metric},
                                  {"cv", std::to_string(r.n_splits) + "-fold"},
                                  {"cv_mean", best.score.mean},
                                  {"cv_std", best.score.std},
                                  {"params", auto_point_json(best.refit_point)},
                                  {"evaluations", r.evaluations()}};
        m.save(output);
    }
}

// The leaderboard and the choice, as kestrel-auto prints them without --json.
std::string auto_leaderboard_text(const AutoResult& r, const Dataset& d, const std::string& metric, std::uint64_t seed,
                                  const std::string& output, bool save_ensemble, const AutoOptions& opts) {
    const AutoCandidate& best = r.best();
    const std::string task_name = to_string(d.task);
    std::ostringstream o;
    o << "kestrel-auto on " << d.source << ": " << task_name << ", metric " << metric << ", "
           << r.n_splits << "-fold cv, seed " << seed << "; ran " << stop_text(r, opts) << " in "
           << format_duration(r.seconds) << "\n\n";
    o << std::setw(5) << "rank" << "  " << std::left << std::setw(14) << "model" << std::right << std::setw(10)
           << "mean" << std::setw(9) << "std" << std::setw(9) << "fit_s" << "  parameters\n";
    const std::size_t shown = std::min<std::size_t>(r.leaderboard.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& c = r.leaderboard[i];
        o << std::setw(5) << i + 1 << "  " << std::left << std::setw(14) << (c.confirmed() ? c.model + " *" : c.model)
               << std::right << std::setw(10) << format_fixed(c.score.mean, 4) << std::setw(9) << format_fixed(c.score.std, 4) << std::setw(9)
               << format_fixed(c.fit_seconds, 3) << "  " << auto_point_text(c.point) << "\n";
    }
    if (r.leaderboard.size() > shown)
        o << "  ... " << r.leaderboard.size() - shown << " more (--report or --json has all)\n";
    if (r.confirmed > 0)
        o << "  * a leader confirmed on fresh " << r.n_splits << "-fold splits (up to "
               << r.confirmation_rounds << "): mean and std over those folds only\n";
    for (const auto& s : r.skipped) o << "not searched: " << s.model << ": " << s.reason << "\n";
    if (!r.failed.empty()) o << plural(static_cast<long long>(r.failed.size()), "candidate") << " refused by the table (--report lists them)\n";
    if (r.ensemble) o << ensemble_text(r);
    o << "\nbest: " << best.model << " " << auto_point_text(best.point) << "  " << metric << " = "
           << format_fixed(best.score.mean, 4) << " +/- " << format_fixed(best.score.std, 4) << "\n";
    if (!output.empty()) {
        o << (save_ensemble ? "the ensemble's members refit" : "refit") << " on all " << plural(d.rows(), "row")
               << " -> " << output << "\n";
        if (!save_ensemble && best.refit_point != best.point) o << refit_rounds_text(best) << "\n";
    }
    return o.str();
}

}  // namespace

int run_auto(const std::vector<std::string>& args, Io& io) {
    const auto start = std::chrono::steady_clock::now();
    CLI::App app{"Search a portfolio of models by cross-validation within a budget; refit the best on all rows.\n"
                 "  kestrel-auto TRAIN_FILE [--label-col COL] [--time-budget 60s | --max-evals N]\n"
                 "               [--models gbdt,forest,logistic,...] [--metric M] [-o BEST.json] [--report report.md]",
                 "kestrel-auto"};
    CommonFlags common;
    DataFlags data;
    std::string input, output, report_path, metric, task = "auto", encode = "auto", budget_text;
    std::vector<std::string> models;
    int max_evals = 0, folds = 5, halving_batch = 9, ensemble_size = 50, ensemble_nbest = 50, confirm_leaders = 4,
        confirm_splits = 3;
    bool ensemble = false;
    common.add_to(app);
    data.add_to(app);
    app.add_option("TRAIN_FILE", input, "training data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("--task", task, "classification or regression (default: from the labels)")
        ->check(CLI::IsMember({"auto", "classification", "regression"}))
        ->capture_default_str();
    app.add_option("--metric", metric, "metric to optimize (default: accuracy or r2)");
    app.add_option("--models", models,
                   "the portfolio, in this order (default: every model with a search space for the task, cheapest first)")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--max-evals", max_evals,
                   "stop after N evaluations (a candidate on every fold); the same N and seed give the same model")
        ->check(whole_number(1, 2147483647));
    app.add_option("--time-budget", budget_text,
                   "wall-clock budget (60s, 2m, 1h; default 60s without --max-evals): no evaluation starts once spent");
    app.add_option("--halving-batch", halving_batch,
                   "after round 0, screen this many candidates of a family by successive halving on rows (factor 3) "
                   "and evaluate the survivor; 1 = no screening")
        ->check(whole_number(1, 10000))
        ->capture_default_str();
    app.add_option("--confirm-leaders", confirm_leaders,
                   "after the search, score at most this many leaders (cv means within one standard error of the "
                   "best) on fresh K-fold splits and choose by their mean there; 0 or 1 = no confirmation")
        ->check(whole_number(0, 1000))
        ->capture_default_str();
    app.add_option("--confirm-splits", confirm_splits,
                   "the most fresh K-fold splits the leaders are scored on, one per round; after each, a leader "
                   "more than one standard error behind the best drops out; 0 = no confirmation")
        ->check(whole_number(0, 100))
        ->capture_default_str();
    CLI::Option* ensemble_flag = app.add_flag("--ensemble", ensemble,
                 "after the search, build a weighted average of the best candidates by ensemble selection "
                 "(Caruana et al. 2004, as auto-sklearn); keep it when it beats the best single model on folds neither choice saw");
    app.add_option("--ensemble-size", ensemble_size,
                   "--ensemble: rounds of greedy selection with replacement; weights = picks / rounds "
                   "(auto-sklearn's ensemble_size)")
        ->needs(ensemble_flag)
        ->check(whole_number(1, 100000))
        ->capture_default_str();
    app.add_option("--ensemble-nbest", ensemble_nbest,
                   "--ensemble: choose among this many best candidates that can join (auto-sklearn's ensemble_nbest)")
        ->needs(ensemble_flag)
        ->check(whole_number(1, 100000))
        ->capture_default_str();
    app.add_option("--folds", folds, "cross-validation folds every candidate is scored on")
        ->check(whole_number(2, 1000))
        ->capture_default_str();
    app.add_option("--encode", encode,
                   "categorical columns: auto (split natively by tree, forest, adaboost and gbdt, one-hot for other "
                   "models), onehot, or ordinal (codes as numbers), for any model")
        ->check(CLI::IsMember({"auto", "onehot", "ordinal"}))
        ->capture_default_str();
    app.add_option("-o,--output", output, "write the best candidate's model, refit on all rows")->type_name("FILE");
    app.add_option("--report", report_path, "write the leaderboard and the chosen model as Markdown")->type_name("FILE");
    if (!parse(app, args, io)) return 0;
    // Its wall-clock budget decides what runs next, and each rank would decide differently.
    if (in_process_group())
        throw UsageError("kestrel-auto does not run under mpirun yet: its time budget would make each rank's search "
                         "differ (docs/distributed.md)");

    AutoOptions opts;
    opts.max_evals = max_evals;
    opts.halving_batch = halving_batch;
    opts.confirm_leaders = confirm_leaders;
    opts.confirm_splits = confirm_splits;
    if (ensemble) {
        opts.ensemble_size = ensemble_size;
        opts.ensemble_nbest = ensemble_nbest;
        opts.ensemble_excludes_absent_missing = auto_input_is_libsvm(input, data);
    }
    if (!budget_text.empty()) opts.time_budget = parse_duration(budget_text);
    else if (max_evals == 0) opts.time_budget = parse_duration(kDefaultBudget);
    for (const auto& m : models) {
        if (registry().contains(m)) continue;
        try {
            (void)registry().info(m);
        } catch (const UsageError& e) {  // names the valid models; the flag is named too
            throw UsageError(std::string("--models: ") + e.what());
        }
    }
    if (!metric.empty()) (void)metric_info(metric);
    opts.models = models;
    opts.split.k = folds;

    // The table is read as for a model that learns both tasks and fills absent sparse
    // entries with 0, so the labels decide the task as kestrel-train's rule does.
    ModelSpec reading;
    reading.model = "forest";
    resolve_params(reading);
    reading.missing = model_missing(data.missing);
    if (task != "auto") reading.task = task_from_string(task);
    reading.encode = encode;
    Context ctx = common.context(io);
    Dataset d = read_training_data(data.training_options(input, ctx.threads), reading);
    if (metric.empty()) metric = default_metric(d.task);
    opts.metric = metric;
    opts.base = reading;
    opts.base.task = d.task;  // every candidate learns the task the labels decided
    opts.seconds_used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const AutoResult r = auto_search(d, opts, ctx);
    const std::string task_name = to_string(d.task);
    const bool save_ensemble = r.ensemble && r.ensemble->kept;
    if (!output.empty()) save_auto_model(r, d, data, input, output, metric, common.seed, ctx);
    if (!report_path.empty()) {
        const std::string svg = svg_path_for(report_path);
        write_file_atomically(svg, score_time_svg(r, d.source));
        write_file_atomically(report_path, report_markdown(r, opts, d.source, task_name, input, output, common.seed, data,
                                                           encode, std::filesystem::path(svg).filename().string()));
    }

    if (common.json) {
        io.out << result_json(r, opts, task_name, output).dump(2) << "\n";
        return 0;
    }
    io.out << auto_leaderboard_text(r, d, metric, common.seed, output, save_ensemble, opts);
    return 0;
}

}  // namespace kestrel::cli
