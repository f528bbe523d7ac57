#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "tree_test_util.hpp"

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

std::unique_ptr<AdaBoost> fit_boost(const Dataset& d, const Params& given) {
    auto a = make<AdaBoost>(adaboost_model_info(registry()), given);
    a->fit(d, Context{});
    return a;
}

const Dataset& breast_cancer() {
    static const Dataset d = load("breast_cancer/train.csv", Task::classification);
    return d;
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("adaboost: D_{t+1} gives h_t a weighted error of exactly one half") {
        // The classic identity: with α_t = ½ ln((1−ε_t)/ε_t), the mistakes of h_t carry
        // ε_t e^{α_t} / Z_t = ½ of the new distribution, Z_t = 2 √(ε_t (1−ε_t)).
        const Dataset& d = breast_cancer();
        auto a = fit_boost(d, {{"n_estimators", 5}});
        Vector D = Vector::Constant(d.rows(), 1.0 / static_cast<double>(d.rows()));
        for (std::size_t t = 0; t < a->learners().size(); ++t) {
            const Vector pred = a->learners()[t]->predict(d.X);
            std::vector<char> mistake(static_cast<std::size_t>(d.rows()));
            double eps = 0;
            for (Index i = 0; i < d.rows(); ++i) {
                mistake[static_cast<std::size_t>(i)] = pred[i] != d.y[i];
                eps += mistake[static_cast<std::size_t>(i)] ? D[i] : 0.0;
            }
            CHECK(eps == doctest::Approx(a->rounds()[t].error).epsilon(1e-12));
            CHECK(a->rounds()[t].alpha == doctest::Approx(0.5 * std::log((1 - eps) / eps)).epsilon(1e-12));
            D = adaboost_update(D, mistake, a->rounds()[t].alpha, false);
            double wrong = 0;
            for (Index i = 0; i < d.rows(); ++i) wrong += mistake[static_cast<std::size_t>(i)] ? D[i] : 0.0;
            CHECK(wrong == doctest::Approx(0.5).epsilon(1e-12));
        }
    }

    // scikit-learn 1.2.1 (tests/unit/tree/make_references.py):
    //   AdaBoostClassifier(n_estimators=20, algorithm="SAMME", random_state=0) over stumps.
    // With two classes SAMME's α is twice Freund & Schapire's and gives the same learners.
    // breast_cancer: ε = 0.0769231, 0.1488095, 0.1409790, 0.2167087; SAMME α = 2.4849066,
    //   1.7439688, 1.8071823, 1.2849508; train accuracy 0.995604, test 0.956140.
    // wine (3 classes, SAMME): ε = 0.3380282, 0.2331560, 0.2012098, 0.1671660; α = 1.3652410,
    //   1.8837227, 2.0718974, 2.2989941; train accuracy 1.0, test 0.972222.
    TEST_CASE("adaboost: agrees with scikit-learn's SAMME (binary and 3 classes)") {
        struct Ref {
            const Dataset* train;
            std::string test;
            double eps[4], alpha[4], alpha_scale, train_acc, test_acc;
        };
        static const Dataset wine = load("wine/train.csv", Task::classification);
        const Ref refs[] = {
            {&breast_cancer(),
             "breast_cancer/test.csv",
             {0.07692307692307694, 0.14880952380952378, 0.14097902097902099, 0.21670866219058987},
             {2.484906649788, 1.7439688053917068, 1.8071822523694536, 1.2849508247909527},
             0.5,
             0.995604,
             0.956140},
            {&wine,
             "wine/test.csv",
             {0.33802816901408456, 0.23315602836879445, 0.20120979459866034, 0.16716601036656697},
             {1.365240951922058, 1.8837226553140591, 2.071897402437082, 2.298994118005081},
             1.0,
             1.0,
             0.972222},
        };
        for (const Ref& r : refs) {
            CAPTURE(r.test);
            auto a = fit_boost(*r.train, {{"n_estimators", 20}});
            REQUIRE(a->rounds().size() == 20);
            for (int t = 0; t < 4; ++t) {
                CHECK(a->rounds()[static_cast<std::size_t>(t)].error == doctest::Approx(r.eps[t]).epsilon(1e-9));
                CHECK(a->rounds()[static_cast<std::size_t>(t)].alpha ==
                      doctest::Approx(r.alpha_scale * r.alpha[t]).epsilon(1e-9));
            }
            CHECK(accuracy(a->predict(r.train->X), r.train->y) == doctest::Approx(r.train_acc).epsilon(1e-5));
            const Dataset test = load(r.test, Task::classification);
            CHECK(accuracy(a->predict(test.X), test.y) == doctest::Approx(r.test_acc).epsilon(1e-5));
            CHECK(a->rounds().back().train_error == doctest::Approx(1 - r.train_acc).epsilon(1e-5));
        }
    }

    TEST_CASE("adaboost: a perfect weak learner stops the rounds; deeper base trees; round trip") {
        // Separable by one stump: ε_1 = 0, one round.
        DenseMatrix X(4, 1);
        X << 1, 2, 3, 4;
        auto a = fit_boost(tiny(X, Vector{{0.0, 0.0, 1.0, 1.0}}, Task::classification), {{"n_estimators", 10}});
        CHECK(a->rounds().size() == 1);
        CHECK(a->rounds()[0].error == 0.0);

        const Dataset& d = iris_train();
        auto b = fit_boost(d, {{"n_estimators", 10}, {"base", "tree(max_depth=3)"}});
        CHECK(b->learners().front()->params().at("max_depth") == 3);
        CHECK(accuracy(b->predict(iris_test().X), iris_test().y) >= 0.9);
        const std::string text = b->save_state().dump();
        auto c = make<AdaBoost>(adaboost_model_info(registry()), Params::object());
        c->load_state(Json::parse(text));
        CHECK(c->save_state().dump() == text);
        CHECK(c->decision_function(iris_test().X) == b->decision_function(iris_test().X));
        const std::string dump = c->report("tree", {d.feature_names, d.classes});
        CHECK(dump.rfind("round 0 (alpha=" + format_number(c->rounds()[0].alpha) + "):\n|--- ", 0) == 0);
        CHECK(dump.find("round 9 (alpha=") != std::string::npos);
    }

    TEST_CASE("adaboost: bad parameters are clear errors") {
        const ModelInfo info = adaboost_model_info(registry());
        CHECK_THROWS_AS(info.spec.resolve({{"n_estimators", 0}}, "adaboost"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"learning_rate", 0.0}}, "adaboost"), ParamError);
        CHECK_THROWS_AS(fit_boost(iris_train(), {{"base", "tree(max_depth=-1)"}}), ParamError);
        CHECK_THROWS_AS(fit_boost(diabetes_train(), Params::object()), UsageError);
        // nu_svc has no per-row C, so no sample weights: the error lists the learners that do.
        try {
            fit_boost(iris_train(), {{"base", "nu_svc"}});
            FAIL("nu_svc accepted as a weak learner");
        } catch (const ParamError& e) {
            const std::string what = e.what();
            CHECK(what.find("must accept sample weights") != std::string::npos);
            CHECK(what.find("valid: tree") != std::string::npos);
            CHECK(what.find("nu_svc") != std::string::npos);
        }
    }

}  // TEST_SUITE
