// The tree models' contributions (docs/explanations.md): TreeSHAP of each class's
// probability (or the regression output), the nodes' training weights as covers. The
// algorithm against brute-force Shapley values: tests/unit/common/tree_shap_test.cpp.
#include <doctest/doctest.h>

#include <omp.h>

#include <limits>

#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_contrib_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

template <class Model>
std::unique_ptr<Model> fit(const ModelInfo& info, const Dataset& d, const Params& given) {
    auto m = make<Model>(info, given);
    Context ctx;
    ctx.threads = 1;
    m->fit(d, ctx);
    return m;
}

// Each output's contributions and bias sum to `outputs` (n x K), on every row.
void check_additive(const Matrix& c, const Matrix& outputs, Index d) {
    REQUIRE(c.cols() == outputs.cols() * (d + 1));
    for (Index i = 0; i < c.rows(); ++i)
        for (Index o = 0; o < outputs.cols(); ++o)
            CHECK(c.row(i).segment(o * (d + 1), d + 1).sum() ==
                  doctest::Approx(outputs(i, o)).epsilon(1e-12).scale(1.0));
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("tree contributions: additive for each class's probability and for regression") {
        const auto clf = fit<DecisionTree>(tree_model_info(), iris_train(), {{"max_depth", 4}});
        check_additive(clf->contributions(iris_test().X), clf->predict_proba(iris_test().X), 4);
        const auto reg = fit<DecisionTree>(tree_model_info(), diabetes_train(), {{"max_depth", 6}});
        const Vector p = reg->predict(diabetes_test().X);
        check_additive(reg->contributions(diabetes_test().X), Matrix(p), diabetes_test().X.cols());
        // The bias is the training rows' weighted mean: the root's value.
        const Matrix c = reg->contributions(diabetes_test().X);
        CHECK(c(0, c.cols() - 1) == doctest::Approx(diabetes_train().y.mean()).epsilon(1e-12));
    }

    TEST_CASE("forest contributions: additive, identical after save and load and at 1 and 2 threads") {
        for (const Dataset* train : {&iris_train(), &diabetes_train()}) {
            const Dataset& test = train == &iris_train() ? iris_test() : diabetes_test();
            const bool classification = train->task == Task::classification;
            const Params p{{"n_estimators", 20}, {"max_depth", 8}};
            const auto f = fit<RandomForest>(forest_model_info(), *train, p);
            const Matrix c = f->contributions(test.X);
            check_additive(c, classification ? f->predict_proba(test.X) : Matrix(f->predict(test.X)), test.X.cols());
            auto back = make<RandomForest>(forest_model_info(), p);
            back->load_state(Json::parse(f->save_state().dump()));
            CHECK(back->contributions(test.X) == c);
            // Many rows, so that the blocks of rows spread over the threads.
            Features many(DenseMatrix(test.X.dense_ref().replicate(20, 1)));
            omp_set_num_threads(1);
            const Matrix one = f->contributions(many);
            omp_set_num_threads(2);
            CHECK(f->contributions(many) == one);
            CHECK(one.topRows(test.X.rows()) == c);
        }
    }

    TEST_CASE("tree contributions: a stump's by hand") {
        // x <= 1.5 splits 3 rows of y = 0 (left) from 1 row of y = 8 (right): the bias is the
        // mean, 2; a left row gets 0 - 2 on x, a right row 8 - 2; the unused column 0.
        DenseMatrix X(4, 2);
        X << 0, 1, 0, 1, 0, 1, 0, 2;
        Vector y(4);
        y << 0, 0, 0, 8;
        const auto t = fit<DecisionTree>(tree_model_info(), tiny(X, y, Task::regression), {{"max_depth", 1}});
        const Matrix c = t->contributions(Features(X));
        CHECK(c.row(0) == Eigen::RowVector3d(0, -2, 2));
        CHECK(c.row(3) == Eigen::RowVector3d(0, 6, 2));
    }

    TEST_CASE("tree and forest contributions: category sets and missing values route as prediction does") {
        // A category stump: the one row of code 1 (of 3) has y = 6, the rest y = 0; the bias
        // is the mean 1, a row of code 1 gets 5 on column 0 and the others -1. An unseen code
        // (-1) and a missing one go the missing side, learned here with the larger side.
        DenseMatrix X(6, 2);
        X << 0, 5, 1, 5, 2, 5, 0, 5, 2, 5, 2, 5;
        Vector y(6);
        y << 0, 6, 0, 0, 0, 0;
        Dataset d = tiny(X, y, Task::regression);
        d.category_counts = {3, 0};
        d.categories = {{"a", "b", "c"}, {}};
        const auto t = fit<DecisionTree>(tree_model_info(), d, {{"max_depth", 1}, {"cat_smooth", 0}});
        DenseMatrix probe(4, 2);
        probe << 1, 5, 2, 5, kUnknownCategory, 5, std::numeric_limits<double>::quiet_NaN(), 5;
        const Matrix c = t->contributions(Features(probe));
        const Vector p = t->predict(Features(probe));
        CHECK(c.row(0) == Eigen::RowVector3d(5, 0, 1));
        CHECK(c.row(1) == Eigen::RowVector3d(-1, 0, 1));
        for (Index r = 2; r < 4; ++r) CHECK(c(r, 0) + c(r, 2) == doctest::Approx(p[r]).epsilon(1e-15));

        // A forest on mixed columns with missing cells: additive on every row.
        const Index n = 300;
        DenseMatrix Xm(n, 3);
        Vector ym(n);
        for (Index i = 0; i < n; ++i) {
            const double code = static_cast<double>((i * 7) % 5);
            Xm(i, 0) = i % 11 == 0 ? std::numeric_limits<double>::quiet_NaN() : code;
            Xm(i, 1) = i % 13 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(i % 17) / 4;
            Xm(i, 2) = static_cast<double>((i * 3) % 10);
            ym[i] = (code == 1 || code == 3) + (Xm(i, 2) > 4) > 0 ? 1 : 0;
        }
        Dataset m = tiny(Xm, ym, Task::classification);
        m.category_counts = {5, 0, 0};
        m.categories = {{"a", "b", "c", "d", "e"}, {}, {}};
        const auto f = fit<RandomForest>(forest_model_info(), m, {{"n_estimators", 10}});
        check_additive(f->contributions(m.X), f->predict_proba(m.X), 3);
    }
}

}  // namespace unit_tree_contrib_test
}  // namespace
