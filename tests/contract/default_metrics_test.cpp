// The metrics the commands report unasked hold only what the model gives (docs/cli.md,
// "Metrics"): for every registered model, each task it learns and, for a classifier, two and
// three classes under multiclass=auto and every generic wrapper (ovr, ovo, ecoc),
// kestrel-cv with its default metrics and kestrel-predict --metrics exit 0 and print exactly
// the metrics the trained model's scores allow: no ROC AUC or average precision without
// decision values or probabilities, no log loss or Brier score without probabilities (ECOC
// has none, whatever its members give). An explicit --metric the model cannot give stays a
// usage error, before any fit.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_default_metrics_test {

using namespace kestrel;
using namespace kestrel::test;

namespace {

using Names = std::set<std::string>;

// A CSV file of the dataset, the label first (class names for classification).
std::string csv_text(const Dataset& d) {
    std::ostringstream s;
    s.precision(17);
    s << "label";
    for (const auto& f : d.feature_names) s << ',' << f;
    s << '\n';
    const DenseMatrix X = d.X.to_dense();
    for (Index i = 0; i < d.rows(); ++i) {
        if (d.task == Task::classification)
            s << d.classes[static_cast<std::size_t>(d.y[i])];
        else
            s << d.y[i];
        for (Index j = 0; j < X.cols(); ++j) s << ',' << X(i, j);
        s << '\n';
    }
    return s.str();
}

// The rule, written out here rather than asked of the library it tests.
bool allowed(const std::string& metric, bool scores, bool proba) {
    if (metric == "log_loss" || metric == "brier_score") return proba;
    if (metric == "roc_auc" || metric == "average_precision") return scores || proba;
    return true;
}

Names allowed_of(const std::vector<std::string>& candidates, bool scores, bool proba) {
    Names out;
    for (const auto& m : candidates)
        if (allowed(m, scores, proba)) out.insert(m);
    return out;
}

Names keys(const Json& object) {
    Names out;
    for (auto it = object.begin(); it != object.end(); ++it) out.insert(it.key());
    return out;
}

// The metric figures of kestrel-predict --metrics --json (its other keys are tables and counts).
Names report_metrics(const Json& report) {
    static const Names figures{"accuracy", "balanced_accuracy", "roc_auc", "average_precision", "log_loss",
                               "brier_score", "mse", "rmse", "mae", "r2", "max_error"};
    Names out;
    for (const auto& k : keys(report))
        if (figures.count(k)) out.insert(k);
    return out;
}

// Trains, cross-validates with the default metrics and predicts with --metrics, and checks
// each command printed exactly the metrics the trained model's scores allow.
void check_default_metrics(const ScratchDir& dir, const std::string& model, Task task, const std::string& data,
                           const std::string& strategy) {
    const std::string task_name = to_string(task);
    CAPTURE(model);
    CAPTURE(task_name);
    CAPTURE(data);
    CAPTURE(strategy);
    std::vector<std::string> flags{"-m", model, "--task", to_string(task)};
    if (!strategy.empty()) flags.insert(flags.end(), {"-p", "multiclass=" + strategy});
    const std::string path = dir / "model.json";

    std::vector<std::string> train_args = flags;
    train_args.insert(train_args.end(), {"-q", data, "-o", path});
    const auto train = run(cli::run_train, "kestrel-train", train_args);
    REQUIRE_MESSAGE(train.code == 0, train.err);
    const Model trained = Model::load(path);
    const bool proba = trained.has_predict_proba();
    const bool scores = proba || trained.has_decision_function();
    CAPTURE(scores);
    CAPTURE(proba);

    std::vector<std::string> cv_args = flags;
    cv_args.insert(cv_args.end(), {"-k", "3", "--json", data});
    const auto cv = run(cli::run_cv, "kestrel-cv", cv_args);
    if (!registry().info(model).uses_labels) {
        // one_class: held-out rows have nothing to score it against; cv refuses it.
        CHECK(cv.code == 1);
        CHECK(cv.err.find("ignores the labels") != std::string::npos);
    } else {
        CHECK_MESSAGE(cv.code == 0, cv.err);
    }
    if (registry().info(model).uses_labels && cv.code == 0) {
        const Names expected = task == Task::classification
                                   ? allowed_of({"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"},
                                                scores, proba)
                                   : Names{"r2", "rmse", "mae"};
        CHECK(keys(Json::parse(cv.out).at("metrics")) == expected);
    }

    const auto predict = run(cli::run_predict, "kestrel-predict", {path, data, "--metrics", "--json"});
    CHECK_MESSAGE(predict.code == 0, predict.err);
    if (predict.code == 0) {
        const Names expected =
            task == Task::classification
                ? allowed_of({"accuracy", "balanced_accuracy", "roc_auc", "average_precision", "log_loss", "brier_score"},
                             scores, proba)
                : Names{"mse", "rmse", "mae", "r2", "max_error"};
        CHECK(report_metrics(Json::parse(predict.out)) == expected);
    }
}

}  // namespace

TEST_SUITE("contract") {
    TEST_CASE("default metrics: kestrel-cv and kestrel-predict --metrics on every model and multiclass wrapper") {
        ScratchDir dir("default_metrics");
        const std::string binary = dir.file("binary.csv", csv_text(test::blobs(36, 3, 2)));
        const std::string three = dir.file("three.csv", csv_text(test::blobs(36, 3, 3)));
        const std::string numbers = dir.file("regression.csv", csv_text(test::linear_regression(36, 3)));
        for (const auto& name : registry().names()) {
            const ModelInfo& info = registry().info(name);
            for (Task task : info.tasks) {
                if (task == Task::regression) {
                    check_default_metrics(dir, name, task, numbers, "");
                    continue;
                }
                for (const std::string& data : {binary, three})
                    for (const char* strategy : {"", "ovr", "ovo", "ecoc"})
                        check_default_metrics(dir, name, task, data, strategy);
            }
        }
    }

    TEST_CASE("default metrics: the issue's case, logistic with multiclass=ecoc, has no log loss") {
        const std::string iris = repo_path("data/iris/train.csv");
        const auto cv = run(cli::run_cv, "kestrel-cv", {"-m", "logistic", "-p", "multiclass=ecoc", "--json", iris});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        CHECK(keys(Json::parse(cv.out).at("metrics")) == Names{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc"});
        // The model's own multiclass keeps its probabilities and so its log loss.
        const auto own = run(cli::run_cv, "kestrel-cv", {"-m", "logistic", "--json", iris});
        REQUIRE_MESSAGE(own.code == 0, own.err);
        CHECK(keys(Json::parse(own.out).at("metrics")) ==
              Names{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
    }

    TEST_CASE("default metrics: an explicit metric the model cannot give is a usage error before any fit") {
        const std::string iris = repo_path("data/iris/train.csv");
        const auto ecoc =
            run(cli::run_cv, "kestrel-cv", {"-m", "logistic", "-p", "multiclass=ecoc", "--metric", "log_loss", iris});
        CHECK(ecoc.code == 1);
        CHECK(ecoc.out.empty());
        CHECK(ecoc.err.find("--metric log_loss needs probabilities, which model 'logistic' does not give") !=
              std::string::npos);
        const auto brier = run(cli::run_cv, "kestrel-cv",
                               {"-m", "tree", "-p", "multiclass=ecoc", "--metric", "neg_brier_score", iris});
        CHECK(brier.code == 1);
        CHECK(brier.err.find("--metric neg_brier_score needs probabilities") != std::string::npos);
        const auto svc = run(cli::run_cv, "kestrel-cv", {"-m", "svc", "--metric", "log_loss", iris});
        CHECK(svc.code == 1);
        CHECK(svc.err.find("--metric log_loss needs probabilities, which model 'svc' does not give") != std::string::npos);
    }
}

}  // namespace contract_default_metrics_test
}  // namespace
