#include <doctest/doctest.h>

#include "kestrel/core/rng.hpp"
#include "kestrel/tree/tree_grower.hpp"
#include "kestrel/tree/tree_params.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_tree_builder_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

Tree grow(const DenseView& X, const Vector& y, Index n_classes, TreeParams p, Vector w = Vector()) {
    if (w.size() == 0) w = Vector::Ones(X.rows());
    const Features features{DenseMatrix(X)};
    const TreeGrower grower(features, y, n_classes, p, 1);
    Rng rng(3);
    return grower.build({w.data(), static_cast<std::size_t>(w.size())}, rng);
}

// (x0, x1) -> y:  (1, 10) 0, (2, 30) 0, (3, 20) 1, (4, 40) 1.
// Root gini = 1 − (½² + ½²) = ½. Candidate splits, weighted child gini W_L/W·I_L + W_R/W·I_R:
//   x0 <= 1.5: {0} | {0,1,1}: ¾ · (1 − 1/9 − 4/9) = ¾ · 4/9 = 1/3
//   x0 <= 2.5: {0,0} | {1,1}: 0                                   <- best, decrease ½
//   x0 <= 3.5: {0,0,1} | {1}: 1/3
//   x1 <= 15: {0} | {1,0,1}: 1/3;  x1 <= 25: {0,1} | {0,1}: ½;  x1 <= 35: {0,1,0} | {1}: 1/3
struct Fixture {
    DenseMatrix X{4, 2};
    Vector y{{0.0, 0.0, 1.0, 1.0}};
    Fixture() { X << 1, 10, 2, 30, 3, 20, 4, 40; }
};

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("tree builder: the best gini split on a hand fixture, then pure leaves") {
        const Fixture f;
        for (Criterion c : {Criterion::gini, Criterion::entropy}) {
            CAPTURE(to_string(c));
            TreeParams p;
            p.criterion = c;
            const Tree t = grow(f.X, f.y, 2, p);
            REQUIRE(t.size() == 3);  // pure children are never split
            CHECK(t.node(0).feature == 0);
            CHECK(t.node(0).threshold == 2.5);
            // Root: gini ½, entropy 1 bit; both children pure.
            CHECK(t.node(0).impurity == doctest::Approx(c == Criterion::gini ? 0.5 : 1.0).epsilon(1e-15));
            const TreeNode& l = t.node(t.node(0).left);
            const TreeNode& r = t.node(t.node(0).right);
            CHECK(l.is_leaf());
            CHECK(r.is_leaf());
            CHECK(l.impurity == 0.0);
            CHECK(t.value(t.node(0).left)[0] == 2.0);  // class counts (2, 0)
            CHECK(t.value(t.node(0).right)[1] == 2.0);
            const Vector imp = t.impurity_decrease_by_feature();
            CHECK(imp[0] == doctest::Approx(4 * (c == Criterion::gini ? 0.5 : 1.0)));  // W · decrease
            CHECK(imp[1] == 0.0);
        }
    }

    TEST_CASE("tree builder: the best variance-reduction split by hand") {
        // x = (1, 2, 3, 4), y = (1, 1, 5, 7). Root: mean 3.5, E[y²] = 76/4 = 19, variance 19 − 12.25 = 6.75.
        //   x <= 1.5: {1} | {1,5,7}: ¾ · (25 − (13/3)²) = ¾ · 56/9 = 4.667
        //   x <= 2.5: {1,1} | {5,7}: ½ · 0 + ½ · 1 = 0.5            <- best, reduction 6.25
        //   x <= 3.5: {1,1,5} | {7}: ¾ · (9 − (7/3)²) = ¾ · 32/9 = 2.667
        DenseMatrix X(4, 1);
        X << 1, 2, 3, 4;
        const Vector y{{1.0, 1.0, 5.0, 7.0}};
        TreeParams p;
        p.criterion = Criterion::variance;
        p.max_depth = 1;
        const Tree t = grow(X, y, 0, p);
        REQUIRE(t.size() == 3);
        CHECK(t.node(0).threshold == 2.5);
        CHECK(t.node(0).impurity == doctest::Approx(6.75).epsilon(1e-14));
        CHECK(t.value(t.node(0).left)[0] == doctest::Approx(1.0));
        CHECK(t.value(t.node(0).right)[0] == doctest::Approx(6.0));
        CHECK(t.node(t.node(0).right).impurity == doctest::Approx(1.0).epsilon(1e-14));
        // Importance: W·I − W_L·I_L − W_R·I_R = 4·6.75 − 0 − 2·1 = 25.
        CHECK(t.impurity_decrease_by_feature()[0] == doctest::Approx(25.0).epsilon(1e-14));
    }

    TEST_CASE("tree builder: a pure node is never split") {
        DenseMatrix X(5, 2);
        X << 1, 5, 2, 4, 3, 3, 4, 2, 5, 1;
        const Tree t = grow(X, Vector::Zero(5), 2, TreeParams{});
        CHECK(t.size() == 1);
        CHECK(t.value(0)[0] == 5.0);
        TreeParams pv;
        pv.criterion = Criterion::variance;
        CHECK(grow(X, Vector::Constant(5, 2.5), 0, pv).size() == 1);
    }

    TEST_CASE("tree builder: min_samples_leaf is respected") {
        // x = 1..6, y = (0,1,1,1,1,1): the only pure split x <= 1.5 leaves one row on the left.
        // With min_samples_leaf = 2 the first allowed boundary is x <= 2.5.
        DenseMatrix X(6, 1);
        X << 1, 2, 3, 4, 5, 6;
        const Vector y{{0.0, 1.0, 1.0, 1.0, 1.0, 1.0}};
        TreeParams p;
        CHECK(grow(X, y, 2, p).node(0).threshold == 1.5);
        p.min_samples_leaf = 2;
        const Tree t = grow(X, y, 2, p);
        CHECK(t.node(0).threshold == 2.5);
        for (int i = 0; i < t.size(); ++i)
            if (t.node(i).is_leaf()) CHECK(t.node(i).samples >= 2);
        // On iris, with min_samples_leaf = 7 at every depth.
        const Dataset& d = iris_train();
        p.min_samples_leaf = 7;
        const Tree ti = grow(d.X.dense_ref(), d.y, 3, p);
        CHECK(ti.n_leaves() > 2);
        for (int i = 0; i < ti.size(); ++i)
            if (ti.node(i).is_leaf()) CHECK(ti.node(i).samples >= 7);
    }

    TEST_CASE("tree builder: depth, leaf and impurity-decrease limits") {
        const Dataset& d = iris_train();
        TreeParams p;
        p.max_depth = 2;
        CHECK(grow(d.X.dense_ref(), d.y, 3, p).depth() == 2);
        p = TreeParams{};
        p.max_leaf_nodes = 5;
        CHECK(grow(d.X.dense_ref(), d.y, 3, p).n_leaves() == 5);
        p = TreeParams{};
        p.min_impurity_decrease = 0.34;  // the root split of iris decreases gini by 0.3333 only
        CHECK(grow(d.X.dense_ref(), d.y, 3, p).size() == 1);
    }

    TEST_CASE("tree builder: a sample weight of 2 equals the row twice") {
        // Diabetes (regression) and iris without petal width (classification): fixtures
        // whose best splits are unique, so that rounding cannot break a tie differently.
        const Dataset& iris = iris_train();
        Dataset iris3 = iris;
        iris3.X = Features(DenseMatrix(iris.X.dense_ref().leftCols(3)));
        for (const Dataset* d : std::initializer_list<const Dataset*>{&diabetes_train(), &iris3}) {
            const bool cls = d->task == Task::classification;
            std::vector<Index> rows;
            Vector w = Vector::Ones(d->rows());
            for (Index i = 0; i < d->rows(); ++i) {
                rows.push_back(i);
                if (i % 3 == 0) {
                    rows.push_back(i);
                    w[i] = 2;
                }
            }
            const Dataset dup = d->subset(rows);
            TreeParams p;
            p.criterion = cls ? Criterion::entropy : Criterion::variance;
            p.max_depth = 6;
            const Index k = cls ? 3 : 0;
            const Tree a = grow(d->X.dense_ref(), d->y, k, p, w);
            const Tree b = grow(dup.X.dense_ref(), dup.y, k, p);
            REQUIRE(a.size() == b.size());
            for (int i = 0; i < a.size(); ++i) {
                CHECK(a.node(i).feature == b.node(i).feature);
                CHECK(a.node(i).threshold == b.node(i).threshold);
                CHECK(a.node(i).weight == b.node(i).weight);
                CHECK(a.node(i).impurity == doctest::Approx(b.node(i).impurity).epsilon(1e-10));
                for (Index c = 0; c < a.n_outputs(); ++c)
                    CHECK(a.value(i)[c] == doctest::Approx(b.value(i)[c]).epsilon(1e-12));
            }
        }
    }

    TEST_CASE("tree builder: max_features draws are seeded and never skip a usable feature") {
        const Dataset& d = iris_train();
        TreeParams p;
        p.max_features = 1;
        const TreeGrower grower(d.X, d.y, 3, p, 1);
        TreeGrower::Builder b = grower.builder();
        const Vector w = Vector::Ones(d.rows());
        Rng r1(5), r2(5), r3(6);
        const Tree t1 = b.build({w.data(), static_cast<std::size_t>(w.size())}, r1);
        const Tree t2 = b.build({w.data(), static_cast<std::size_t>(w.size())}, r2);
        const Tree t3 = b.build({w.data(), static_cast<std::size_t>(w.size())}, r3);
        CHECK(t1.to_json() == t2.to_json());
        CHECK(t1.to_json() != t3.to_json());
        // Grown to purity even with one feature per node (a constant drawn feature does
        // not use up the draw): every training row lands in a leaf of its own class.
        for (Index i = 0; i < d.rows(); ++i) {
            const double* v = t1.value(t1.apply(d.X.dense_ref().row(i).data()));
            CHECK(v[static_cast<Index>(d.y[i])] == v[0] + v[1] + v[2]);
        }
    }

}  // TEST_SUITE

}  // namespace unit_tree_tree_builder_test
}  // namespace
