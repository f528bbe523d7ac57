#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_adaboost_test {

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

// 4000 rows x 12 features, values on a 0.1 grid (many ties), 4 classes from a noisy
// linear rule: large enough (rows x features >= 2^15) for a node's features to be
// scanned on several threads.
const Dataset& grid4() {
    static const Dataset d = [] {
        std::mt19937_64 gen(42);
        auto uniform = [&] { return static_cast<double>(gen() >> 11) * 0x1.0p-53; };
        const Index n = 4000, cols = 12;
        DenseMatrix X(n, cols);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            double z = 0;
            for (Index j = 0; j < cols; ++j) {
                X(i, j) = std::round(uniform() * 40) / 10;
                z += (j % 3 == 0 ? 1.0 : -0.5) * X(i, j) / static_cast<double>(j + 1);
            }
            z += uniform() - 0.5;
            y[i] = z < -1.2 ? 0 : z < -0.6 ? 1 : z < 0 ? 2 : 3;
        }
        return tiny(X, y, Task::classification, 4);
    }();
    return d;
}

// Freund & Schapire / SAMME with the base fitted afresh each round on the data with
// weights D·n: the algorithm as adaboost ran it before its rounds shared sorted columns.
std::vector<std::unique_ptr<Estimator>> afresh(const Dataset& d, const Params& base, int rounds,
                                               std::vector<BoostRound>& out) {
    const Index n = d.rows(), k = d.n_classes();
    const bool samme = k > 2;
    Vector D = Vector::Constant(n, 1.0 / static_cast<double>(n));
    Dataset work = d;
    std::vector<std::unique_ptr<Estimator>> learners;
    const Context ctx;
    for (int t = 0; t < rounds; ++t) {
        auto h = registry().create_unwrapped("tree", base);
        work.weights = D * static_cast<double>(n);
        h->fit(work, ctx.child(static_cast<std::uint64_t>(t)));
        const Vector pred = h->predict(d.X);
        std::vector<char> mistake(static_cast<std::size_t>(n));
        double eps = 0;
        for (Index i = 0; i < n; ++i) {
            mistake[static_cast<std::size_t>(i)] = pred[i] != d.y[i];
            if (mistake[static_cast<std::size_t>(i)]) eps += D[i];
        }
        const double alpha = samme ? std::log((1 - eps) / eps) + std::log(static_cast<double>(k - 1))
                                   : 0.5 * std::log((1 - eps) / eps);
        out.push_back({eps, alpha, 0});
        learners.push_back(std::move(h));
        D = adaboost_update(D, mistake, alpha, samme);
    }
    return learners;
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

    TEST_CASE("adaboost: rounds over columns sorted once give the learners of fitting each round afresh") {
        // The stump rounds reuse one presorted grower (DecisionTree::refitter): every
        // round's ε, α and tree must be the ones of a tree fitted afresh on the weights.
        struct Case {
            const Dataset* data;
            const char* base_text;
            Params base;
        };
        const Case cases[] = {{&breast_cancer(), "tree(max_depth=1)", {{"max_depth", 1}}},
                              {&grid4(), "tree(max_depth=1)", {{"max_depth", 1}}},
                              {&grid4(), "tree(max_depth=2,criterion=entropy)", {{"max_depth", 2}, {"criterion", "entropy"}}}};
        for (const Case& c : cases) {
            CAPTURE(c.base_text);
            std::vector<BoostRound> ref;
            const auto learners = afresh(*c.data, c.base, 12, ref);
            auto a = fit_boost(*c.data, {{"n_estimators", 12}, {"base", c.base_text}});
            REQUIRE(a->rounds().size() == 12);
            for (std::size_t t = 0; t < 12; ++t) {
                CAPTURE(t);
                CHECK(a->rounds()[t].error == ref[t].error);
                CHECK(a->rounds()[t].alpha == ref[t].alpha);
                CHECK(a->learners()[t]->save_state().dump() == learners[t]->save_state().dump());
            }
        }
    }

    TEST_CASE("adaboost and tree: the same model at any thread count") {
        // grid4's root nodes are scanned feature-parallel on 2 threads.
        Context one, two;
        one.threads = 1;
        two.threads = 2;
        for (const char* base : {"tree(max_depth=1)", "tree(max_depth=3,criterion=entropy)"}) {
            CAPTURE(base);
            auto a = make<AdaBoost>(adaboost_model_info(registry()), {{"n_estimators", 15}, {"base", base}});
            auto b = make<AdaBoost>(adaboost_model_info(registry()), {{"n_estimators", 15}, {"base", base}});
            a->fit(grid4(), one);
            b->fit(grid4(), two);
            CHECK(a->save_state().dump() == b->save_state().dump());
        }
        auto t1 = registry().create_unwrapped("tree", Params::object());
        auto t2 = registry().create_unwrapped("tree", Params::object());
        t1->fit(grid4(), one);
        t2->fit(grid4(), two);
        CHECK(t1->save_state().dump() == t2->save_state().dump());
    }

    TEST_CASE("tree: a refitter's fits are the fits on the data with the same weights") {
        // Dense and sparse, classification and regression, any weights (zeros leave rows out).
        std::mt19937_64 gen(7);
        Dataset reg = grid4();
        reg.task = Task::regression;
        reg.classes.clear();
        for (Index i = 0; i < reg.rows(); ++i) reg.y[i] = reg.X.dense_ref()(i, 0) * 2 - reg.X.dense_ref()(i, 3);
        Dataset sparse = breast_cancer();
        sparse.X = Features(SparseMatrix(sparse.X.to_dense().sparseView()));
        Context two;
        two.threads = 2;
        for (const Dataset* d : std::initializer_list<const Dataset*>{&grid4(), &breast_cancer(), &sparse, &reg}) {
            CAPTURE(d->X.is_sparse());
            for (const Params& p : {Params{{"max_depth", 1}}, Params{{"max_depth", 4}, {"min_samples_leaf", 3}}}) {
                auto proto = registry().create_unwrapped("tree", p);
                const auto refit = proto->refitter(*d, two);
                REQUIRE(refit);
                Dataset work = *d;
                for (int r = 0; r < 3; ++r) {
                    Vector w(d->rows());
                    for (Index i = 0; i < w.size(); ++i) w[i] = static_cast<double>(gen() % 5) * 0.75;
                    work.weights = w;
                    auto fresh = registry().create_unwrapped("tree", p);
                    fresh->fit(work, Context{});
                    CHECK(refit->fit(w, Context{})->save_state().dump() == fresh->save_state().dump());
                }
            }
        }
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

}  // namespace unit_tree_adaboost_test
}  // namespace
