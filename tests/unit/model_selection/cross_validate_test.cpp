#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_cross_validate_test {

using namespace kestrel;

namespace {

// 120 rows, 3 classes of 40 (data/MANIFEST.md).
const Dataset& iris_train() {
    static const Dataset d = [] {
        Table t = read_table(KESTREL_SHARED_DATA "/iris/train.csv", ReadOptions{});
        return make_dataset(std::move(t), Task::classification);
    }();
    return d;
}

Context context(int threads) {
    Context ctx;
    ctx.seed = 42;
    ctx.threads = threads;
    return ctx;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("summarize: mean and population std (numpy.std, ddof=0)") {
    const auto s = summarize({1, 2, 3, 4});
    CHECK(s.mean == doctest::Approx(2.5));
    CHECK(s.std == doctest::Approx(1.118033988749895));  // numpy 1.24.2: np.std([1,2,3,4])
    CHECK(summarize({0.7}).std == 0);
}

TEST_CASE("default_cv_metrics: per task, ranking metrics only with scores") {
    using S = std::vector<std::string>;
    CHECK(default_cv_metrics(Task::regression, false, false) == S{"r2", "rmse", "mae"});
    CHECK(default_cv_metrics(Task::classification, false, false) == S{"accuracy", "balanced_accuracy", "f1_macro"});
    CHECK(default_cv_metrics(Task::classification, true, true) ==
          S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
    // Decision values without probabilities (ECOC, svc without probability=true): no log loss.
    CHECK(default_cv_metrics(Task::classification, true, false) == S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc"});
    CHECK(default_cv_metrics(Task::classification, false, true) ==
          S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
}

TEST_CASE("default_cv_metrics of a model and data: what the model's parameters give") {
    using S = std::vector<std::string>;
    ModelSpec spec;
    spec.model = "logistic";
    CHECK(default_cv_metrics(spec, iris_train()) == S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
    spec.params = Params{{"multiclass", "ecoc"}};
    CHECK(default_cv_metrics(spec, iris_train()) == S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc"});
    spec.calibrate = "sigmoid";  // calibrated probabilities bring the log loss back
    CHECK(default_cv_metrics(spec, iris_train()) == S{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
}

TEST_CASE("make_folds: stratified for classification") {
    const Dataset& d = iris_train();
    const auto folds = make_folds(d, 5, 1, 7);
    REQUIRE(folds.size() == 5);
    for (const auto& f : folds) {
        std::vector<int> counts(3, 0);
        for (Index r : f.test) ++counts[static_cast<std::size_t>(d.y[r])];
        CHECK(counts == std::vector<int>{8, 8, 8});  // 40 per class over 5 folds
    }
}

TEST_CASE("cross_validate: logistic on iris is identical on 1 and 2 threads") {
    const Dataset& d = iris_train();
    ModelSpec spec;
    spec.model = "logistic";
    CvOptions opts;
    opts.k = 5;
    opts.repeats = 2;
    const CvResult a = cross_validate(spec, d, opts, context(1));
    const CvResult b = cross_validate(spec, d, opts, context(2));

    CHECK(a.metrics == std::vector<std::string>{"accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "log_loss"});
    REQUIRE(a.folds.size() == 10);
    REQUIRE(b.folds.size() == 10);
    for (std::size_t f = 0; f < a.folds.size(); ++f) {
        CHECK(a.folds[f].repeat == static_cast<int>(f / 5));
        CHECK(a.folds[f].index == static_cast<int>(f % 5));
        CHECK(a.folds[f].scores == b.folds[f].scores);  // bit for bit
        CHECK(a.folds[f].fit_seconds >= 0);
    }
    CHECK(a.out_of_fold.y_pred == b.out_of_fold.y_pred);
    CHECK(a.out_of_fold.proba == b.out_of_fold.proba);

    // The summary is the mean and population std over all 10 folds.
    std::vector<double> acc;
    for (const auto& f : a.folds) acc.push_back(f.scores.at("accuracy"));
    CHECK(a.mean("accuracy") == doctest::Approx(summarize(acc).mean));
    CHECK(a.summary.at("accuracy").std == doctest::Approx(summarize(acc).std));
    // Our folds are not sklearn's, so compare loosely. scikit-learn 1.2.1 on this file:
    // cross_val_score(LogisticRegression(C=1, max_iter=1000), X, y,
    //   cv=StratifiedKFold(5, shuffle=True, random_state=s)), s = 0..4: mean 0.9667 for
    //   every s, worst fold 0.9167; scoring='roc_auc_ovr' (s = 0): mean 0.9979.
    CHECK(a.mean("accuracy") > 0.93);
    CHECK(a.mean("accuracy") < 0.99);
    CHECK(a.mean("roc_auc") > 0.98);
}

TEST_CASE("cross_validate: out-of-fold predictions cover every row in file order") {
    const Dataset& d = iris_train();
    ModelSpec spec;
    spec.model = "logistic";
    CvOptions opts;
    opts.k = 4;
    const Context ctx = context(2);
    const CvResult r = cross_validate(spec, d, opts, ctx);
    const Predictions& oof = r.out_of_fold;

    REQUIRE(oof.y_pred.size() == d.rows());
    CHECK(oof.y_true == d.y);
    CHECK(oof.classes == d.classes);
    REQUIRE(oof.proba.rows() == d.rows());
    for (Index i = 0; i < d.rows(); ++i) CHECK(oof.proba.row(i).sum() == doctest::Approx(1.0));  // no row left at 0

    // Each fold's slice of the out-of-fold predictions is that fold's own fit, seeded
    // as ctx.child(fold number).
    const auto folds = make_folds(d, 4, 1, ctx.seed);
    double correct = 0;
    for (std::size_t f = 0; f < folds.size(); ++f) {
        const Predictions p = fit_and_predict(spec, d, folds[f], ctx.child(f, 1));
        for (std::size_t i = 0; i < folds[f].test.size(); ++i) {
            const Index row = folds[f].test[i];
            CHECK(oof.y_pred[row] == p.y_pred[static_cast<Index>(i)]);
            CHECK(oof.proba.row(row) == p.proba.row(static_cast<Index>(i)));
        }
        correct += r.folds[f].scores.at("accuracy") * static_cast<double>(folds[f].test.size());
    }
    CHECK(accuracy(oof.y_true, oof.y_pred) * static_cast<double>(d.rows()) == doctest::Approx(correct));
}

TEST_CASE("cross_validate: metrics are checked before any fit") {
    const Dataset& d = iris_train();
    ModelSpec spec;
    spec.model = "logistic";
    CvOptions opts;
    Context ctx = context(1);
    int reports = 0;
    ctx.progress = [&](const std::string&, std::uint64_t, std::uint64_t) { ++reports; };

    opts.metrics = {"accuracy", "no_such_metric"};
    CHECK_THROWS_AS(cross_validate(spec, d, opts, ctx), UsageError);
    opts.metrics = {"r2"};
    CHECK_THROWS_WITH_AS(cross_validate(spec, d, opts, ctx), doctest::Contains("regression"), UsageError);
    opts.metrics = {"accuracy"};
    opts.k = 121;
    CHECK_COMMAND_THROWS_WITH_AS(cross_validate(spec, d, opts, ctx), doctest::Contains("-k 121"), UsageError);
    CHECK(reports == 0);

    opts.k = 3;
    const CvResult r = cross_validate(spec, d, opts, ctx);
    CHECK(r.metrics == std::vector<std::string>{"accuracy"});
    CHECK(reports == 4);  // the start, then one per fold
}

}  // TEST_SUITE

}  // namespace unit_model_selection_cross_validate_test
}  // namespace
