#include <chrono>

#include "common/auto_report.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/missing_option.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/tasks/auto_json.hpp"

namespace kestrel::cli {

int run_auto(const std::vector<std::string>& args, Io& io) {
    const auto start = std::chrono::steady_clock::now();
    CLI::App app{"Evaluate a portfolio of model configurations, then search the models' spaces, by cross-validation "
                 "within a budget; save the best as the average of its fold models (--refit-full: refit on all rows).\n"
                 "  kestrel-auto TRAIN_FILE [--label-col COL] [--time-budget 60s | --max-evals N]\n"
                 "               [--models gbdt,forest,logistic,...] [--metric M] [-o BEST.json] [--report report.md]",
                 "kestrel-auto"};
    CommonFlags common;
    DataFlags data;
    std::string input, report_path, task = "auto", budget_text;
    AutoRequest request;  // the flags below set it, each the option of the same name
    AutoOptions& opts = request.search;
    opts.ensemble_size = 50;  // --ensemble-size's default; without --ensemble, no ensemble (0)
    bool ensemble = false;
    bool stack = false;
    int stack_members = 5;  // --stack-members' default; without --stack, no stack (0)
    common.add_to(app);
    data.add_to(app);
    app.add_option("TRAIN_FILE", input, "training data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("--task", task, "classification or regression (default: from the labels)")
        ->check(CLI::IsMember({"auto", "classification", "regression"}))
        ->capture_default_str();
    app.add_option("--metric", opts.metric, "metric to optimize (default: accuracy or r2)");
    app.add_option("--models", opts.models,
                   "the portfolio, in this order (default: every model with a search space for the task, cheapest first)")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--max-evals", opts.max_evals,
                   "stop after N evaluations (a candidate on every fold); the same N and seed give the same model")
        ->check(whole_number(1, 2147483647));
    app.add_option("--time-budget", budget_text,
                   "wall-clock budget (60s, 2m, 1h; default 60s without --max-evals): no evaluation starts once spent");
    app.add_option("--halving-batch", opts.halving_batch,
                   "after the portfolio, screen this many drawn candidates of a family by successive halving on rows "
                   "(factor 3) "
                   "and evaluate the survivor; 1 = no screening")
        ->check(whole_number(1, 10000))
        ->capture_default_str();
    app.add_option("--confirm-leaders", opts.confirm_leaders,
                   "after the search, score at most this many leaders (cv means within one standard error of the "
                   "best) on fresh K-fold splits and choose by their mean there; 0 or 1 = no confirmation")
        ->check(whole_number(0, 1000))
        ->capture_default_str();
    app.add_option("--confirm-splits", opts.confirm_splits,
                   "the most fresh K-fold splits the leaders are scored on, one per round; after each, a leader "
                   "more than one standard error behind the best drops out; 0 = no confirmation")
        ->check(whole_number(0, 100))
        ->capture_default_str();
    CLI::Option* ensemble_flag = app.add_flag("--ensemble", ensemble,
                 "after the search, build a weighted average of the best candidates by ensemble selection "
                 "(Caruana et al. 2004, as auto-sklearn); keep it when it beats the best single model on folds neither choice saw");
    app.add_option("--ensemble-size", opts.ensemble_size,
                   "--ensemble: rounds of greedy selection with replacement; weights = picks / rounds "
                   "(auto-sklearn's ensemble_size)")
        ->needs(ensemble_flag)
        ->check(whole_number(1, 100000))
        ->capture_default_str();
    app.add_option("--ensemble-nbest", opts.ensemble_nbest,
                   "--ensemble: choose among this many best candidates that can join (auto-sklearn's ensemble_nbest)")
        ->needs(ensemble_flag)
        ->check(whole_number(1, 100000))
        ->capture_default_str();
    CLI::Option* stack_flag = app.add_flag(
        "--stack", stack,
        "after the search, fit a second layer (logistic or ridge, and gbdt) on the best candidates' out-of-fold "
        "predictions, bagged on the same folds (AutoGluon's stack ensembling, num_stack_levels=1); keep it only "
        "when its own out-of-fold score beats the best single model, the confirmed winner and the ensemble; under "
        "--time-budget the search stops at 90% of it");
    app.add_option("--stack-members", stack_members,
                   "--stack: the first-layer candidates whose predictions are its inputs (each family's best first)")
        ->needs(stack_flag)
        ->check(whole_number(1, 1000))
        ->capture_default_str();
    app.add_flag("--stack-features", opts.stack_features,
                 "--stack: the second layer also takes the table's own columns after the members' predictions "
                 "(AutoGluon's use_orig_features)")
        ->needs(stack_flag);
    app.add_option("--folds", opts.split.k, "cross-validation folds every candidate is scored on")
        ->check(whole_number(2, 1000))
        ->capture_default_str();
    app.add_option("--encode", request.encode,
                   "categorical columns: auto (split natively by tree, forest, adaboost and gbdt, one-hot for other "
                   "models), onehot, or ordinal (codes as numbers), for any model")
        ->check(CLI::IsMember({"auto", "onehot", "ordinal"}))
        ->capture_default_str();
    app.add_option("-o,--output", request.output,
                   "write the chosen model: the average of its K fold models (its bag), or with --refit-full, refit "
                   "on all rows")
        ->type_name("FILE");
    app.add_flag("--refit-full", request.refit_full,
                 "-o: refit the chosen candidate (or each ensemble member) on all rows instead of saving the average of "
                 "its K fold models (AutoGluon's refit_full): K times faster prediction, not the models the search scored");
    app.add_option("--report", report_path, "write the leaderboard and the chosen model as Markdown")->type_name("FILE");
    if (!parse(app, args, io)) return 0;
    // Its wall-clock budget decides what runs next, and each rank would decide differently.
    if (in_process_group())
        throw UsageError("kestrel-auto does not run under mpirun yet: its time budget would make each rank's search "
                         "differ (docs/distributed.md)");

    if (!ensemble) opts.ensemble_size = 0;
    opts.stack_members = stack ? stack_members : 0;
    if (!budget_text.empty()) opts.time_budget = parse_duration(budget_text);
    check_auto_options(opts);  // before the data flags, as before the data is read

    request.missing = split_missing_option(data.missing).model;
    if (task != "auto") request.task = task_from_string(task);
    const Context ctx = common.context(io);
    request.data = data.training_options(input, ctx);
    const AutoRun run =
        run_auto_task(request, ctx, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!report_path.empty()) write_auto_report(report_path, run, input, common.seed, data, request.encode);
    io.out << (common.json ? auto_run_json(run).dump(2) + "\n" : auto_leaderboard_text(run, common.seed));
    return 0;
}

}  // namespace kestrel::cli
