// Platt scaling transcribed from LIBSVM 3.24's sigmoid_train and sigmoid_predict, so that
// equal inputs give LIBSVM's numbers; row weights added as scikit-learn weighs them.
#include "kestrel/calibration/sigmoid.hpp"

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {

// Cross-entropy term of one row at f·A + B, in the form that never overflows.
double entropy_term(double t, double f_apb) {
    // log(1 + exp(.)) rather than log1p, as LIBSVM, so the iterates match its bit for bit.
    return f_apb >= 0 ? t * f_apb + std::log(1 + std::exp(-f_apb)) : (t - 1) * f_apb + std::log(1 + std::exp(f_apb));
}

}  // namespace

SigmoidFit fit_sigmoid(std::span<const double> decision, std::span<const std::int8_t> labels,
                       std::span<const double> weights) {
    const std::size_t l = decision.size();
    if (l == 0 || labels.size() != l || (!weights.empty() && weights.size() != l))
        throw InternalError("fit_sigmoid: empty or mismatched input");
    // Multiplying by a unit weight is exact: unweighted fits keep LIBSVM's iterates.
    const auto w = [&](std::size_t i) { return weights.empty() ? 1.0 : weights[i]; };
    double prior1 = 0, prior0 = 0;
    for (std::size_t i = 0; i < l; ++i) (labels[i] > 0 ? prior1 : prior0) += w(i);
    constexpr int kMaxIter = 100;
    constexpr double kMinStep = 1e-10, kSigma = 1e-12, kEps = 1e-5;
    // Targets pulled off 0 and 1 (Platt's regularisation) keep A, B finite on separable data.
    const double hi_target = (prior1 + 1.0) / (prior1 + 2.0), lo_target = 1 / (prior0 + 2.0);
    std::vector<double> t(l);
    SigmoidFit fit;
    double A = 0.0, B = std::log((prior0 + 1.0) / (prior1 + 1.0));
    double fval = 0.0;
    for (std::size_t i = 0; i < l; ++i) {
        t[i] = labels[i] > 0 ? hi_target : lo_target;
        fval += w(i) * entropy_term(t[i], decision[i] * A + B);
    }
    int iter = 0;
    for (; iter < kMaxIter; ++iter) {
        // Gradient and Hessian, with H' = H + sigma I so the Newton step always exists.
        double h11 = kSigma, h22 = kSigma, h21 = 0, g1 = 0, g2 = 0;
        for (std::size_t i = 0; i < l; ++i) {
            const double f_apb = decision[i] * A + B;
            double p, q;
            if (f_apb >= 0) {
                p = std::exp(-f_apb) / (1.0 + std::exp(-f_apb));
                q = 1.0 / (1.0 + std::exp(-f_apb));
            } else {
                p = 1.0 / (1.0 + std::exp(f_apb));
                q = std::exp(f_apb) / (1.0 + std::exp(f_apb));
            }
            const double d2 = w(i) * p * q;
            h11 += decision[i] * decision[i] * d2;
            h22 += d2;
            h21 += decision[i] * d2;
            const double d1 = w(i) * (t[i] - p);
            g1 += decision[i] * d1;
            g2 += d1;
        }
        if (std::fabs(g1) < kEps && std::fabs(g2) < kEps) break;
        const double det = h11 * h22 - h21 * h21;
        const double dA = -(h22 * g1 - h21 * g2) / det;
        const double dB = -(-h21 * g1 + h11 * g2) / det;
        const double gd = g1 * dA + g2 * dB;
        double step = 1;
        while (step >= kMinStep) {  // backtracking line search
            const double newA = A + step * dA, newB = B + step * dB;
            double newf = 0.0;
            for (std::size_t i = 0; i < l; ++i) newf += w(i) * entropy_term(t[i], decision[i] * newA + newB);
            if (newf < fval + 0.0001 * step * gd) {
                A = newA;
                B = newB;
                fval = newf;
                break;
            }
            step /= 2.0;
        }
        if (step < kMinStep) {
            fit.converged = false;
            break;
        }
    }
    if (iter >= kMaxIter) fit.converged = false;
    fit.a = A;
    fit.b = B;
    fit.iterations = iter;
    return fit;
}

double sigmoid_probability(double f, double a, double b) {
    const double f_apb = f * a + b;
    // 1 - p <= 1e-16 is lost when 1 + exp(-f_apb) rounds; either form is exact elsewhere.
    return f_apb >= 0 ? std::exp(-f_apb) / (1.0 + std::exp(-f_apb)) : 1.0 / (1 + std::exp(f_apb));
}

}  // namespace kestrel
