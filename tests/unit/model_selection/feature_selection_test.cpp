#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/model_selection/feature_selection.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/preprocess/column_selector.hpp"
#include "model_fixtures.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_feature_selection_test {

using namespace kestrel;

namespace {

// Six features; the class is the sign of x1 + x4 (the others are noise), with a margin
// so that logistic regression separates it once it sees both.
Dataset two_relevant(Index n = 120, std::uint64_t seed = 5) {
    Rng rng(seed);
    Dataset d;
    d.task = Task::classification;
    d.classes = {"neg", "pos"};
    DenseMatrix X(n, 6);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        double s = 0;
        do {
            for (Index j = 0; j < 6; ++j) X(i, j) = rng.normal();
            s = X(i, 1) + X(i, 4);
        } while (std::abs(s) < 0.3);
        d.y[i] = s > 0 ? 1 : 0;
    }
    d.X = X;
    for (Index j = 0; j < 6; ++j) d.feature_names.push_back("x" + std::to_string(j));
    d.source = "two_relevant";
    return d;
}

ModelSpec logistic() {
    ModelSpec s;
    s.model = "logistic";
    s.params = {{"C", 100}};
    return s;
}

}  // namespace

TEST_SUITE("model_selection") {
    TEST_CASE("forward selection finds the two relevant features and stops") {
        const Dataset d = two_relevant();
        SelectionOptions o;
        const SelectionResult r = sequential_selection(logistic(), d, o, Context{});
        CHECK(r.metric == "accuracy");
        CHECK(r.selected == std::vector<Index>{1, 4});
        REQUIRE(r.trajectory.size() == 2);
        CHECK(r.trajectory[1].error < r.trajectory[0].error);
        CHECK(r.trajectory[1].error == doctest::Approx(0.0));
        CHECK(r.stop.text() == "the cross-validated error no longer decreases");
        o.max_features = 1;
        const SelectionResult one = sequential_selection(logistic(), d, o, Context{});
        CHECK(one.selected.size() == 1);
        CHECK((one.selected[0] == 1 || one.selected[0] == 4));
    }

    TEST_CASE("backward selection removes the noise features") {
        const Dataset d = two_relevant();
        SelectionOptions o;
        o.forward = false;
        o.max_features = 2;  // the full set is already perfect: removals go on down to 2
        const SelectionResult r = sequential_selection(logistic(), d, o, Context{});
        CHECK(r.selected == std::vector<Index>{1, 4});
        CHECK(r.trajectory.front().features.size() == 6);
        CHECK(r.trajectory.front().changed == -1);
        CHECK(r.trajectory.size() == 5);
    }

    TEST_CASE("L1 selection: lasso and L1 logistic keep the relevant features, which enter first") {
        const Dataset reg = test::linear_regression(100, 5, 0.1);  // y = 1 + 2 x0 - x1 + noise
        ModelSpec lasso;
        lasso.model = "lasso";
        SelectionOptions o;
        const L1SelectionResult r = l1_selection(lasso, reg, o, 12, Context{});
        CHECK(r.strength_name == "lambda");
        CHECK(r.path.size() == 12);
        REQUIRE(r.entry_order.size() >= 2);
        CHECK(r.entry_order[0] == 0);
        CHECK(r.entry_order[1] == 1);
        CHECK(std::find(r.selected.begin(), r.selected.end(), 0) != r.selected.end());
        CHECK(std::find(r.selected.begin(), r.selected.end(), 1) != r.selected.end());
        for (std::size_t i = 1; i < r.path.size(); ++i) CHECK(r.path[i].strength < r.path[i - 1].strength);

        ModelSpec l1;
        l1.model = "logistic";
        const L1SelectionResult c = l1_selection(l1, two_relevant(), o, 8, Context{});
        CHECK(c.strength_name == "C");
        REQUIRE(c.entry_order.size() >= 2);
        CHECK(std::vector<Index>{std::min(c.entry_order[0], c.entry_order[1]),
                                 std::max(c.entry_order[0], c.entry_order[1])} == std::vector<Index>{1, 4});
        o.max_features = 2;
        CHECK(l1_selection(l1, two_relevant(), o, 8, Context{}).selected == std::vector<Index>{1, 4});
        CHECK_THROWS_AS(l1_selection(logistic(), reg, o, 8, Context{}), UsageError);
    }

    TEST_CASE("L1 selection with the L1 squared-hinge SVM (LIBLINEAR -s 5): its path starts where w leaves zero") {
        ModelSpec svm;
        svm.model = "linear_svm";
        SelectionOptions o;
        const int points = 8;
        const L1SelectionResult r = l1_selection(svm, two_relevant(), o, points, Context{});
        CHECK(r.model == "linear_svm");
        CHECK(r.strength_name == "C");
        REQUIRE(r.entry_order.size() >= 2);
        CHECK(std::vector<Index>{std::min(r.entry_order[0], r.entry_order[1]),
                                 std::max(r.entry_order[0], r.entry_order[1])} == std::vector<Index>{1, 4});
        o.max_features = 2;
        CHECK(l1_selection(svm, two_relevant(), o, points, Context{}).selected == std::vector<Index>{1, 4});

        // The path starts at C_min * 10^(3/points); C_min is the exact bound below which
        // w = 0 (bias included) is optimal: just under it every weight is zero, above it not.
        const double c_min = r.path[0].strength / std::pow(10.0, 3.0 / points);
        auto weights_at = [&](double C) {
            ModelSpec s = svm;
            s.params["penalty"] = "l1";
            s.params["C"] = C;
            s.params["eps"] = 1e-6;
            const Model m = Model::train(s, two_relevant(), Context{});
            const auto* w = dynamic_cast<const MulticlassWrapper*>(&m.estimator());
            REQUIRE(w != nullptr);
            REQUIRE(w->direct_member() != nullptr);
            const auto& lin = dynamic_cast<const LinearSvm&>(*w->direct_member());
            Vector all(lin.coef().size() + 1);
            all << lin.coef(), lin.intercept();
            return all;
        };
        CHECK(weights_at(0.98 * c_min).cwiseAbs().maxCoeff() == 0.0);
        CHECK(weights_at(1.5 * c_min).cwiseAbs().maxCoeff() > 0.0);
    }

    TEST_CASE("a selection saved as a preprocessing step predicts as the model on those columns") {
        const Dataset d = two_relevant();
        ModelSpec s = logistic();
        s.preprocessing = {column_selector_spec({4, 1}), "standard"};
        const Model m = Model::train(s, d, Context{});
        const Model sub = Model::train(logistic(), with_features(d, {4, 1}), Context{});
        ModelSpec plain = logistic();
        plain.preprocessing = {column_selector_spec({4, 1})};
        const Model p = Model::train(plain, d, Context{});
        CHECK(p.decision_function(d.X) == sub.decision_function(select_columns(d.X, {4, 1})));
        const Model back = Model::from_json(m.to_json(), "mem");
        CHECK(back.predict(d.X) == m.predict(d.X));
        CHECK(back.n_features() == 6);
        // Sparse input gives the same columns.
        const Features sparse(SparseMatrix(d.X.dense_ref().sparseView()));
        CHECK(select_columns(sparse, {4, 1}).to_dense() == select_columns(d.X, {4, 1}).to_dense());
    }

    TEST_CASE("permutation importance agrees with scikit-learn's on a ridge fixture") {
        // tests/unit/model_selection/make_imbalance_references.py (scikit-learn 1.2.1):
        // Ridge(alpha=1) on data/permutation_fixture.csv, permutation_importance(scoring="r2",
        // n_repeats=200): mean [1.50338373, 0.478023005, 0.000768223], std [0.112, 0.0374, 0.00062].
        Table t = read_table(test::repo_path("tests/unit/model_selection/data/permutation_fixture.csv"), ReadOptions{});
        const Dataset d = make_dataset(std::move(t), Task::regression);
        ModelSpec ridge;
        ridge.model = "ridge";
        ridge.params = {{"alpha", 1.0}};
        const Model m = Model::train(ridge, d, Context{});
        const PermutationImportance p = permutation_importance(m, d.X, d.y, "r2", 200, 1, 1);
        CHECK(p.baseline == doctest::Approx(0.9545240065254809).epsilon(1e-6));
        CHECK(p.mean[0] == doctest::Approx(1.50338373).epsilon(0.03));
        CHECK(p.mean[1] == doctest::Approx(0.478023005).epsilon(0.03));
        CHECK(std::abs(p.mean[2] - 0.000768223) < 5e-4);
        CHECK(p.std[0] == doctest::Approx(0.112).epsilon(0.25));
        // Independent of the thread count.
        const PermutationImportance q = permutation_importance(m, d.X, d.y, "r2", 200, 1, 2);
        CHECK(q.drops == p.drops);
        // An error metric counts as a loss of quality too (positive importance).
        CHECK(permutation_importance(m, d.X, d.y, "rmse", 5, 1, 1).mean[0] > 0);
    }
}

}  // namespace unit_model_selection_feature_selection_test
}  // namespace
