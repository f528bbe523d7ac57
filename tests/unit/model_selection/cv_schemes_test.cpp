// Leave-one-out, shuffle-split, group k-fold and fixed splits; cross_validate on each,
// against scikit-learn where the splits coincide.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_cv_schemes_test {

using namespace kestrel;

namespace {

void check_disjoint_sorted(const Fold& f, Index n) {
    CHECK(std::is_sorted(f.train.begin(), f.train.end()));
    CHECK(std::is_sorted(f.test.begin(), f.test.end()));
    std::set<Index> train(f.train.begin(), f.train.end());
    CHECK(train.size() == f.train.size());
    for (Index r : f.test) {
        CHECK_FALSE(train.count(r));
        CHECK(r >= 0);
        CHECK(r < n);
    }
}

// The fixture of record_cv_schemes_reference.py: 15 rows, y = 1.5 x1 - 0.7 x2 + sin(i).
Dataset fifteen_rows() {
    Dataset d;
    DenseMatrix X(15, 2);
    d.y.resize(15);
    for (Index i = 0; i < 15; ++i) {
        X(i, 0) = static_cast<double>(i % 5);
        X(i, 1) = static_cast<double>((i * 7) % 11) / 3.0;
        d.y[i] = 1.5 * X(i, 0) - 0.7 * X(i, 1) + std::sin(static_cast<double>(i));
    }
    d.X = Features(std::move(X));
    d.task = Task::regression;
    return d;
}

std::vector<Index> five_groups() {  // group g has g + 1 rows, in row order
    std::vector<Index> g;
    for (Index k = 0; k < 5; ++k)
        for (Index j = 0; j <= k; ++j) g.push_back(k);
    return g;
}

Context context(int threads) {
    Context ctx;
    ctx.seed = 11;
    ctx.threads = threads;
    return ctx;
}

ModelSpec ridge() {
    ModelSpec s;
    s.model = "ridge";
    s.params["alpha"] = 1.0;
    return s;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("leave_one_out: n folds, fold i tests row i alone") {
    const auto folds = leave_one_out(6);
    REQUIRE(folds.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
        CHECK(folds[i].test == std::vector<Index>{static_cast<Index>(i)});
        CHECK(folds[i].train.size() == 5);
        check_disjoint_sorted(folds[i], 6);
    }
    CHECK_COMMAND_THROWS_WITH_AS(leave_one_out(1), doctest::Contains("--loo"), UsageError);
}

TEST_CASE("make_splits: -k n with one repetition is leave-one-out") {
    Dataset d = fifteen_rows();
    SplitOptions s;
    s.k = 15;
    const auto folds = make_splits(d, s, 3);
    REQUIRE(folds.size() == 15);
    for (std::size_t i = 0; i < 15; ++i) CHECK(folds[i].test == std::vector<Index>{static_cast<Index>(i)});
}

TEST_CASE("shuffle_split: sizes as sklearn (test = ceil(f n)), seeded, rows may repeat across splits") {
    const auto a = shuffle_split(10, 4, 0.25, 9);
    REQUIRE(a.size() == 4);
    for (const auto& f : a) {
        CHECK(f.test.size() == 3);  // ceil(2.5)
        CHECK(f.train.size() == 7);
        check_disjoint_sorted(f, 10);
    }
    const auto b = shuffle_split(10, 4, 0.25, 9), c = shuffle_split(10, 4, 0.25, 10);
    bool differ = false;
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(a[i].test == b[i].test);
        differ = differ || a[i].test != c[i].test;
    }
    CHECK(differ);
    CHECK_COMMAND_THROWS_WITH_AS(shuffle_split(10, 2, 0, 1), doctest::Contains("--test-fraction"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(shuffle_split(10, 2, 1, 1), doctest::Contains("--test-fraction"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(shuffle_split(10, 2, 0.95, 1), doctest::Contains("--test-fraction"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(shuffle_split(10, 0, 0.2, 1), doctest::Contains("--shuffle-split"), UsageError);
}

TEST_CASE("stratified_shuffle_split: class counts of train and test follow the proportions") {
    // 12 of class 0, 6 of class 1, 3 of class 2 (21 rows); test = ceil(0.3 * 21) = 7, train 14.
    Vector y(21);
    for (Index i = 0; i < 21; ++i) y[i] = i < 12 ? 0 : i < 18 ? 1 : 2;
    const auto folds = stratified_shuffle_split(y, 3, 5, 0.3, 4);
    REQUIRE(folds.size() == 5);
    for (const auto& f : folds) {
        check_disjoint_sorted(f, 21);
        CHECK(f.test.size() == 7);
        CHECK(f.train.size() == 14);
        std::vector<int> tr(3, 0), te(3, 0);
        for (Index r : f.train) ++tr[static_cast<std::size_t>(y[r])];
        for (Index r : f.test) ++te[static_cast<std::size_t>(y[r])];
        // sklearn's _approximate_mode: train 14 * (12, 6, 3) / 21 = (8, 4, 2) exactly; test the rest.
        CHECK(tr == std::vector<int>{8, 4, 2});
        CHECK(te == std::vector<int>{4, 2, 1});
    }
    Vector lonely(5);
    lonely << 0, 0, 0, 0, 1;
    CHECK_COMMAND_THROWS_WITH_AS(stratified_shuffle_split(lonely, 2, 2, 0.4, 1), doctest::Contains("--shuffle-split"),
                         UsageError);
}

TEST_CASE("group_kfold: groups never split, largest groups first into the lightest fold (sklearn GroupKFold)") {
    const auto groups = five_groups();
    const auto folds = group_kfold(groups, 3);
    REQUIRE(folds.size() == 3);
    // scikit-learn 1.2.1 GroupKFold(3) on these groups (record_cv_schemes_reference.py):
    CHECK(folds[0].test == std::vector<Index>{10, 11, 12, 13, 14});
    CHECK(folds[1].test == std::vector<Index>{0, 6, 7, 8, 9});
    CHECK(folds[2].test == std::vector<Index>{1, 2, 3, 4, 5});
    std::vector<int> tested(15, 0);
    for (const auto& f : folds) {
        check_disjoint_sorted(f, 15);
        std::set<Index> test_groups, train_groups;
        for (Index r : f.test) test_groups.insert(groups[static_cast<std::size_t>(r)]);
        for (Index r : f.train) train_groups.insert(groups[static_cast<std::size_t>(r)]);
        for (Index g : test_groups) CHECK_FALSE(train_groups.count(g));  // no group on both sides
        for (Index r : f.test) ++tested[static_cast<std::size_t>(r)];
    }
    for (int t : tested) CHECK(t == 1);

    CHECK_COMMAND_THROWS_WITH_AS(group_kfold(std::vector<Index>(8, 0), 2), doctest::Contains("--groups"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(group_kfold(groups, 6), doctest::Contains("-k 6"), UsageError);
}

TEST_CASE("cross_validate: leave-one-out equals sklearn cross_val_score(Ridge, cv=LeaveOneOut())") {
    const Dataset d = fifteen_rows();
    CvOptions opts;
    opts.scheme = CvScheme::leave_one_out;
    opts.metrics = {"mse"};
    const CvResult r = cross_validate(ridge(), d, opts, context(2));
    // scikit-learn 1.2.1, -cross_val_score(Ridge(alpha=1), X, y, cv=LeaveOneOut(),
    // scoring='neg_mean_squared_error') (record_cv_schemes_reference.py):
    const std::vector<double> expected{0.17088714505951477, 0.9590020755622558, 0.956806948591467,
                                       0.07623992033605738, 1.9703640116040873, 0.7907702844249607,
                                       0.2634190869280433,  0.3746663524270524, 1.6035732526958324,
                                       7.894895293590681e-05, 0.20270566234507856, 1.0499487257416678,
                                       0.5709602791610627,  0.10918426677522437, 0.4650401857192298};
    REQUIRE(r.folds.size() == 15);
    for (std::size_t i = 0; i < 15; ++i) CHECK(r.folds[i].scores.at("mse") == doctest::Approx(expected[i]).epsilon(1e-9));
    CHECK(r.mean("mse") == doctest::Approx(0.6375764764216314).epsilon(1e-9));
    CHECK(r.pooled.at("mse") == doctest::Approx(0.6375764764216314).epsilon(1e-9));  // pooled = mean for mse
    CHECK_FALSE(r.pooled_splits);
    REQUIRE(r.out_of_fold.y_pred.size() == 15);
}

TEST_CASE("cross_validate: group k-fold and a fixed split equal sklearn's GroupKFold / PredefinedSplit") {
    const Dataset d = fifteen_rows();
    CvOptions opts;
    opts.scheme = CvScheme::group_kfold;
    opts.k = 3;
    opts.groups = five_groups();
    opts.metrics = {"r2"};
    const CvResult g = cross_validate(ridge(), d, opts, context(2));
    // scikit-learn 1.2.1, cross_val_score(Ridge(alpha=1), X, y, cv=GroupKFold(3), groups=groups, scoring='r2')
    REQUIRE(g.folds.size() == 3);
    CHECK(g.folds[0].scores.at("r2") == doctest::Approx(0.8895351691036889).epsilon(1e-9));
    CHECK(g.folds[1].scores.at("r2") == doctest::Approx(0.8573739347084955).epsilon(1e-9));
    CHECK(g.folds[2].scores.at("r2") == doctest::Approx(0.7926783307078462).epsilon(1e-9));

    CvOptions fixed;
    fixed.scheme = CvScheme::fixed;
    Fold f;
    for (Index i = 0; i < 15; ++i) (i < 10 ? f.train : f.test).push_back(i);
    fixed.fixed = {f};
    fixed.metrics = {"r2"};
    const CvResult v = cross_validate(ridge(), d, fixed, context(1));
    REQUIRE(v.folds.size() == 1);
    // PredefinedSplit([-1]*10 + [0]*5): train rows 0..9, validate on 10..14.
    CHECK(v.folds[0].scores.at("r2") == doctest::Approx(0.8895351691036889).epsilon(1e-9));
    CHECK(v.pooled_splits);
    CHECK(v.out_of_fold.y_pred.size() == 5);
}

TEST_CASE("cross_validate: shuffle-split pools every split's predictions; identical on 1 and 2 threads") {
    const Dataset d = fifteen_rows();
    CvOptions opts;
    opts.scheme = CvScheme::shuffle_split;
    opts.shuffle_splits = 4;
    opts.test_fraction = 0.2;
    opts.metrics = {"mse", "r2"};
    const CvResult a = cross_validate(ridge(), d, opts, context(1));
    const CvResult b = cross_validate(ridge(), d, opts, context(2));
    REQUIRE(a.folds.size() == 4);
    CHECK(a.pooled_splits);
    CHECK(a.out_of_fold.y_pred.size() == 12);  // 4 splits x 3 test rows
    for (std::size_t i = 0; i < 4; ++i) CHECK(a.folds[i].scores == b.folds[i].scores);
    CHECK(a.out_of_fold.y_pred == b.out_of_fold.y_pred);
    CHECK(a.pooled.at("mse") == doctest::Approx(a.mean("mse")));  // equal-size splits: pooled mse = mean
}

TEST_CASE("cross_validate: preprocessing is fitted on the training rows of each fold only") {
    // Each out-of-fold prediction equals that of a model (scaler included) trained on the
    // fold's training rows alone; a far outlier makes a scaler that saw it differ.
    Dataset d = fifteen_rows();
    d.X.dense_mut()(14, 0) = 1000;
    ModelSpec spec = ridge();
    spec.preprocessing = {"standard"};
    CvOptions opts;
    opts.scheme = CvScheme::leave_one_out;
    opts.metrics = {"mse"};
    std::vector<Index> seen_rows;
    opts.observe = [&](const FitRecord& rec) {
        // every fit is given exactly the training rows of its fold
        seen_rows.push_back(rec.train.rows());
        CHECK(rec.test.rows() == 1);
    };
    const Context ctx = context(2);
    const CvResult r = cross_validate(spec, d, opts, ctx);
    CHECK(seen_rows == std::vector<Index>(15, 14));
    const auto folds = leave_one_out(15);
    for (std::size_t f = 0; f < 15; ++f) {
        const Model m = Model::train(spec, d.subset(folds[f].train), ctx.child(f, 1));
        const Vector p = m.predict(d.X.rows_subset(folds[f].test));
        CHECK(r.out_of_fold.y_pred[static_cast<Index>(f)] == p[0]);
    }
}

}  // TEST_SUITE

}  // namespace unit_model_selection_cv_schemes_test
}  // namespace
