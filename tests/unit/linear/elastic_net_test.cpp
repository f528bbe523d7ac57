#include <doctest/doctest.h>

#include <random>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/elastic_net.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_elastic_net_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<ElasticNet> fit(const ModelInfo& info, const Dataset& d, const Params& given,
                                const Context& ctx = Context{}) {
    auto m = make<ElasticNet>(info, given);
    m->fit(d, ctx);
    return m;
}

Eigen::MatrixXd fitted(const ElasticNet& m) {
    Eigen::MatrixXd out(1, m.coef().size() + 1);
    out << m.coef().transpose(), m.intercept();
    return out;
}

// The loss gradient g_j = (1/S) Σ s_i x_ij (y_i − b − x_iᵀβ) of a path point.
Vector loss_gradient(const Dataset& d, const Vector& beta, double b) {
    Vector r = d.y - d.X.multiply(beta);
    r.array() -= b;
    const Vector s = d.has_weights() ? d.weights : Vector::Ones(d.rows());
    return d.X.transpose_multiply(s.cwiseProduct(r)) / s.sum();
}

// Largest violation of the subgradient conditions at λ, α:
//   β_j ≠ 0:  g_j − λ(1−α)β_j = λα sign(β_j);     β_j = 0:  |g_j| ≤ λα.
double subgradient_violation(const Dataset& d, const Vector& beta, double b, double lambda, double alpha) {
    const Vector g = loss_gradient(d, beta, b);
    double worst = 0;
    for (Index j = 0; j < beta.size(); ++j) {
        const double v = beta[j] != 0 ? std::abs(g[j] - lambda * (1 - alpha) * beta[j] -
                                                 lambda * alpha * (beta[j] > 0 ? 1.0 : -1.0))
                                      : std::max(0.0, std::abs(g[j]) - lambda * alpha);
        worst = std::max(worst, v);
    }
    return worst;
}

struct Reference {
    double l1_ratio, lambda;
    std::vector<double> coef_then_intercept;
};

// Printed by tests/unit/linear/make_lasso_references.py: scikit-learn 1.2.1 (Debian
// python3-sklearn), X, y = diabetes/train.csv,
//   Lasso(alpha=λ, tol=1e-13, max_iter=10**7).fit(X, y)                       (l1_ratio 1)
//   ElasticNet(alpha=λ, l1_ratio=0.5, tol=1e-13, max_iter=10**7).fit(X, y)     (l1_ratio 0.5)
// .coef_ then .intercept_. scikit-learn's alpha is λ and its l1_ratio glmnet's α.
const Reference references[] = {
    {1.0, 50.0, {0.0, -0.0, 4.381612105997874, 1.2553234402302307, 0.49562615476175714, -0.4790997947084892,
                 -1.5197554149393502, 0.0, 0.0, 0.4075424750043592, -82.38313528006955}},
    {1.0, 1.0, {0.13472054175761472, -17.763930374864078, 6.220420077274719, 1.1686969111341252,
                -0.002811246328470021, -0.26226198349534374, -1.0001697940394212, 3.1164364124463706,
                31.47169674862908, 0.27415719967233126, -206.97511895713885}},
    {1.0, 0.01, {0.13769403167539998, -23.011917361098043, 5.850266633514259, 1.1967795879804666,
                 -1.2669944113303104, 0.7987819542842681, 0.5830191877486944, 10.078469958767178,
                 66.70671693125523, 0.2023554542887122, -339.82412547898514}},
    {0.5, 50.0, {0.04211792346497803, -0.0, 2.1943149476969563, 1.3343630311451498, 0.6319844102901977,
                 -0.5970361620027521, -1.67635343097203, 0.0, 0.0, 0.660487210398577, -61.53392137244941}},
    {0.5, 1.0, {0.1063891389333857, -5.964706889308136, 6.538101427634207, 1.1278358811414875, 0.9420477815311086,
                -1.1208473552605611, -1.91025008674313, 0.9786723893599489, 2.8345493685403524,
                0.3296902299247977, -125.14753003309218}},
    {0.5, 0.01, {0.14570324356113198, -22.582159595006683, 5.945911651333688, 1.1992859729881582,
                 -0.9412641561267762, 0.5019794602191044, 0.22369229326552098, 9.464529883778578,
                 56.54478620006414, 0.22225331240301935, -305.21605621392735}},
};
// λ_max = max_j |x̃_jᵀ ỹ| / (n α) from the same script: 539.4461716248423 (α = 1),
// 1078.8923432496847 (α = 0.5).

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("lasso / elastic_net: agree with scikit-learn on diabetes, dense and sparse") {
    for (const Dataset& d : {diabetes(), with_sparse_features(diabetes())}) {
        for (const Reference& ref : references) {
            CAPTURE(d.X.is_sparse());
            CAPTURE(ref.l1_ratio);
            CAPTURE(ref.lambda);
            Params p{{"lambda", ref.lambda}, {"tol", 1e-20}, {"max_iter", 10000000}};
            const bool lasso = ref.l1_ratio == 1.0;
            if (!lasso) p["l1_ratio"] = ref.l1_ratio;
            const auto m = fit(lasso ? lasso_model_info() : elastic_net_model_info(), d, p);
            const Eigen::Map<const Eigen::MatrixXd> expected(ref.coef_then_intercept.data(), 1, 11);
            CHECK(relative_error(fitted(*m), expected) < 1e-6);
            // The same zeros, exactly.
            for (Index j = 0; j < 10; ++j) CHECK((m->coef()[j] == 0.0) == (expected(0, j) == 0.0));
            CHECK(m->lambda() == ref.lambda);
            CHECK(m->path().lambda_max == doctest::Approx(lasso ? 539.4461716248423 : 1078.8923432496847).epsilon(1e-12));
        }
    }
}

TEST_CASE("lasso: every point of the path satisfies the subgradient conditions") {
    const Dataset& d = diabetes();
    for (double alpha : {1.0, 0.5, 0.1}) {
        CAPTURE(alpha);
        ElasticNetSettings st;
        st.l1_ratio = alpha;
        st.tol = 1e-18;
        st.n_lambda = 30;
        const ElasticNetPath path = elastic_net_path(d, st);
        REQUIRE(path.converged);
        REQUIRE(path.lambdas.size() == 30);
        CHECK(path.lambdas[0] == doctest::Approx(path.lambda_max));
        CHECK(path.lambdas[29] == doctest::Approx(path.lambda_max * 1e-4));  // n > d: glmnet's 1e-4
        for (Index k = 0; k < path.lambdas.size(); ++k) {
            CAPTURE(k);
            if (k > 0) CHECK(path.lambdas[k] < path.lambdas[k - 1]);
            const Vector beta = path.coef.row(k).transpose();
            // Relative to the scale of the gradient at β = 0, which is λ_max·α.
            CHECK(subgradient_violation(d, beta, path.intercepts[k], path.lambdas[k], alpha) <
                  1e-7 * path.lambda_max * std::max(alpha, 1e-3));
            // The intercept makes the residuals sum to zero.
            CHECK(std::abs((d.y - d.X.multiply(beta)).mean() - path.intercepts[k]) < 1e-8 * d.y.cwiseAbs().maxCoeff());
        }
        // λ_max: all zero, and the intercept is the mean; just below it, something enters.
        CHECK(path.coef.row(0).isZero(0.0));
        CHECK(path.intercepts[0] == doctest::Approx(d.y.mean()).epsilon(1e-12));
        CHECK_FALSE(path.coef.row(1).isZero(0.0));
    }
}

TEST_CASE("lasso: the path as CSV, and lambda beyond lambda_max gives zero coefficients") {
    const Dataset& d = diabetes();
    ElasticNetSettings st;
    st.n_lambda = 3;
    st.lambda_min_ratio = 0.25;
    const ElasticNetPath path = elastic_net_path(d, st);
    const std::string csv = path_to_csv(path, d.feature_names);
    CHECK(csv.rfind("lambda,intercept,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10\n", 0) == 0);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
    CHECK(path.lambdas[1] == doctest::Approx(path.lambda_max * 0.5));
    CHECK(path.lambdas[2] == doctest::Approx(path.lambda_max * 0.25));

    // The model's "path" report is the same CSV (what `kestrel-train --path` writes).
    const auto full = fit(lasso_model_info(), d, {{"n_lambda", 3}, {"lambda_min_ratio", 0.25}});
    CHECK(full->report_names() == std::vector<std::string>{"path"});
    CHECK(full->report("path", Estimator::ReportNames{std::vector<std::string>{}, std::vector<std::string>{}}) == csv);

    const auto m = fit(lasso_model_info(), d, {{"lambda", 1000.0}});
    CHECK(m->coef().isZero(0.0));
    CHECK(m->intercept() == doctest::Approx(d.y.mean()).epsilon(1e-12));
    CHECK(m->path().lambdas.size() == 1);
}

TEST_CASE("lasso: a sample weight of 2 equals duplicating the row") {
    const Dataset& d = diabetes();
    Dataset w = d;
    w.weights = Vector::Ones(d.rows());
    std::vector<Index> rows;
    for (Index i = 0; i < d.rows(); ++i) {
        rows.push_back(i);
        if (i % 3 == 0) {
            rows.push_back(i);
            w.weights[i] = 2;
        }
    }
    const Params p{{"lambda", 0.5}, {"tol", 1e-20}, {"max_iter", 10000000}};
    CHECK(relative_error(fitted(*fit(elastic_net_model_info(), w, p)),
                         fitted(*fit(elastic_net_model_info(), take_rows(d, rows), p))) < 1e-9);
}

TEST_CASE("lasso: standardize penalises the coefficients of unit-variance features") {
    // With standardize the solution equals the lasso on (x − x̄)/sd_j, mapped back by 1/sd_j.
    const Dataset& d = diabetes();
    const Params p{{"lambda", 2.0}, {"tol", 1e-20}, {"max_iter", 10000000}};
    Params ps = p;
    ps["standardize"] = true;
    const auto a = fit(lasso_model_info(), d, ps);

    Dataset z = d;
    DenseMatrix X = d.X.to_dense();
    const Eigen::RowVectorXd mean = X.colwise().mean();
    X.rowwise() -= mean;
    const Eigen::RowVectorXd sd = (X.colwise().squaredNorm() / static_cast<double>(d.rows())).cwiseSqrt();
    X = X.array().rowwise() / sd.array();
    z.X = Features(X);
    const auto b = fit(lasso_model_info(), z, p);
    CHECK(relative_error(a->coef().transpose(), b->coef().transpose().cwiseQuotient(sd)) < 1e-8);
    // Something is zeroed: λ = 2 is large enough on the standardised scale.
    CHECK((a->coef().array() == 0).count() > 0);
}

TEST_CASE("lasso: thread count and sparse input do not change the model") {
    const Dataset& d = diabetes();
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    const auto a = fit(lasso_model_info(), d, {}, one);
    const auto b = fit(lasso_model_info(), d, {}, two);
    CHECK(a->save_state().dump() == b->save_state().dump());
    const auto c = fit(lasso_model_info(), with_sparse_features(d), {});
    CHECK(relative_error(fitted(*a), fitted(*c)) < 1e-9);
    // Without an intercept the intercept is 0.
    CHECK(fit(lasso_model_info(), d, {{"fit_intercept", false}})->intercept() == 0.0);
}

// 5000 x 12, columns with large means (centring matters) and two correlated ones (0.97).
Dataset wide_means_regression() {
    std::mt19937_64 gen(7);
    std::normal_distribution<double> z(0.0, 1.0);
    DenseMatrix X(5000, 12);
    Vector y(5000), w(5000);
    for (Index i = 0; i < X.rows(); ++i) {
        for (Index j = 0; j < X.cols(); ++j) X(i, j) = 100.0 * static_cast<double>(j) + (1.0 + 0.3 * j) * z(gen);
        X(i, 11) = X(i, 10) + z(gen);
        y[i] = 3.0 * X(i, 0) - 2.0 * X(i, 3) + 0.5 * X(i, 10) + z(gen);
        w[i] = 0.5 + static_cast<double>(i % 4);
    }
    Dataset d;
    d.X = Features(X);
    d.y = y;
    d.weights = w;
    return d;
}

TEST_CASE("lasso: covariance and naive updates give the same path; covariance is thread-independent") {
    const Dataset base = wide_means_regression();
    for (int variant = 0; variant < 4; ++variant) {
        CAPTURE(variant);
        Dataset d = base;
        ElasticNetSettings st;
        st.n_lambda = 40;
        st.tol = 1e-14;
        if (variant == 1) d.weights = Vector();  // unweighted
        if (variant == 2) st.standardize = true;
        if (variant == 3) {  // no intercept (on centred columns: with means of 1000 it crawls)
            DenseMatrix X = d.X.to_dense();
            X.rowwise() -= X.colwise().mean();
            d.X = Features(X);
            st.fit_intercept = false;
            st.l1_ratio = 0.5;
        }
        st.updates = ElasticNetUpdates::naive;
        const ElasticNetPath naive = elastic_net_path(d, st, 2);
        st.updates = ElasticNetUpdates::covariance;
        const ElasticNetPath one = elastic_net_path(d, st, 1);
        const ElasticNetPath two = elastic_net_path(d, st, 2);
        REQUIRE(naive.converged);
        REQUIRE(one.converged);
        // The same iterates up to rounding: the same λ grid, coefficients and zeros.
        CHECK(relative_error(naive.lambdas.transpose(), one.lambdas.transpose()) < 1e-12);
        CHECK(relative_error(naive.coef, one.coef) < 1e-9);
        CHECK(relative_error(naive.intercepts.transpose(), one.intercepts.transpose()) < 1e-9);
        CHECK(((naive.coef.array() == 0) == (one.coef.array() == 0)).all());
        // The Gram is summed over fixed blocks in a fixed order: bit-identical.
        CHECK(one.coef == two.coef);
        CHECK(one.intercepts == two.intercepts);
    }
    // auto picks covariance for dense n > d and naive for sparse: both fit the same model.
    ElasticNetSettings st;
    st.tol = 1e-14;
    const ElasticNetPath dense = elastic_net_path(base, st, 2);
    const ElasticNetPath sparse = elastic_net_path(with_sparse_features(base), st, 2);
    CHECK(relative_error(dense.coef, sparse.coef) < 1e-8);
    // Covariance asked for on sparse rows: the Gram from the non-zeros, the same path.
    st.updates = ElasticNetUpdates::covariance;
    const ElasticNetPath sparse_cov = elastic_net_path(with_sparse_features(base), st, 2);
    CHECK(relative_error(dense.coef, sparse_cov.coef) < 1e-8);
    CHECK(relative_error(dense.intercepts.transpose(), sparse_cov.intercepts.transpose()) < 1e-8);
}

TEST_CASE("lasso: bad parameters, regression only, and non-convergence warns") {
    CHECK_THROWS_AS(make<ElasticNet>(lasso_model_info(), {{"lambda", -1.0}}), ParamError);
    CHECK_THROWS_AS(make<ElasticNet>(lasso_model_info(), {{"l1_ratio", 0.5}}), ParamError);
    CHECK_THROWS_AS(make<ElasticNet>(elastic_net_model_info(), {{"l1_ratio", 1.5}}), ParamError);
    CHECK_THROWS_AS(make<ElasticNet>(elastic_net_model_info(), {{"lambda_min_ratio", 0.0}}), ParamError);
    CHECK_THROWS_AS(fit(lasso_model_info(), breast_cancer(), {}), UsageError);
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const auto m = fit(lasso_model_info(), diabetes(), {{"max_iter", 5}}, ctx);
    CHECK(warned.find("max_iter") != std::string::npos);
    CHECK(m->predict(diabetes().X).allFinite());
}

}  // TEST_SUITE

}  // namespace unit_linear_elastic_net_test
}  // namespace
