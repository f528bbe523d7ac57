#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/optim/logistic_objective.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_logistic_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<LogisticRegression> logistic(const Params& given = Params::object()) {
    return make<LogisticRegression>(logistic_model_info(), given);
}

std::unique_ptr<LogisticRegression> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = logistic(given);
    m->fit(d, ctx);
    return m;
}

// Coefficient rows, then the intercepts as a last column.
Eigen::MatrixXd fitted(const LogisticRegression& m) {
    Eigen::MatrixXd out(m.coef().rows(), m.coef().cols() + 1);
    out << m.coef(), m.intercept();
    return out;
}

const Params tight{{"tol", 1e-10}, {"max_iter", 10000}};

}  // namespace

TEST_SUITE("linear") {

// scikit-learn 1.2.1's lbfgs (scipy's L-BFGS-B) stops on its relative-decrease test
// (ftol = 64 eps) before reaching tol=1e-10: its solutions below have gradient norms of
// 2e-4 (breast_cancer) and 2.5e-3 (iris) on the objective, and sit 5e-6 and 1.3e-4 from
// the exact optimum. So agreement with scikit-learn is checked at 2e-4, and the optimum
// itself, to 1e-7, against Newton's method run to a gradient norm below 1e-13.
// Every number here is printed by tests/unit/linear/make_references.py (scikit-learn
// 1.2.1 and numpy 1.24.2 from Debian).
constexpr double sklearn_tolerance = 2e-4;
constexpr double optimum_tolerance = 1e-7;

TEST_CASE("logistic: binary agrees with scikit-learn and the exact optimum on breast_cancer") {
    // scikit-learn 1.2.1 (Debian python3-sklearn), X, y = breast_cancer/train.scaled.csv:
    //   LogisticRegression(C=1.0, tol=1e-10, max_iter=10000).fit(X, y).coef_, .intercept_
    Eigen::MatrixXd sklearn(1, 31);
    sklearn << -1.1751082004450135, -1.4186495115236528, -1.1265224764697952, -1.0036621334715008,
        -0.6699941903497577, 0.1777747232914431, -0.7999029755948397, -1.2955601145063986, -0.5887511450161037,
        0.6748517190544346, -1.225962498394045, -0.07049825558430703, -0.8960354786199557, -0.765341088322754,
        -0.1252275158531799, 0.7494712104511707, 0.25716139212951633, -0.36343372348457326, 0.28057419227601677,
        0.5557853545714498, -1.81927410335404, -1.7757861523496459, -1.6118967324049538, -1.496553253151816,
        -1.059411018455751, -0.2990620851598135, -0.9047856763327008, -1.7664176595994068, -1.1217509621697639,
        -0.15770337843619447, -8.073119343993147;
    // The exact optimum (Newton, numpy 1.24.2, see above): coefficients then intercept.
    Eigen::MatrixXd optimum(1, 31);
    optimum << -1.1750903166166358, -1.4186355142106712, -1.1265064971934506, -1.0036648534925963,
        -0.6699808838733734, 0.17777261792580443, -0.7999183869517089, -1.2955694966638835, -0.588712469864588,
        0.6748362644519524, -1.225922880452795, -0.07050446506579504, -0.8960383159659558, -0.7653171796622951,
        -0.1252624911225213, 0.7494744664987604, 0.2571516515514181, -0.3634372408038226, 0.28053076354660417,
        0.5557908914065279, -1.8192791493112286, -1.7757786623854972, -1.6119255267418195, -1.4965785697199703,
        -1.0594176380598876, -0.29904590690525995, -0.9047856333546824, -1.7664184353601424, -1.1217802462743693,
        -0.15770689546702535, -8.073161961567099;
    for (const Dataset& d : {breast_cancer(), with_sparse_features(breast_cancer())}) {
        CAPTURE(d.X.is_sparse());
        auto m = fit(d, tight);
        CHECK(relative_error(fitted(*m), sklearn) < sklearn_tolerance);
        CHECK(relative_error(fitted(*m), optimum) < optimum_tolerance);
        const Matrix dec = m->decision_function(d.X);
        CHECK(dec.cols() == 1);
        const Matrix proba = m->predict_proba(d.X);
        CHECK(proba.cols() == 2);
        CHECK((proba.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-15);
        CHECK(m->predict(d.X) == Vector((dec.array() > 0).cast<double>()));
    }
}

TEST_CASE("logistic: multinomial agrees with scikit-learn and the exact optimum on iris") {
    // scikit-learn 1.2.1, X, y = iris/train.csv:
    //   m = LogisticRegression(C=1.0, tol=1e-10, max_iter=10000).fit(X, y)   (multinomial)
    //   m.coef_ with m.intercept_ as a last column
    Eigen::MatrixXd sklearn(3, 5);
    sklearn << -0.5283167143581471, 0.825198873175554, -2.344567869155173, -1.000978589430509, 10.123172225462977,
        0.5291266065020189, -0.30603899393131273, -0.17200441919039572, -0.8533900046758826, 1.805318389820352,
        -0.0008098921438708284, -0.5191598792442399, 2.5165722883455643, 1.8543685941063923, -11.92849061528354;
    // The exact optimum (Newton, see above), and its decision values and probabilities on X[:3].
    Eigen::MatrixXd optimum(3, 5), dec(3, 3), proba(3, 3);
    optimum << -0.5286179634233658, 0.8251077234077552, -2.344495441690608, -1.0009559212411179, 10.124776596164187,
        0.5292327981410753, -0.30600438359786547, -0.17202558781449237, -0.853313264673286, 1.8046157307811053,
        -0.0006148347177135305, -0.5191033398098932, 2.5165210295050935, 1.8542691859144016, -11.929392326945292;
    dec << 6.709185152368793, 2.83432885429308, -9.543514006661912, -2.654536669808552, 1.4080977875679088,
        1.2464388822405823, -3.8144403394254667, 2.52622509201423, 1.2882152474111646;
    proba << 0.9796647001812374, 0.020335214189954542, 8.562880806812852e-08, 0.00920997645603673,
        0.5353505421429702, 0.4554394814009931, 0.0013649423748108781, 0.7741592818562552, 0.22447577576893396;
    auto m = fit(iris(), tight);
    // The intercepts are unpenalised, so only their differences are identified; both
    // solvers start from 0 and keep their sum at 0.
    CHECK(std::abs(m->intercept().sum()) < 1e-9);
    CHECK(relative_error(fitted(*m), sklearn) < sklearn_tolerance);
    CHECK(relative_error(fitted(*m), optimum) < optimum_tolerance);
    const Features first3 = iris().X.rows_subset(std::vector<Index>{0, 1, 2});
    CHECK(relative_error(m->decision_function(first3), dec) < optimum_tolerance);
    CHECK(relative_error(m->predict_proba(first3), proba) < optimum_tolerance);
    CHECK(m->predict(first3) == Vector{{0.0, 1.0, 1.0}});
}

TEST_CASE("logistic: class_weight agrees with scikit-learn") {
    SUBCASE("balanced, binary") {
        // scikit-learn 1.2.1, breast_cancer/train.scaled.csv (170 / 285 rows per class):
        //   LogisticRegression(C=1.0, tol=1e-10, max_iter=10000, class_weight='balanced')
        //   coef_[0, :5], intercept_
        const Vector ref{{-1.1683804010478276, -1.4356270868714698, -1.1158824351439258, -0.9962839540157679,
                          -0.7056670432695868}};
        auto m = fit(breast_cancer(), {{"tol", 1e-10}, {"max_iter", 10000}, {"class_weight", "balanced"}});
        CHECK(relative_error(m->coef().row(0).head(5).transpose(), ref) < sklearn_tolerance);
        CHECK(m->intercept()[0] == doctest::Approx(-8.516960104482823).epsilon(sklearn_tolerance));
    }
    SUBCASE("per label, multinomial") {
        // scikit-learn 1.2.1, iris/train.csv: the same call with class_weight={0: 2.0, 2: 0.5}
        Eigen::MatrixXd ref(3, 5), optimum(3, 5);
        ref << -0.5434954066085654, 0.8176783970805381, -2.338993611107429, -1.0036366226102944, 10.236719187726175,
            0.42223550481439676, -0.441803805920094, 0.03586698103707702, -0.6555744180164481, 1.7510812198606716,
            0.1212599017941741, -0.3758745911604436, 2.3031266300703575, 1.659211040626744, -11.98780040758755;
        // Its exact optimum (Newton, as above, with the class weights in the loss).
        optimum << -0.5433463127828561, 0.8178524280367958, -2.339077300154111, -1.0037271364840754,
            10.235697656150004, 0.42206289544553777, -0.4417691778527905, 0.035950921629045535, -0.6555175254036624,
            1.751585621502847, 0.12128341733731493, -0.3760832501840076, 2.303126378525058, 1.6592446618877372,
            -11.98728327765285;
        auto m = fit(iris(), {{"tol", 1e-10}, {"max_iter", 10000}, {"class_weight", "0:2, 2:0.5"}});
        CHECK(relative_error(fitted(*m), ref) < sklearn_tolerance);
        // tol=1e-10 is below what double precision reaches here: TRON stops where its
        // reductions are at rounding level (1e-12 of f, as LIBLINEAR), which leaves the largest
        // intercept (about 12) about 1.1e-7 of the optimum's scale away, on either side of the
        // unweighted case's 1e-7 as the order of the objective's sums changes.
        CHECK(relative_error(fitted(*m), optimum) < 2 * optimum_tolerance);
    }
}

TEST_CASE("logistic: the solution is stationary (small gradient) at the default tol") {
    for (const Dataset* d : {&breast_cancer(), &iris()}) {
        auto m = fit(*d, {{"C", 2.0}});
        const Vector cost = Vector::Constant(d->rows(), 2.0);
        Vector g0, g;
        if (d->n_classes() == 2) {
            const Vector ypm = 2 * d->y.array() - 1;
            BinaryLogisticObjective f(d->X, ypm, cost, true);
            f.value_gradient(Vector::Zero(f.dimension()), g0);
            Vector w(f.dimension());
            w << m->coef().row(0).transpose(), m->intercept()[0];
            f.value_gradient(w, g);
        } else {
            MultinomialLogisticObjective f(d->X, d->y, 3, cost, true);
            f.value_gradient(Vector::Zero(f.dimension()), g0);
            Vector w(f.dimension());
            w << Eigen::Map<const Vector>(Eigen::MatrixXd(m->coef().transpose()).data(), 12), m->intercept();
            f.value_gradient(w, g);
        }
        // The documented stopping rule: ||g|| <= tol · max(1, ||g(0)||), tol = 1e-4.
        CHECK(g.norm() <= 1e-4 * std::max(1.0, g0.norm()));
        CHECK(g.norm() > 0);
    }
}

TEST_CASE("logistic: a sample weight of 2 equals duplicating the row") {
    std::vector<Index> rows, dup;
    for (Index i = 0; i < 60; ++i) rows.push_back(i * 7);  // 60 breast_cancer rows, both classes
    dup = rows;
    dup.push_back(rows[4]);
    dup.push_back(rows[11]);
    Dataset weighted = take_rows(breast_cancer(), rows);
    weighted.weights = Vector::Ones(60);
    weighted.weights[4] = weighted.weights[11] = 2.0;
    const Dataset duplicated = take_rows(breast_cancer(), dup);
    CHECK(relative_error(fitted(*fit(weighted, tight)), fitted(*fit(duplicated, tight))) < 1e-7);

    std::vector<Index> irows, idup;
    for (Index i = 0; i < 120; i += 3) irows.push_back(i);
    idup = irows;
    idup.push_back(irows[5]);
    Dataset iw = take_rows(iris(), irows);
    iw.weights = Vector::Ones(static_cast<Index>(irows.size()));
    iw.weights[5] = 2.0;
    CHECK(relative_error(fitted(*fit(iw, tight)), fitted(*fit(take_rows(iris(), idup), tight))) < 1e-7);
}

TEST_CASE("logistic: without intercept the intercepts are zero") {
    auto m = fit(iris(), {{"fit_intercept", false}});
    CHECK(m->intercept() == Vector::Zero(3));
    auto b = fit(breast_cancer(), {{"fit_intercept", false}});
    CHECK(b->intercept() == Vector::Zero(1));
}

TEST_CASE("logistic: non-convergence warns and leaves a usable model") {
    std::vector<std::string> warnings;
    Context ctx;
    ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
    auto m = fit(breast_cancer(), {{"max_iter", 2}}, ctx);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("logistic") != std::string::npos);
    CHECK(warnings[0].find("max_iter=2") != std::string::npos);
    CHECK(m->coef().allFinite());
    CHECK(m->predict(breast_cancer().X).size() == breast_cancer().rows());
    warnings.clear();
    fit(breast_cancer(), Params::object(), ctx);
    CHECK(warnings.empty());
}

TEST_CASE("logistic: save_state -> load_state gives bit-identical predictions") {
    for (const Dataset* d : {&breast_cancer(), &iris()}) {
        auto m = fit(*d, Params::object());
        const Json state = Json::parse(m->save_state().dump());  // through text, as in a model file
        auto loaded = logistic();
        loaded->load_state(state);
        CHECK(loaded->decision_function(d->X) == m->decision_function(d->X));
        CHECK(loaded->predict_proba(d->X) == m->predict_proba(d->X));
        CHECK(loaded->predict(d->X) == m->predict(d->X));
    }
}

TEST_CASE("logistic: load_state rejects bad state") {
    auto m = fit(iris(), Params::object());
    const Json good = m->save_state();
    auto fresh = logistic();
    Json j = good;
    j["coef"].erase(1);  // 2 rows for 3 classes
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j["coef"][0].push_back(1.0);  // 5 features
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j["intercept"] = Json::array({0.0, 1.0});
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j["coef"][1][1] = nullptr;
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    CHECK_NOTHROW(fresh->load_state(good));
}

TEST_CASE("logistic: parameters and capabilities") {
    const ModelInfo info = logistic_model_info();
    CHECK(info.name == "logistic");
    CHECK(info.multiclass == Multiclass::native);
    CHECK(info.tasks == std::vector<Task>{Task::classification});
    CHECK_THROWS_AS(info.spec.resolve({{"C", 0.0}}, "logistic"), ParamError);
    CHECK_THROWS_AS(info.spec.resolve({{"max_iter", 0}}, "logistic"), ParamError);
    const Params p = info.spec.resolve(Params::object(), "logistic");
    CHECK(get_real(p, "C") == 1.0);
    CHECK(get_real(p, "tol") == 1e-4);
    CHECK(get_int(p, "max_iter") == 1000);
    CHECK(get_bool(p, "fit_intercept"));
    CHECK(get_string(p, "class_weight").empty());
    auto m = logistic();
    CHECK(m->has_decision_function());
    CHECK(m->has_predict_proba());
    CHECK(m->supports_sparse());
    CHECK(m->supports_sample_weights());
    CHECK_THROWS_AS(m->fit(diabetes(), Context{}), UsageError);
    auto bad = logistic({{"class_weight", "7:2"}});
    CHECK_THROWS_AS(bad->fit(iris(), Context{}), ParamError);
}

}  // TEST_SUITE

}  // namespace unit_linear_logistic_test
}  // namespace
