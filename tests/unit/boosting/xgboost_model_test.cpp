// Reading XGBoost 1.7 model files (boosting/xgboost_model.hpp): the float32 threshold rule,
// the float32 sums and links of an imported model (Gbdt::xgboost_float32) and the refusals.
// Agreement with XGBoost itself: tests/exchange/xgboost_exchange_test.py.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "gbdt_test_util.hpp"
#include "kestrel/boosting/xgboost_model.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_xgboost_model_test {

using namespace kestrel;

namespace {

// XGBoost's decision for input x: float(x) < t.
bool xgboost_left(double x, float t) {
    return static_cast<float>(x) < t;
}

// A one-tree model (3 nodes) of XGBoost 1.7's JSON, with `booster` and `objective`.
std::string model_text(const std::string& booster = "gbtree", const std::string& objective = "reg:squarederror",
                       const std::string& left = "[1, -1, -1]", const std::string& left_leaf = "1") {
    return R"({"learner": {"attributes": {}, "feature_names": [], "feature_types": [],
      "gradient_booster": {"model": {"gbtree_model_param": {"num_parallel_tree": "1", "num_trees": "1"},
        "tree_info": [0], "trees": [{"base_weights": [0, 1, -1], "default_left": [1, 0, 0], "id": 0,
        "left_children": )" + left + R"(, "loss_changes": [3, 0, 0], "parents": [2147483647, 0, 0],
        "right_children": [2, -1, -1], "split_conditions": [0.5, )" + left_leaf + R"(, -1], "split_indices": [0, 0, 0],
        "split_type": [0, 0, 0], "sum_hessian": [10, 5, 5]}]}, "name": ")" + booster + R"("},
      "learner_model_param": {"base_score": "5E-1", "num_class": "0", "num_feature": "2", "num_target": "1"},
      "objective": {"name": ")" + objective + R"("}}, "version": [1, 7, 4]})";
}

std::string refusal(const std::string& text) {
    try {
        read_xgboost_model(text, "m.json");
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("xgboost model: the imported threshold sends every double where XGBoost's float32 test does") {
        for (const float t : {0.5F, 1.0F, -1.0F, 26.85F, 1e-30F, -3.3e7F, 0.0F, 4.2e37F}) {
            const double T = xgboost_threshold(t);
            // The doubles around t and around the float below it (where the rounding changes).
            const float below = std::nextafter(t, -std::numeric_limits<float>::infinity());
            for (const double centre : {static_cast<double>(t), static_cast<double>(below), T}) {
                double x = centre;
                for (int i = 0; i < 64; ++i) x = std::nextafter(x, -std::numeric_limits<double>::infinity());
                for (int i = 0; i < 128; ++i, x = std::nextafter(x, std::numeric_limits<double>::infinity()))
                    CHECK_MESSAGE((x <= T) == xgboost_left(x, t), "t = " << t << ", x = " << x);
            }
            CHECK_FALSE(xgboost_left(std::nextafter(T, std::numeric_limits<double>::infinity()), t));
            CHECK(xgboost_left(T, t));
        }
    }

    TEST_CASE("xgboost model: a file is recognised by its content") {
        CHECK(looks_like_xgboost_model(model_text()));
        CHECK(looks_like_xgboost_model("{\n  \"learner\": {}}"));
        CHECK_FALSE(looks_like_xgboost_model(R"({"format": "kestrel-model"})"));
        CHECK_FALSE(looks_like_xgboost_model("svm_type c_svc"));
    }

    TEST_CASE("xgboost model: a gbtree model reads into gbdt's state") {
        const XgboostModelFile f = read_xgboost_model(model_text(), "m.json");
        CHECK(f.task == Task::regression);
        CHECK(f.n_features == 2);
        CHECK(f.state.at("loss") == "squared");
        CHECK(f.state.at("base_score").at(0).get<double>() == 0.5);
    }

    TEST_CASE("xgboost model: an imported model sums and links in float32 as XGBoost does, through save and load") {
        // base_score 0.5 and a left leaf of 1e-8: in float32 0.5 + 1e-8 is 0.5 (under half a
        // float's step), in double it is not.
        const XgboostModelFile f = read_xgboost_model(model_text("gbtree", "reg:squarederror", "[1, -1, -1]", "1E-8"), "m.json");
        CHECK(f.state.at("xgboost_float32") == true);
        const auto load = [&](const Json& state) {
            auto g = gbdt_test::make_gbdt(f.params);
            g->load_state(state);
            return g;
        };
        const auto g = load(Estimator::with_shape(f.state, 3, f.task, f.n_features, 0));
        CHECK(g->xgboost_float32());
        DenseMatrix X(2, 2);
        X << 0, 0, 1, 0;
        const Matrix raw = g->raw_scores(Features(X));
        CHECK(raw(0, 0) == 0.5);
        CHECK(raw(1, 0) == -0.5);
        CHECK(g->predict(Features(X)) == raw.col(0));
        const Json saved = g->save_state();
        CHECK(saved.at("xgboost_float32") == true);
        CHECK(load(Json::parse(saved.dump()))->raw_scores(Features(X)) == raw);
        // The same state without the flag (kestrel's own models): the double sum, and the
        // flag is not written.
        Json plain = saved;
        plain.erase("xgboost_float32");
        const auto own = load(plain);
        CHECK_FALSE(own->xgboost_float32());
        CHECK(own->raw_scores(Features(X))(0, 0) == 0.5 + static_cast<double>(1e-8F));
        CHECK_FALSE(own->save_state().contains("xgboost_float32"));
        Json bad = saved;
        bad["xgboost_float32"] = 1;
        CHECK_THROWS_AS(load(bad), ModelStateError);
    }

    TEST_CASE("xgboost model: an imported model's links are XGBoost's float32 formulas") {
        DenseMatrix X(2, 2);
        X << 0, 0, 1, 0;
        // binary:logistic, base_score 0.5 (margin 0): P = 1 / (expf(min(-m, 88.7)) + 1 + 1e-16) in float.
        const XgboostModelFile logistic = read_xgboost_model(model_text("gbtree", "binary:logistic", "[1, -1, -1]", "0.3"), "m.json");
        auto g = gbdt_test::make_gbdt(logistic.params);
        g->load_state(Estimator::with_shape(logistic.state, 3, logistic.task, logistic.n_features, 2));
        const Matrix p = g->predict_proba(Features(X));
        for (const auto& [row, margin] : {std::pair{0, 0.3F}, std::pair{1, -1.0F}}) {
            const float expected = 1.0F / (std::exp(std::min(-margin, 88.7F)) + 1.0F + 1e-16F);
            CHECK(p(row, 1) == static_cast<double>(expected));
            CHECK(p(row, 0) == 1 - static_cast<double>(expected));
        }
        // count:poisson, base_score 0.5 (margin logf(0.5)): expf of the float32 sum.
        const XgboostModelFile poisson = read_xgboost_model(model_text("gbtree", "count:poisson", "[1, -1, -1]", "0.3"), "m.json");
        auto q = gbdt_test::make_gbdt(poisson.params);
        q->load_state(Estimator::with_shape(poisson.state, 3, poisson.task, poisson.n_features, 0));
        const Vector y = q->predict(Features(X));
        CHECK(y[0] == static_cast<double>(std::exp(std::log(0.5F) + 0.3F)));
        CHECK(y[1] == static_cast<double>(std::exp(std::log(0.5F) + -1.0F)));
    }

    TEST_CASE("xgboost model: what has no gbdt equivalent is refused, naming the field") {
        CHECK(refusal(model_text("gblinear")).find("learner.gradient_booster.name is gblinear") != std::string::npos);
        CHECK(refusal(model_text("gbtree", "survival:cox")).find("learner.objective.name survival:cox") !=
              std::string::npos);
        CHECK(refusal(model_text("gbtree", "reg:squarederror", "[5, -1, -1]")).find("child out of range") !=
              std::string::npos);
        const std::string text = model_text();
        CHECK(refusal(text.substr(0, text.size() / 2)).find("truncated or not valid JSON") != std::string::npos);
        CHECK(refusal("{\"learner\": 3}").find("m.json: XGBoost model: lacks learner.learner_model_param") !=
              std::string::npos);
    }
}

}  // namespace unit_boosting_xgboost_model_test
}  // namespace
