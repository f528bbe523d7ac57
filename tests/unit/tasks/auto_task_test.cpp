// The auto run through the task floor (kestrel/tasks/auto_task.hpp, auto_json.hpp): a
// program with an AutoRequest gets kestrel-auto's saved model, byte for byte, and its
// --json leaderboard (the timings aside); the budget's default, the LIBSVM rule of the
// ensemble, the option checks and the best-so-far series by hand.
#include "kestrel/tasks/auto_task.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/flag_spelling.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/tasks/auto_json.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_auto_task_test {

using namespace kestrel;

namespace {

// What kestrel-auto asks of the task with `--max-evals N --folds 3 --threads 1` and the
// read flags at their defaults (--missing auto reads missing cells as NaN).
AutoRequest command_like_request(const std::string& input, const std::string& output, int max_evals) {
    AutoRequest request;
    request.data.path = input;
    request.data.read.missing = MissingPolicy::keep;
    request.data.read.threads = 1;
    request.search.max_evals = max_evals;
    request.search.split.k = 3;
    request.output = output;
    return request;
}

Context library_context(std::uint64_t seed) {
    Context ctx;
    ctx.seed = seed;
    ctx.threads = 1;
    return ctx;
}

// The run's JSON without what the clock decides (seconds) and the saved file's name.
Json without_timings(Json j) {
    j.erase("seconds");
    j.erase("time");
    j.erase("output");
    for (auto& c : j["leaderboard"]) c.erase("mean_fit_seconds");
    j["best"].erase("mean_fit_seconds");
    return j;
}

}  // namespace

TEST_SUITE("tasks.auto_task") {
    TEST_CASE("the library's auto run on iris saves kestrel-auto's model bytes and gives its leaderboard") {
        const test::PinnedDate pinned;
        test::ScratchDir dir("tasks_auto_iris");
        const std::string input = test::repo_path("data/iris/train.csv");
        const auto command = test::run(cli::run_auto, "kestrel-auto",
                                       {input, "--models", "logistic,tree,knn", "--max-evals", "5", "--folds", "3",
                                        "--seed", "7", "--threads", "1", "-o", dir / "command.json", "--json", "-q"});
        REQUIRE_MESSAGE(command.code == 0, command.err);

        AutoRequest request = command_like_request(input, dir / "library.json", 5);
        request.search.models = {"logistic", "tree", "knn"};
        const AutoRun run = run_auto_task(request, library_context(7));
        CHECK(test::slurp(dir / "library.json") == test::slurp(dir / "command.json"));
        const Json expected = Json::parse(command.out);
        CHECK(without_timings(auto_run_json(run)) == without_timings(expected));

        // By hand: five evaluations on three folds of iris, the metric and budget the rules chose.
        CHECK(run.task == Task::classification);
        CHECK(run.rows == 120);
        CHECK(run.options.metric == "accuracy");
        CHECK(run.options.time_budget == 0);  // --max-evals alone: no clock
        CHECK(run.result.evaluations() == 5);
        CHECK(run.result.stopped_by == "max-evals");
        CHECK(run.result.best().score.mean > 0.9);
        const Json saved = Json::parse(test::slurp(dir / "library.json"));
        CHECK(saved["provenance"]["date"] == "1970-01-01T00:00:00Z");
        CHECK(saved["provenance"]["seed"] == 7);
        CHECK(saved["provenance"]["data_file"] == input);
        CHECK(saved["provenance"]["auto"]["cv_mean"].get<double>() == run.result.best().score.mean);
        CHECK(saved["provenance"]["auto"]["cv"] == "3-fold");
        CHECK(saved["provenance"]["auto"]["evaluations"] == 5);
        CHECK(saved["provenance"]["auto"]["params"] == auto_point_json(run.result.best().refit_point));
    }

    TEST_CASE("a kept ensemble: the library refits its members and saves kestrel-auto's bytes") {
        const test::PinnedDate pinned;
        test::ScratchDir dir("tasks_auto_ensemble");
        const std::string input = test::repo_path("data/tables/penguins/train.csv");
        const auto command = test::run(cli::run_auto, "kestrel-auto",
                                       {input, "--label-col", "species", "--models", "tree,forest", "--metric",
                                        "log_loss", "--max-evals", "9", "--folds", "3", "--seed", "1", "--threads", "1",
                                        "--ensemble", "--ensemble-size", "10", "--confirm-leaders", "0", "-o",
                                        dir / "command.json", "--json", "-q"});
        REQUIRE_MESSAGE(command.code == 0, command.err);

        AutoRequest request = command_like_request(input, dir / "library.json", 9);
        request.data.read.label_col = "species";
        request.search.models = {"tree", "forest"};
        request.search.metric = "log_loss";
        request.search.ensemble_size = 10;
        request.search.confirm_leaders = 0;
        const AutoRun run = run_auto_task(request, library_context(1));
        REQUIRE(run.chose_ensemble());
        CHECK(test::slurp(dir / "library.json") == test::slurp(dir / "command.json"));
        CHECK(without_timings(auto_run_json(run)) == without_timings(Json::parse(command.out)));

        // By hand: ten rounds of selection, weights summing to 1, the file an ensemble of the
        // members with the ensemble's cv scores and each member's own.
        const Json ensemble = auto_ensemble_json(run.result);
        CHECK(ensemble["rounds"] == 10);
        CHECK(ensemble["kept"] == true);
        double weights = 0;
        for (const auto& m : ensemble["members"]) weights += m["weight"].get<double>();
        CHECK(weights == doctest::Approx(1.0));
        const Json saved = Json::parse(test::slurp(dir / "library.json"));
        CHECK(saved["model"] == "ensemble");
        CHECK(saved["provenance"]["date"] == "1970-01-01T00:00:00Z");
        CHECK(saved["provenance"]["auto"]["cv_mean"] == ensemble["mean"]);
        CHECK(saved["provenance"]["auto"]["ensemble_size"] == 10);
        CHECK(saved["provenance"]["auto"]["held_out_mean"] == ensemble["held_out_mean"]);
        const Model model = Model::load(dir / "library.json");
        REQUIRE(model.ensemble_members() != nullptr);
        // Each member saved as its bag: its 3 fold models.
        CHECK(model.ensemble_members()->size() == 3 * ensemble["members"].size());
        CHECK(run.fold_models == 3);
    }

    TEST_CASE("the options a request runs with: the 60 s default, and gbdt kept out of an ensemble on LIBSVM") {
        AutoRequest request;
        request.data.path = test::repo_path("data/iris/train.csv");
        CHECK(auto_options_for(request).time_budget == kDefaultAutoTimeBudget);
        CHECK(kDefaultAutoTimeBudget == 60);
        request.search.max_evals = 3;
        CHECK(auto_options_for(request).time_budget == 0);
        request.search.time_budget = 2.5;
        CHECK(auto_options_for(request).time_budget == 2.5);

        request.search.ensemble_size = 10;
        CHECK_FALSE(auto_options_for(request).ensemble_excludes_absent_missing);
        request.data.path = test::repo_path("data/iris/train.libsvm");
        CHECK(auto_options_for(request).ensemble_excludes_absent_missing);
        request.data.read.format = FileFormat::csv;  // forced: read as CSV, whatever its name
        CHECK_FALSE(auto_options_for(request).ensemble_excludes_absent_missing);
        request.data.read.format = FileFormat::libsvm;
        request.data.path = "-";
        CHECK(auto_options_for(request).ensemble_excludes_absent_missing);
        request.data.read.format = FileFormat::automatic;  // standard input is not looked at
        CHECK_FALSE(auto_options_for(request).ensemble_excludes_absent_missing);
        request.search.ensemble_size = 0;  // no ensemble: nothing to keep out
        request.data.path = test::repo_path("data/iris/train.libsvm");
        CHECK_FALSE(auto_options_for(request).ensemble_excludes_absent_missing);
    }

    TEST_CASE("an unknown model or metric: a usage error naming the option, which the command spells as its flag") {
        AutoOptions options;
        options.models = {"logistic", "nope"};
        try {
            check_auto_options(options);
            FAIL("no error");
        } catch (const UsageError& e) {
            CHECK(std::string(e.what()).rfind("models: unknown model 'nope' (valid: ", 0) == 0);
            CHECK(cli::command_message(e).rfind("--models: unknown model 'nope' (valid: ", 0) == 0);
        }
        options.models = {"logistic"};
        options.metric = "no_such_metric";
        CHECK_THROWS_AS(check_auto_options(options), UsageError);
        options.metric = "accuracy";
        CHECK_NOTHROW(check_auto_options(options));
    }

    TEST_CASE("the best cv mean so far, in evaluation order, by hand") {
        AutoResult r;
        const auto candidate = [](int order, double mean, double at) {
            AutoCandidate c;
            c.order = order;
            c.score.mean = mean;
            c.finished_at = at;
            return c;
        };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        // The leaderboard is best first; the series follows the evaluation order.
        r.leaderboard = {candidate(3, 0.9, 3.0), candidate(1, 0.8, 1.0), candidate(4, 0.7, 4.0), candidate(2, nan, 2.0)};
        AutoProgress p = auto_best_so_far(r);
        CHECK(p.seconds == std::vector<double>{1.0, 2.0, 3.0, 4.0});
        CHECK(p.best == std::vector<double>{0.8, 0.8, 0.9, 0.9});
        r.greater_is_better = false;  // a loss: lower is better
        p = auto_best_so_far(r);
        CHECK(p.best == std::vector<double>{0.8, 0.8, 0.8, 0.7});
        r.leaderboard = {candidate(2, 0.5, 2.0), candidate(1, nan, 1.0)};  // a NaN first is replaced by a number
        p = auto_best_so_far(r);
        CHECK(std::isnan(p.best[0]));
        CHECK(p.best[1] == 0.5);
    }
}

}  // namespace unit_tasks_auto_task_test
}  // namespace
