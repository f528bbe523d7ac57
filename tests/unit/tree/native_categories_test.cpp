// tree and forest split on categories and learn a missing-value direction natively
// (docs/models/tree.md, "Categorical features" and "Missing values").
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_native_categories_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Dataset with_categories(DenseMatrix X, Vector y, Task task, std::vector<Index> counts, Index n_classes = 2) {
    Dataset d = tiny(std::move(X), std::move(y), task, n_classes);
    d.category_counts = std::move(counts);
    return d;
}

std::unique_ptr<DecisionTree> fit_tree(const Dataset& d, Params p, int threads = 1) {
    auto t = make<DecisionTree>(tree_model_info(), p);
    t->fit(d, test::threads(threads));
    return t;
}

// Binary classes over 6 categories of 20 rows each; category c has ones[c] rows of class 1.
// Ordered by P(class 1): 5 (1/20), 1 (2/20), 3 (4/20), 2 (16/20), 0 (18/20), 4 (19/20).
const int kOnes[6] = {18, 2, 16, 4, 19, 1};
Dataset six_categories() {
    DenseMatrix X(120, 1);
    Vector y(120);
    for (Index i = 0; i < 120; ++i) {
        const int c = static_cast<int>(i / 20), r = static_cast<int>(i % 20);
        X(i, 0) = c;
        y[i] = r < kOnes[c] ? 1.0 : 0.0;
    }
    return with_categories(std::move(X), std::move(y), Task::classification, {6});
}

// Gini proxy Σ_c L_c²/W_L + Σ_c R_c²/W_R of sending the categories in `left` left.
double gini_proxy(const std::set<int>& left) {
    double l1 = 0, l0 = 0, r1 = 0, r0 = 0;
    for (int c = 0; c < 6; ++c) (left.count(c) ? l1 : r1) += kOnes[c], (left.count(c) ? l0 : r0) += 20 - kOnes[c];
    return (l1 * l1 + l0 * l0) / (l1 + l0) + (r1 * r1 + r0 * r0) / (r1 + r0);
}

Dataset credit(const std::string& part, const std::optional<CategoryLists>& categories = std::nullopt) {
    ReadOptions o;
    o.label_col = "Status";
    o.missing = MissingPolicy::keep;
    o.feature_categories = categories;
    return make_dataset(read_table(std::string(KESTREL_SOURCE_DIR) + "/data/tables/credit_data/" + part + ".csv", o),
                        Task::classification);
}

Model train(const std::string& name, const Dataset& d, Params p, int threads = 1) {
    ModelSpec spec;
    spec.model = name;
    spec.params = std::move(p);
    Context ctx = test::threads(threads, 3);
    return Model::train(spec, d, ctx);
}

}  // namespace

TEST_SUITE("tree native categories") {
    TEST_CASE("tree categories: the root splits the categories as the best of all 32 partitions") {
        const Dataset d = six_categories();
        const auto t = fit_tree(d, {{"max_depth", 1}, {"cat_smooth", 0.0}});
        const Tree& tree = t->tree();
        REQUIRE(tree.is_categorical(0));
        CHECK(tree.category_count(0) == 6);
        // Brute force over the partitions with category 0 on the right (the other half mirrors them).
        std::set<int> best;
        double best_proxy = -1;
        for (int mask = 1; mask < 32; ++mask) {
            std::set<int> left;
            for (int c = 1; c < 6; ++c)
                if (mask & (1 << (c - 1))) left.insert(c);
            if (gini_proxy(left) > best_proxy) best_proxy = gini_proxy(left), best = left;
        }
        CHECK(best == std::set<int>{1, 3, 5});  // the three low-P(class 1) categories
        const std::vector<int> left = tree.left_categories(0);
        CHECK(std::set<int>(left.begin(), left.end()) == best);
        // The children's class counts: [53, 7] left, [7, 53] right.
        CHECK(tree.value(tree.node(0).left)[0] == 53.0);
        CHECK(tree.value(tree.node(0).left)[1] == 7.0);
        CHECK(tree.value(tree.node(0).right)[1] == 53.0);
        CHECK(dump_tree(tree, {"colour"}, {"no", "yes"}).find("colour in {1, 3, 5}") != std::string::npos);
    }

    TEST_CASE("tree categories: a regression tree on codes equals the tree on the codes ranked by mean target") {
        // 7 categories with distinct mean targets (and noise), rows unbalanced.
        const double mean[7] = {3.0, -1.0, 7.5, 0.5, 5.0, 2.0, -4.0};
        Rng rng(11);
        const Index n = 350;
        DenseMatrix Xc(n, 1), Xr(n, 1);
        Vector y(n);
        // Rank of each code in increasing mean: 6, 1, 3, 5, 0, 4, 2.
        const int rank[7] = {4, 1, 6, 2, 5, 3, 0};
        for (Index i = 0; i < n; ++i) {
            const int c = static_cast<int>((i % 7 + (i % 5 == 0 ? 1 : 0)) % 7);  // unbalanced
            Xc(i, 0) = c;
            Xr(i, 0) = rank[c];
            y[i] = mean[c] + 0.1 * rng.normal();
        }
        const Dataset dc = with_categories(Xc, y, Task::regression, {7}, 0);
        const Dataset dr = tiny(Xr, y, Task::regression, 0);
        for (int depth : {1, 2, 3, 0}) {
            CAPTURE(depth);
            const auto tc = fit_tree(dc, {{"max_depth", depth}, {"cat_smooth", 0.0}, {"min_samples_leaf", 5}});
            const auto tr = fit_tree(dr, {{"max_depth", depth}, {"cat_smooth", 0.0}, {"min_samples_leaf", 5}});
            // The same partitions; sums over the rows in another order may differ in the last bits.
            CHECK(tc->tree().size() == tr->tree().size());
            CHECK((tc->predict(dc.X) - tr->predict(dr.X)).cwiseAbs().maxCoeff() < 1e-12);
            CHECK(tc->tree().node(0).impurity == doctest::Approx(tr->tree().node(0).impurity).epsilon(1e-14));
        }
    }

    TEST_CASE("tree missing: the direction is learned where missing rows look like either class") {
        // x = 1..10, class 1 above 5; four rows missing x, of class `missing_class`.
        for (int missing_class : {0, 1}) {
            CAPTURE(missing_class);
            DenseMatrix X(14, 1);
            Vector y(14);
            for (Index i = 0; i < 10; ++i) X(i, 0) = static_cast<double>(i + 1), y[i] = i + 1 > 5 ? 1.0 : 0.0;
            for (Index i = 10; i < 14; ++i) X(i, 0) = kNaN, y[i] = missing_class;
            const Dataset d = tiny(X, y, Task::classification);
            const auto t = fit_tree(d, {{"max_depth", 1}});
            const TreeNode& root = t->tree().node(0);
            CHECK(root.threshold == 5.5);
            CHECK(root.missing_left == (missing_class == 0));
            // Pure children: the split is perfect.
            CHECK(t->tree().node(root.left).impurity == 0.0);
            CHECK(t->tree().node(root.right).impurity == 0.0);
            DenseMatrix q(1, 1);
            q(0, 0) = kNaN;
            CHECK(t->predict(Features(q))[0] == missing_class);
        }
    }

    TEST_CASE("tree missing: a node without missing rows sends them to its heavier child") {
        // x = 1..10; class 1 above `cut`: the heavier side holds 7 of the 10 rows.
        for (int cut : {3, 7}) {
            CAPTURE(cut);
            DenseMatrix X(10, 1);
            Vector y(10);
            for (Index i = 0; i < 10; ++i) X(i, 0) = static_cast<double>(i + 1), y[i] = i + 1 > cut ? 1.0 : 0.0;
            const auto t = fit_tree(tiny(X, y, Task::classification), {{"max_depth", 1}});
            CHECK(t->tree().node(0).missing_left == (cut == 7));
            DenseMatrix q(1, 1);
            q(0, 0) = kNaN;
            CHECK(t->predict(Features(q))[0] == (cut == 7 ? 0.0 : 1.0));
            CHECK(std::isfinite(t->predict_proba(Features(q))(0, 0)));
        }
    }

    TEST_CASE("tree missing: sparse input has no missing values, so a NaN there is a data error (the histogram forest bins it as missing)") {
        DenseMatrix X(4, 1);
        X << 1, 2, 3, 4;
        Dataset d = tiny(X, Vector{{0.0, 0.0, 1.0, 1.0}}, Task::classification);
        SparseMatrix S = X.sparseView();
        S.coeffRef(1, 0) = kNaN;
        const Features dense = d.X;
        d.X = Features(std::move(S));
        CHECK_THROWS_AS(fit_tree(d, Params::object()), DataError);
        auto exact = make<RandomForest>(forest_model_info(), {{"n_estimators", 3}});
        CHECK_THROWS_AS(exact->fit(d, test::threads(1)), DataError);
        // The histogram forest bins sparse rows dense: the stored NaN is a missing value, and
        // the forest is the one the dense rows (NaN in the same cell) give.
        const Params hist{{"n_estimators", 3}, {"tree_method", "hist"}, {"min_samples_leaf", 1}};
        auto from_sparse = make<RandomForest>(forest_model_info(), hist), from_dense = make<RandomForest>(forest_model_info(), hist);
        from_sparse->fit(d, test::threads(1));
        Dataset dd = d;
        DenseMatrix holes(dense.dense_ref());
        holes(1, 0) = kNaN;
        dd.X = Features(std::move(holes));
        from_dense->fit(dd, test::threads(1));
        CHECK(from_sparse->save_state() == from_dense->save_state());
    }

    TEST_CASE("tree categories: unseen, invalid and missing codes at predict follow the missing direction") {
        const Dataset d = six_categories();
        const auto t = fit_tree(d, {{"max_depth", 1}, {"cat_smooth", 0.0}});
        const Tree& tree = t->tree();
        // No missing rows in training: missing goes to the heavier child (60 rows each: left).
        CHECK(tree.node(0).missing_left);
        for (double x : {kUnknownCategory, kNaN, 6.0, 2.5}) {
            CAPTURE(x);
            CHECK(tree.goes_left(0, x));
        }
        CHECK(!tree.goes_left(0, 0.0));
        CHECK(tree.goes_left(0, 5.0));
    }

    TEST_CASE("tree categories: missing values are a category of their own in a categorical split") {
        // Categories 0..2 (30 rows each) and 30 missing rows; class 1 for categories 0 and 2
        // and for the missing rows.
        DenseMatrix X(120, 1);
        Vector y(120);
        for (Index i = 0; i < 120; ++i) {
            const int c = static_cast<int>(i / 30);
            X(i, 0) = c == 3 ? kNaN : c;
            y[i] = c == 1 ? 0.0 : 1.0;
        }
        const auto t = fit_tree(with_categories(X, y, Task::classification, {3}), {{"max_depth", 1}});
        const Tree& tree = t->tree();
        REQUIRE(tree.is_categorical(0));
        const std::vector<int> left = tree.left_categories(0);
        // Left holds category 1 alone (class 0) or {0, 2} with the missing rows.
        if (left == std::vector<int>{1})
            CHECK(!tree.node(0).missing_left);
        else
            CHECK((left == std::vector<int>{0, 2} && tree.node(0).missing_left));
        CHECK(tree.node(tree.node(0).left).impurity == 0.0);
        CHECK(tree.node(tree.node(0).right).impurity == 0.0);
    }

    TEST_CASE("tree and forest categories: save / load and thread counts give identical predictions") {
        const Dataset train_set = credit("train");
        const Dataset test_set = credit("test", train_set.categories);
        for (const char* name : {"tree", "forest"}) {
            CAPTURE(name);
            const Params p = std::string(name) == "tree" ? Params{{"max_depth", 6}} : Params{{"n_estimators", 20}};
            const Model one = train(name, train_set, p, 1), two = train(name, train_set, p, 2);
            // Native: no imputer or one-hot step before the estimator.
            CHECK(one.to_json()["preprocessing"].dump().find("onehot") == std::string::npos);
            CHECK(one.predict_proba(test_set.X) == two.predict_proba(test_set.X));
            const auto path = (std::filesystem::temp_directory_path() / "kestrel_test_native_cat.json").string();
            one.save(path);
            const Model back = Model::load(path);
            CHECK(back.predict_proba(test_set.X) == one.predict_proba(test_set.X));
            CHECK(back.report("tree") == one.report("tree"));
            std::filesystem::remove(path);
            CHECK(accuracy(one.predict(test_set.X), test_set.y) > 0.74);  // the majority class is 0.72
        }
    }

    TEST_CASE("tree and forest files from before native splits load and predict as their kestrel did") {
        // tests/fixtures/tree-forest-before-native (README there): imputer and one-hot steps.
        const std::string dir = std::string(KESTREL_SOURCE_DIR) + "/tests/fixtures/tree-forest-before-native/";
        for (const char* stem : {"credit_forest_v2", "credit_tree_v1"}) {
            CAPTURE(stem);
            const Model old = Model::load(dir + stem + ".json");
            const Dataset test_set = credit("test", old.categories());
            const Matrix expected = csv_numbers(dir + stem + ".proba.csv", 1);
            CHECK(old.predict_proba(test_set.X) == expected);
        }
    }

    TEST_CASE("forest: permutation importance walks category sets and the missing direction as predict does") {
        // One feature that decides the class, each row's value drawn in equal thirds or
        // quarters. A walk that read a categorical split as a threshold, or sent NaN right
        // whatever the split learned, would misclassify the out-of-bag rows as they are and
        // halve the importance. Expected (1 feature, trees that fit it exactly): the error
        // with the feature permuted minus 0. Categories: class 1 for codes {1, 2} of 0..3,
        // 1/2. Missing: class 1 for x = 2, class 0 for x = 1 and for NaN, 1 - (1/3)^2 -
        // (2/3)^2 = 4/9.
        const auto importance = [](const Dataset& d) {
            auto f = make<RandomForest>(forest_model_info(), {{"n_estimators", 40}, {"importance", "permutation"}});
            f->fit(d, test::threads(1));
            REQUIRE(f->permutation_importances());
            return (*f->permutation_importances())[0];
        };
        DenseMatrix codes(240, 1), values(240, 1);
        Vector y_codes(240), y_values(240);
        Rng rng(7);
        for (Index i = 0; i < 240; ++i) {
            const auto c = static_cast<double>(rng.below(4));
            codes(i, 0) = c;
            y_codes[i] = c == 1 || c == 2 ? 1.0 : 0.0;
            const auto v = rng.below(3);
            values(i, 0) = v == 0 ? kNaN : static_cast<double>(v);
            y_values[i] = v == 2 ? 1.0 : 0.0;
        }
        const double by_set = importance(with_categories(codes, y_codes, Task::classification, {4}));
        CHECK(by_set == doctest::Approx(0.5).epsilon(0.15));  // 0.25 with a threshold walk
        const double by_missing = importance(tiny(values, y_values, Task::classification));
        CHECK(by_missing == doctest::Approx(4.0 / 9).epsilon(0.15));  // 0.22 with NaN sent right
    }
}

}  // namespace unit_tree_native_categories_test
}  // namespace
