// The saved stack of kestrel-auto --stack (tasks/auto_task.hpp refit_auto_stack,
// Model::stacked; docs/auto.md "Stacking"): it reproduces the chain its out-of-fold scores
// measured (each first-layer member's bag of fold models -> their averaged predictions ->
// the second layer's bag), round-trips through its file, and is the same at 1 and 2 threads;
// with --stack-features the row's own columns follow the members' predictions (version 8).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "auto_tables.hpp"
#include "kestrel/model_selection/auto_stack.hpp"
#include "kestrel/model_selection/fold_models.hpp"
#include "kestrel/tasks/auto_task.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_auto_stack_model_test {

using namespace kestrel;
using test::wave;

namespace {

// Three classes on 3 features with overlap: every model errs somewhere.
Dataset three_classes(Index n) {
    Dataset d;
    DenseMatrix X(n, 3);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / static_cast<double>(n);
        X(i, 0) = std::sin(31.0 * t) + 0.2 * static_cast<double>(i % 5);
        X(i, 1) = std::cos(17.0 * t);
        X(i, 2) = std::sin(7.0 * t + 0.3 * static_cast<double>(i % 4));
        const double s = X(i, 0) + X(i, 1) - 0.5 * X(i, 2) + 0.3 * std::sin(97.0 * t);
        d.y[i] = s < -0.3 ? 0 : s < 0.6 ? 1 : 2;
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    d.classes = {"low", "mid", "high"};
    d.feature_names = {"a", "b", "c"};
    return d;
}


Context context(int threads) {
    Context c;
    c.threads = threads;
    c.seed = 9;
    return c;
}

AutoResult search(const Dataset& d, const std::string& metric, const std::vector<std::string>& models,
                  bool features = false) {
    AutoOptions o;
    o.split.k = 3;
    o.metric = metric;
    o.models = models;
    o.max_evals = 6;
    o.confirm_leaders = 0;
    o.base.missing = "auto";
    o.stack_members = 2;
    o.stack_features = features;
    return auto_search(d, o, context(1));
}

// The chain by hand: each member's fold models averaged, their columns side by side (then,
// with --stack-features, the row's own columns), the second layer's fold models averaged on them.
Matrix chain_by_hand(const AutoResult& r, const Dataset& d, const Features& X) {
    const AutoStack& s = *r.stack;
    const bool classes = d.task == Task::classification;
    const Index width = classes ? d.n_classes() : 1;
    const Index predicted = width * static_cast<Index>(s.members.size());
    DenseMatrix Z = DenseMatrix::Zero(X.rows(), predicted + (s.features ? X.cols() : 0));
    if (s.features) Z.rightCols(X.cols()) = X.to_dense();
    for (std::size_t g = 0; g < s.members.size(); ++g) {
        const AutoCandidate& c = r.leaderboard[s.members[g]];
        for (const Model& m : fit_fold_models(d, r.folds, c.spec, context(1), c.model)) {
            if (classes) Z.middleCols(static_cast<Index>(g) * width, width) += (1.0 / 3) * m.predict_proba(X);
            else Z.col(static_cast<Index>(g)) += (1.0 / 3) * m.predict(X);
        }
    }
    Matrix out = Matrix::Zero(X.rows(), width);
    for (const Model& m : fit_fold_models(s.inputs, r.folds, s.best().spec, context(1), s.best().model)) {
        if (classes) out += (1.0 / 3) * m.predict_proba(Features(Z));
        else out.col(0) += (1.0 / 3) * m.predict(Features(Z));
    }
    return out;
}

}  // namespace

TEST_SUITE("tasks.auto_stack") {
    TEST_CASE("the saved stack predicts its chain: the members' bags, their averaged probabilities, the second layer's bag") {
        const Dataset d = three_classes(240);
        const AutoResult r = search(d, "log_loss", {"logistic", "tree", "knn"});
        REQUIRE(r.stack.has_value());
        REQUIRE(r.stack->members.size() == 2);
        const Model m = refit_auto_stack(r, d, context(2), true);
        REQUIRE(m.ensemble_members() != nullptr);
        CHECK(m.ensemble_members()->size() == 6);  // two members' 3 fold models, weight 1/3 each
        for (const auto& member : *m.ensemble_members()) CHECK(member.weight == 1.0 / 3);
        REQUIRE(m.stacker() != nullptr);
        CHECK(m.stacker()->n_features() == 6);
        CHECK(m.stacker()->feature_names() == r.stack->inputs.feature_names);
        REQUIRE(m.stacker()->ensemble_members() != nullptr);
        CHECK(m.stacker()->ensemble_members()->size() == 3);
        const Matrix got = m.predict_proba(d.X);
        const Matrix want = chain_by_hand(r, d, d.X);
        CHECK((got - want).cwiseAbs().maxCoeff() <= 1e-12);
        // Its class is the argmax of its probabilities.
        const Vector cls = m.predict(d.X);
        for (Index i = 0; i < d.rows(); ++i) {
            Index arg = 0;
            got.row(i).maxCoeff(&arg);
            CHECK(cls[i] == static_cast<double>(arg));
        }

        // Save and load: envelope version 7, the same bytes again and the same predictions.
        const Json saved = m.to_json();
        CHECK(saved["version"] == 7);
        CHECK(saved["model"] == "ensemble");
        CHECK(saved["state"]["inputs"] == Json::array({3, 3}));
        const Model loaded = Model::from_json(saved, "stack.json");
        CHECK(loaded.to_json().dump() == saved.dump());
        CHECK(loaded.predict_proba(d.X) == got);
        CHECK(loaded.predict(d.X) == cls);

        // The same model at 1 thread.
        CHECK(refit_auto_stack(r, d, context(1), true).to_json().dump() == saved.dump());

        // A file whose stacker does not take the inputs' columns is refused.
        Json bad = saved;
        bad["state"]["inputs"] = Json::array({3, 2, 1});
        CHECK_THROWS(Model::from_json(bad, "bad.json"));
    }

    TEST_CASE("a stack with the table's own columns (--stack-features) predicts its chain and scores its folds as searched") {
        const Dataset d = three_classes(240);
        const AutoResult r = search(d, "log_loss", {"logistic", "tree", "knn"}, true);
        REQUIRE(r.stack.has_value());
        const AutoStack& s = *r.stack;
        REQUIRE(s.features);
        REQUIRE(s.members.size() == 2);
        // Two members' 3 probabilities, then the table's a, b, c as they are.
        REQUIRE(s.inputs.cols() == 9);
        CHECK(std::vector<std::string>(s.inputs.feature_names.end() - 3, s.inputs.feature_names.end()) ==
              std::vector<std::string>{"a", "b", "c"});
        CHECK(s.inputs.X.dense_ref().rightCols(3) == d.X.dense_ref());
        const Model m = refit_auto_stack(r, d, context(2), true);
        CHECK(m.stacker_takes_features());
        REQUIRE(m.stacker() != nullptr);
        CHECK(m.stacker()->n_features() == 9);
        CHECK(m.stacker()->feature_names() == s.inputs.feature_names);
        const Matrix got = m.predict_proba(d.X);
        CHECK((got - chain_by_hand(r, d, d.X)).cwiseAbs().maxCoeff() <= 1e-12);

        // The saved second layer is the bag the search scored: fold k's model on fold k's
        // held-out rows of the inputs gives the fold's out-of-fold log loss.
        REQUIRE(m.stacker()->ensemble_members() != nullptr);
        const auto& bag = *m.stacker()->ensemble_members();
        REQUIRE(bag.size() == 3);
        for (std::size_t k = 0; k < 3; ++k)
            CHECK(test::held_out_log_loss(bag[k].model, s.inputs.subset(r.folds[k].test)) ==
                  doctest::Approx(s.best().fold_scores[k]).epsilon(1e-12));

        // Envelope version 8 (an older reader refuses it as newer), the same bytes and
        // predictions after a load, the same file at 1 thread.
        const Json saved = m.to_json();
        CHECK(saved["version"] == 8);
        CHECK(saved["state"]["stack_features"] == true);
        const Model loaded = Model::from_json(saved, "stack.json");
        CHECK(loaded.stacker_takes_features());
        CHECK(loaded.to_json().dump() == saved.dump());
        CHECK(loaded.predict_proba(d.X) == got);
        CHECK(refit_auto_stack(r, d, context(1), true).to_json().dump() == saved.dump());
        // Without the flag its stacker takes more columns than the members give: refused.
        Json bad = saved;
        bad["state"].erase("stack_features");
        CHECK_THROWS(Model::from_json(bad, "bad.json"));
    }

    TEST_CASE("a regression stack predicts the second layer on the members' averaged values; refit on all rows too") {
        const Dataset d = wave(210);
        const AutoResult r = search(d, "r2", {"ridge", "tree", "knn"});
        REQUIRE(r.stack.has_value());
        const Model m = refit_auto_stack(r, d, context(1), true);
        CHECK((m.predict(d.X) - chain_by_hand(r, d, d.X).col(0)).cwiseAbs().maxCoeff() <= 1e-12);
        const Model loaded = Model::from_json(m.to_json(), "stack.json");
        CHECK(loaded.predict(d.X) == m.predict(d.X));

        // --refit-full: one model per member, on all rows, and the second layer on all inputs.
        const Model full = refit_auto_stack(r, d, context(1), false);
        REQUIRE(full.ensemble_members() != nullptr);
        REQUIRE(full.ensemble_members()->size() == 2);
        DenseMatrix Z(d.rows(), 2);
        for (std::size_t g = 0; g < 2; ++g) {
            const AutoCandidate& c = r.leaderboard[r.stack->members[g]];
            const Model alone = Model::train(c.refit_spec, d, context(1));
            Z.col(static_cast<Index>(g)) = alone.predict(d.X);
        }
        const Model second = Model::train(r.stack->best().spec, r.stack->inputs, context(1));
        CHECK((full.predict(d.X) - second.predict(Features(Z))).cwiseAbs().maxCoeff() <= 1e-12);
    }
}

}  // namespace unit_tasks_auto_stack_model_test
}  // namespace
