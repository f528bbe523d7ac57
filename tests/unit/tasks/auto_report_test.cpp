// The report of an auto run (kestrel/tasks/auto_report.hpp): its Markdown line by line for
// a hand-made run, the front end's recipe and option spelling, and where the plot goes.
#include "kestrel/tasks/auto_report.hpp"

#include <doctest/doctest.h>

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_auto_report_test {

using namespace kestrel;

namespace {

AutoCandidate candidate(const std::string& model, GridPoint point, double mean, double std, double fit) {
    AutoCandidate c;
    c.model = model;
    c.point = point;
    c.refit_point = std::move(point);
    c.score.mean = mean;
    c.score.std = std;
    c.fold_scores = {mean, mean, mean};
    c.fit_seconds = fit;
    return c;
}

AutoRun two_candidate_run() {
    AutoRun run;
    run.source = "data/t.csv";
    run.task = Task::classification;
    run.rows = 90;
    run.output = "best.json";
    run.options.max_evals = 2;
    AutoResult& r = run.result;
    r.metric = "accuracy";
    r.greater_is_better = true;
    r.n_splits = 3;
    r.stopped_by = "max-evals";
    r.seconds = 1.5;
    r.times = {0.25, 1.0, 0.5, 0, 0, 0, 0.125, 1.87};  // reading, search, confirmation, ..., final fits, total
    r.portfolio = {"logistic", "tree"};
    r.leaderboard = {candidate("logistic", {{"C", "2"}}, 0.9, 0.05, 0.0125), candidate("tree", {}, 0.8, 0.1, 0.002)};
    r.skipped = {{"svc", "no search space for this task"}};
    return run;
}

AutoReportOptions report_options() {
    AutoReportOptions o;
    o.seed = 7;
    o.recipe = {"a tool", [](const AutoCandidate& c) { return "fit " + c.model; }};
    return o;
}

}  // namespace

TEST_SUITE("tasks") {
    TEST_CASE("auto_report_markdown: header, leaderboard, skipped families and the recipe of the choice") {
        const std::string md = auto_report_markdown(two_candidate_run(), report_options(), "r.svg");
        CHECK(md.rfind("# kestrel-auto on data/t.csv\n\nTask classification, metric accuracy (higher is better), 3-fold "
                       "cross-validation (the same folds for every candidate), seed 7.\n"
                       "Ran 2 evaluations (max_evals 2) in ",
                       0) == 0);
        CHECK(md.find("; portfolio: logistic tree.\n\n![best cv accuracy against time](r.svg)\n\n## Leaderboard\n") !=
              std::string::npos);
        CHECK(md.find("| 1 | logistic | C=2 | 0.9000 | 0.0500 | 3 | 0.013 |\n"
                      "| 2 | tree | defaults | 0.8000 | 0.1000 | 3 | 0.002 |\n") != std::string::npos);
        CHECK(md.find("\n## Not searched\n\n- svc: no search space for this task\n") != std::string::npos);
        const std::string tail = "\n## Chosen model\n\nlogistic (C=2): accuracy 0.9000 +/- 0.0500.\n"
                                 "Refit on all rows and saved to `best.json`.\n\nThe same model from a tool:\n\n"
                                 "    fit logistic\n\n## Where the time went\n\n250 ms reading, 1.00 s the search, "
                                 "500 ms confirming the leaders, 125 ms the final fits and writing the model; 1.87 s in all.\n";
        CHECK(md.substr(md.size() - tail.size()) == tail);
    }

    TEST_CASE("auto_time_text: the ensemble and the stack when they ran, the room kept and the budget under one") {
        AutoRun run = two_candidate_run();
        run.options.time_budget = 2;
        run.result.ensemble = AutoEnsemble{};
        run.result.stack = AutoStack{};
        run.result.times = {0.25, 1.0, 0.125, 0.0625, 0.375, 0.5, 0.125, 1.9375};
        CHECK(auto_time_text(run) ==
              "250 ms reading, 1.00 s the search, 125 ms confirming the leaders, 62.5 ms the ensemble, 375 ms the "
              "stack, 125 ms the final fits and writing the model (500 ms kept for them); 1.94 s in all of the 2.00 s "
              "budget");
        run.output.clear();  // nothing saved: no final fits
        CHECK(auto_time_text(run).find("final fits") == std::string::npos);
    }

    TEST_CASE("auto_report_markdown: a bagged choice says it saved the fold models, and how to refit it") {
        AutoRun run = two_candidate_run();
        run.fold_models = 3;
        const std::string md = auto_report_markdown(run, report_options(), "r.svg");
        const std::string tail = "\n## Chosen model\n\nlogistic (C=2): accuracy 0.9000 +/- 0.0500.\n"
                                 "Saved to `best.json` as the average of its 3 fold models, the models its "
                                 "cross-validation scored.\n\nThe candidate refit on all rows instead, from a tool:\n\n"
                                 "    fit logistic\n\n## Where the time went\n\n";
        CHECK(md.find(tail) != std::string::npos);
    }

    TEST_CASE("auto_report_markdown: the option the stop names is spelled by the front end") {
        AutoReportOptions o = report_options();
        o.option_spelling = [](const std::string& key) { return key == "max_evals" ? "--max-evals" : ""; };
        CHECK(auto_report_markdown(two_candidate_run(), o, "r.svg").find("Ran 2 evaluations (--max-evals 2) in ") !=
              std::string::npos);
        AutoRun budget = two_candidate_run();
        budget.result.stopped_by = "time-budget";
        budget.options.time_budget = 30;
        CHECK(auto_stop_text(budget.result, budget.options).text() == "2 evaluations within time_budget 30s");
        budget.result.stopped_by = "space";
        budget.result.screened = 1;
        CHECK(auto_stop_text(budget.result, budget.options).text() ==
              "2 evaluations, 1 candidate screened out by halving: every search space exhausted");
    }

    TEST_CASE("auto_report_markdown: a kept ensemble is rebuilt member by member") {
        AutoRun run = two_candidate_run();
        AutoEnsemble e;
        e.rounds = 4;
        e.pool = 2;
        e.members = {0, 1};
        e.weights = {0.75, 0.25};
        e.score.mean = 0.95;
        e.best_single = 0.9;
        e.kept = true;
        run.result.ensemble = e;
        const std::string md = auto_report_markdown(run, report_options(), "r.svg");
        CHECK(md.find("Ensemble selection (4 rounds over the best 2 candidates that can join), kept: cv accuracy "
                      "0.950000 beats the best single model's 0.900000.") != std::string::npos);
        CHECK(md.find("| 1 | logistic | C=2 | 0.9000 | 0.75 |\n| 2 | tree | defaults | 0.8000 | 0.25 |\n") !=
              std::string::npos);
        CHECK(md.find("Each member from a tool:\n\n    fit logistic\n    fit tree\n") != std::string::npos);
    }

    TEST_CASE("auto_refit_rounds_text and auto_report_svg_path") {
        AutoCandidate c = candidate("gbdt", {{"n_estimators", "500"}}, 0.9, 0, 0);
        c.fold_rounds = {40, 44};
        c.refit_point = {{"n_estimators", "42"}, {"early_stopping_rounds", "0"}};
        CHECK(auto_refit_rounds_text(c) ==
              "Early stopping kept 40, 44 rounds on the folds; the refit on all rows boosts their mean, 42 rounds, "
              "with no hold-out (n_estimators=42 early_stopping_rounds=0).");
        CHECK(auto_report_svg_path("out/report.md") == "out/report.svg");
        CHECK(auto_report_svg_path("report") == "report.svg");
        CHECK(auto_report_svg_path("plot.svg") == "plot.svg.svg");
    }
}

}  // namespace unit_tasks_auto_report_test
}  // namespace
