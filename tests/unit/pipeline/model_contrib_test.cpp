// Model::contributions (docs/explanations.md): the estimator's contributions summed back
// into the input columns through the preprocessing steps (one-hot blocks, missing
// indicators, scalers), refused for steps that mix columns and for models without them.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_model_contrib_test {

using namespace kestrel;

namespace {

const char* kTable =
    "colour,size,weight,label\n"
    "red,S,1.5,a\n"
    "blue,M,NA,b\n"
    "red,L,2.5,a\n"
    "green,M,3.0,b\n"
    "NA,S,4.0,b\n"
    "blue,S,2.0,a\n"
    "red,M,7.0,b\n"
    "green,L,NA,a\n"
    "blue,L,5.5,b\n"
    "red,S,0.5,a\n";

Dataset table(Task task) {
    ReadOptions o;
    o.missing = MissingPolicy::keep;
    return make_dataset(read_table_from_buffer(kTable, "t.csv", o), task);
}

Model train(const std::string& model, const Params& params, std::vector<std::string> steps = {},
            bool indicator = false, Task task = Task::classification) {
    ModelSpec spec;
    spec.model = model;
    spec.params = params;
    spec.preprocessing = std::move(steps);
    spec.missing_indicator = indicator;
    Dataset d = table(Task::classification);
    if (task == Task::regression) {  // targets made up from the row number
        d.task = Task::regression;
        d.classes.clear();
        for (Index i = 0; i < d.y.size(); ++i) d.y[i] = static_cast<double>(i % 4) + 0.5 * static_cast<double>(i);
    }
    return Model::train(spec, d, Context{});
}

// Per class, the contributions over the input columns plus the bias are the probability.
void check_additive(const Model& m, const Features& X) {
    const Matrix c = m.contributions(X), p = m.predict_proba(X);
    const Index d = m.n_features();
    REQUIRE(c.cols() == p.cols() * (d + 1));
    for (Index i = 0; i < c.rows(); ++i)
        for (Index o = 0; o < p.cols(); ++o)
            CHECK(c.row(i).segment(o * (d + 1), d + 1).sum() == doctest::Approx(p(i, o)).epsilon(1e-12).scale(1.0));
}

}  // namespace

TEST_SUITE("core.model_contrib") {
    TEST_CASE("contributions per input column: one-hot blocks and missing indicators summed back") {
        const Dataset d = table(Task::classification);
        // logistic gets the one-hot and imputer steps (tree, forest and gbdt split on the
        // categories natively): its contributions explain the decision value.
        const Model onehot = train("logistic", Params::object(), {}, true);
        REQUIRE(onehot.prepared_feature_names().size() > 3);  // one-hot columns and an indicator
        const Matrix co = onehot.contributions(d.X), dec = onehot.decision_function(d.X);
        REQUIRE(co.cols() == 4);
        for (Index i = 0; i < co.rows(); ++i) CHECK(co.row(i).sum() == doctest::Approx(dec(i, 0)).epsilon(1e-12));
        CHECK(onehot.contribution_names(2) ==
              std::vector<std::string>{"a:colour", "a:size", "a:weight", "a:bias", "b:colour", "b:size", "b:weight",
                                       "b:bias"});
        CHECK(onehot.contribution_names(1) == std::vector<std::string>{"colour", "size", "weight", "bias"});
        // A tree sees the three columns themselves, categories and missing cells included.
        const Model tree = train("tree", Params::object());
        CHECK(tree.prepared_feature_names().size() == 3);
        check_additive(tree, d.X);
        // gbdt sees the categories natively: one column per input column already.
        const Model gbdt = train("gbdt", {{"n_estimators", 5}, {"min_data_per_group", 1}});
        const Matrix c = gbdt.contributions(d.X), margin = gbdt.decision_function(d.X);
        REQUIRE(c.cols() == 4);
        for (Index i = 0; i < c.rows(); ++i) CHECK(c.row(i).sum() == doctest::Approx(margin(i, 0)).epsilon(1e-12));
        // A scaler keeps the columns: the same contributions as the tree without it.
        const Model scaled = train("forest", {{"n_estimators", 5}}, {"standard"});
        check_additive(scaled, d.X);
        // Save and load: the same contributions.
        const Model back = Model::from_json(onehot.to_json(), "m.json");
        CHECK(back.contributions(d.X) == co);
    }

    TEST_CASE("linear models: w_j (x_j - mean_j) per input column, the bias the output at the training mean") {
        const Dataset d = table(Task::classification);
        const Model ridge = train("ridge", {{"alpha", 1.0}}, {"standard"}, false, Task::regression);
        const Matrix c = ridge.contributions(d.X);
        const Vector p = ridge.predict(d.X);
        REQUIRE(c.cols() == 4);
        for (Index i = 0; i < c.rows(); ++i) CHECK(c.row(i).sum() == doctest::Approx(p[i]).epsilon(1e-12));
        // By hand for the numeric column (weight, the last one the estimator sees): its
        // weight times the scaled value minus the scaled training mean (0 after `standard`).
        const Features P = ridge.prepared(d.X);
        const Index last = P.cols() - 1;
        const double w = ridge.estimator().linear_weights()(0, last);
        const Json j = ridge.to_json();
        const double mean = j["feature_mean"][static_cast<std::size_t>(last)].get<double>();
        CHECK(std::abs(mean) < 1e-12);
        CHECK(c(0, 2) == doctest::Approx(w * (P.dense_ref()(0, last) - mean)).epsilon(1e-12));
        // The bias is the prediction at the mean: the mean of the training targets for ridge
        // with an intercept and centred columns (a scaled column's mean is 0; the one-hot
        // columns' are the category frequencies): checked as additivity above.
        // Binary logistic: the decision value; multinomial: one block per class.
        const Model logistic = train("logistic", Params::object());
        const Matrix cl = logistic.contributions(d.X), dec = logistic.decision_function(d.X);
        REQUIRE(cl.cols() == 4);
        for (Index i = 0; i < cl.rows(); ++i) CHECK(cl.row(i).sum() == doctest::Approx(dec(i, 0)).epsilon(1e-12));
        // Save and load: the mean is kept (format version 4), the contributions identical.
        const Json saved = logistic.to_json();
        CHECK(saved["version"] == 4);
        CHECK(Model::from_json(saved, "m.json").contributions(d.X) == cl);
        // A file written before the mean existed predicts, and refuses --contrib.
        Json old = saved;
        old.erase("feature_mean");
        old["version"] = 3;
        const Model before = Model::from_json(old, "old.json");
        CHECK(before.decision_function(d.X) == dec);
        CHECK_THROWS_WITH_AS(before.contribution_sources(), doctest::Contains("retrain it"), UsageError);
    }

    TEST_CASE("contributions are refused for steps that mix columns and models without them") {
        const Model poly = train("tree", Params::object(), {"poly"});
        CHECK_THROWS_WITH_AS(poly.contribution_sources(), doctest::Contains("'poly"), UsageError);
        const Model svc = train("svc", Params::object());
        CHECK_THROWS_WITH_AS(svc.contributions(table(Task::classification).X),
                             doctest::Contains("gives no feature contributions"), UsageError);
    }
}

}  // namespace unit_pipeline_model_contrib_test
}  // namespace
