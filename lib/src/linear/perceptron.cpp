#include "kestrel/linear/perceptron.hpp"

#include <limits>
#include <numeric>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/common/row_access.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kShuffleStream = 0x9e3c;

struct PerceptronRun {
    Vector w;  // d weights, then the intercept
    int epochs = 0;
    bool separated = false;
    bool converged = false;  // stopped by the tol rule
};

// scikit-learn's stopping rule (SGDClassifier / Perceptron without early_stopping): L_e,
// the epoch's loss Σ_i max(0, −y_i z_i) summed over its visits (each z_i taken before
// that visit's update, sample and class weights not applied), is "no improvement" when
// L_e > best − tol · n, best the smallest L of the epochs before (+∞ at first); training
// stops after n_iter_no_change such epochs in a row. tol = −∞ never stops.
struct NoImprovement {
    double tol;
    int patience;
    double best = std::numeric_limits<double>::infinity();
    int count = 0;
    // After an epoch of loss `sum` over n visits: whether to stop.
    bool stop(double sum, Index n) {
        if (sum > best - tol * static_cast<double>(n))
            ++count;
        else
            count = 0;
        if (sum < best) best = sum;
        return count >= patience;
    }
};

// The averaged weights are Σ_t w_t / T over the T row visits (w_t: the weights after
// visit t), kept lazily (Daumé's trick): an update Δ at visit t counts T − t + 1 times, so
// u accumulates (t − 1)·Δ and the average is w − u/T.
template <class Rows>
PerceptronRun train(const Rows& rows, const Vector& y, const Vector& cost, Index d, double eta, int max_epochs,
                    NoImprovement rule, bool shuffle, bool averaged, bool fit_intercept, std::uint64_t seed) {
    const Index n = y.size();
    PerceptronRun r;
    r.w = Vector::Zero(d + 1);
    Vector u = Vector::Zero(d + 1);
    std::vector<Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Index{0});
    Rng rng(seed);
    double visits = 0;  // t − 1 at the current visit
    double* w = r.w.data();
    while (r.epochs < max_epochs) {
        interruption_point();
        if (shuffle) rng.shuffle(order);
        bool mistake = false;
        double loss = 0;
        for (Index i : order) {
            const double z = rows.dot(i, w) + w[d];
            if (y[i] * z <= 0) loss -= y[i] * z;
            if (y[i] * z <= 0 && cost[i] > 0) {
                mistake = true;
                const double step = eta * cost[i] * y[i];
                rows.axpy(i, step, w);
                if (fit_intercept) w[d] += step;
                if (averaged) {
                    rows.axpy(i, visits * step, u.data());
                    if (fit_intercept) u[d] += visits * step;
                }
            }
            visits += 1;
        }
        ++r.epochs;
        if (!mistake) {
            r.separated = true;
            break;
        }
        if (rule.stop(loss, n)) {
            r.converged = true;
            break;
        }
    }
    if (averaged && visits > 0) r.w -= u / visits;
    return r;
}

}  // namespace

void Perceptron::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("perceptron: learns classification only (for regression use least_squares)");
    if (data.n_classes() != 2)
        throw UsageError("perceptron: binary; use multiclass=ovr for " + std::to_string(data.n_classes()) +
                         " classes");
    const PerceptronParams& p = p_;
    const Vector cost = row_costs(data, p.class_weight, 1.0);
    const Vector y_pm = plus_minus(data);
    const Index d = data.cols();
    // tol=none: the rule never stops (scikit-learn's tol=None).
    const NoImprovement rule{p.tol.is("none") ? -std::numeric_limits<double>::infinity() : p.tol.value,
                             static_cast<int>(p.n_iter_no_change)};
    SparseMatrix scratch;
    const PerceptronRun r = rows::visit(data.X, scratch, [&](const auto& rows) {
        return train(rows, y_pm, cost, d, p.eta, static_cast<int>(p.max_iter), rule, p.shuffle, p.averaged,
                     p.fit_intercept, derive_seed(ctx.seed, kShuffleStream));
    });
    epochs_ = r.epochs;
    keep(Vector(r.w.head(d)), r.w[d]);
    if (!r.separated && !r.converged)
        ctx.warning("perceptron: the training data were not separated within max_iter=" +
                    std::to_string(r.epochs) + " epochs (not linearly separable, or more epochs needed); " +
                    (p.averaged ? "the averaged weights are used"
                                             : "the last weights are used (averaged=1 is steadier)"));
}

void Perceptron::on_params(const Params& resolved) {
    p_ = perceptron_params().read(resolved);
}

const ParamBinding<PerceptronParams>& perceptron_params() {
    using P = PerceptronParams;
    static const ParamBinding<P> binding{
        bind(&P::eta, real_param("eta", 1.0, "step size: w += eta * class_weight * sample_weight * y * x on a mistake")
                          .range(0.0, std::nullopt)
                          .open_below()
                          .like("scikit-learn Perceptron(eta0=...)")),
        bind(&P::max_iter,
             int_param("max_iter", 1000, "maximum number of epochs (passes); stops early after an epoch without mistakes")
                 .range(1.0, std::nullopt)
                 .like("scikit-learn max_iter")),
        bind(&P::tol, real_param("tol", 1e-3,
                                 "stop when the epoch's summed perceptron loss exceeds (best epoch so far - tol * rows) "
                                 "for n_iter_no_change epochs in a row; none = run until separated or max_iter")
                          .range(0.0, std::nullopt)
                          .also({"none"})
                          .like("scikit-learn tol (none = tol=None)")),
        bind(&P::n_iter_no_change,
             int_param("n_iter_no_change", 5, "epochs in a row without improvement (see tol) before stopping")
                 .range(1.0, std::nullopt)
                 .like("scikit-learn n_iter_no_change")),
        bind(&P::shuffle, bool_param("shuffle", true, "visit the rows in a fresh seeded random order each epoch")
                              .like("scikit-learn shuffle")),
        bind(&P::averaged, bool_param("averaged", false, "predict with the average of the weights over every row visit")
                               .like("scikit-learn average=True (averages from the first visit)")),
        fit_intercept_param("learn an intercept (updated like a constant feature of value 1, never penalised)",
                            "scikit-learn fit_intercept"),
        class_weight_param(
            "\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies the step for that class",
            "scikit-learn class_weight"),
    };
    return binding;
}

ModelInfo perceptron_model_info() {
    ModelInfo info = model_info_of<Perceptron>(
        "perceptron", "Rosenblatt's perceptron (optionally averaged), seeded shuffling, class weights",
        perceptron_params().spec(), {Task::classification},
        {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.multiclass = Multiclass::binary_only;
    return info;
}

}  // namespace kestrel
