#include "kestrel/kernel_methods/kernel_perceptron.hpp"

#include <deque>
#include <map>
#include <numeric>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel_params.hpp"

namespace kestrel {

namespace {

// One mistake: the row, its signed step, and the visits during which it was alive
// (for the average: a step taken at visit t and dropped before visit t' is part of
// the weights after visits t .. t'-1).
struct Entry {
    Index row;
    double coef;
    std::uint64_t birth;
    std::uint64_t death = 0;  // 0 = alive at the end
};

}  // namespace

void KernelPerceptron::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("kernel_perceptron: learns classification only (for regression use kernel_ridge)");
    if (data.n_classes() != 2)
        throw UsageError("kernel_perceptron: is binary; for " + std::to_string(data.n_classes()) +
                         " classes use multiclass=ovr or ovo");
    const KernelPerceptronParams& p = p_;
    const Index n = data.rows();
    const int threads = std::max(1, ctx.resolved_threads());
    const KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    const KernelRows rows(data.X);
    const double eta = p.eta;
    const auto max_epochs = p.max_iter;
    const bool shuffle = p.shuffle, averaged = p.averaged;
    const bool fit_intercept = p.fit_intercept;
    const auto budget = static_cast<std::size_t>(p.budget);
    const Vector cost = row_costs(data, p.class_weight, 1.0);

    std::vector<Index> order;
    for (Index i = 0; i < n; ++i)
        if (cost[i] > 0) order.push_back(i);
    // Stream "perc": the shuffles never share a stream with the kernel's median sample.
    Rng rng(derive_seed(ctx.seed, 0x70657263));
    std::vector<Entry> entries;
    std::deque<std::size_t> alive;  // indices into entries, oldest first
    Vector f = Vector::Zero(n);     // current f(x_i) for every training row
    std::vector<double> krow(static_cast<std::size_t>(n));
    double b = 0, b_weighted = 0;  // b_weighted = Σ over bias steps of δ · (visit number)
    std::uint64_t visit = 0;
    bool separated = false;
    auto add_row = [&](Index j, double scale) {
        kernel.row(rows, j, rows, 0, n, krow.data(), threads);
        f += scale * Eigen::Map<const Vector>(krow.data(), n);
    };
    for (long long epoch = 0; epoch < max_epochs && !separated; ++epoch) {
        interruption_point();
        if (shuffle) rng.shuffle(order);
        std::size_t mistakes = 0;
        for (Index i : order) {
            ++visit;
            const double yi = data.y[i] > 0.5 ? 1.0 : -1.0;
            if (yi * f[i] > 0) continue;
            ++mistakes;
            const double step = eta * cost[i] * yi;
            entries.push_back({i, step, visit});
            alive.push_back(entries.size() - 1);
            add_row(i, step);
            if (fit_intercept) {
                b += step;
                b_weighted += step * static_cast<double>(visit);
                f.array() += step;
            }
            if (budget > 0 && alive.size() > budget) {
                Entry& old = entries[alive.front()];
                alive.pop_front();
                old.death = visit;  // gone from the weights after this visit
                add_row(old.row, -old.coef);
            }
        }
        separated = mistakes == 0;
    }
    if (!separated && max_epochs > 0)
        ctx.warning("kernel_perceptron: still making mistakes after max_iter=" + std::to_string(max_epochs) +
                    " epochs (the data may not be separable in the kernel's feature space); the model is usable");

    // Merge the steps by row (a row can err many times), rows in index order.
    const double total = static_cast<double>(visit);
    std::map<Index, double> merged;
    for (const Entry& e : entries) {
        if (averaged) {
            const std::uint64_t end = e.death ? e.death : visit + 1;
            const double life = static_cast<double>(end - e.birth);
            if (life > 0) merged[e.row] += e.coef * life / total;
        } else if (e.death == 0) {
            merged[e.row] += e.coef;
        }
    }
    std::vector<Index> support;
    Vector coef(static_cast<Index>(merged.size()));
    for (const auto& [row, c] : merged) {
        coef[static_cast<Index>(support.size())] = c;
        support.push_back(row);
    }
    model_ = KernelExpansion{};
    model_.kernel_spec = spec;
    model_.rows = data.X.rows_subset(support);
    model_.coef = coef;
    const double b_avg = total > 0 ? (b * (total + 1) - b_weighted) / total : 0.0;
    model_.intercept = Vector::Constant(1, averaged ? b_avg : b);
    model_.drop_zero_rows();
    require_finite(model_.coef, model_.intercept, "kernel_perceptron");
    model_.prepare();
}

Matrix KernelPerceptron::do_decision_function(const Features& X) const { return model_.decision(X); }

Json KernelPerceptron::do_save_state() const { return model_.to_json(); }

void KernelPerceptron::do_load_state(const Json& state) {
    if (n_classes() != 2) throw ModelStateError("kernel_perceptron state is binary");
    model_ = KernelExpansion::from_json(state, n_features(), 1);
}

const ParamBinding<KernelPerceptronParams>& kernel_perceptron_params() {
    using P = KernelPerceptronParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b{
            bind(&P::eta, real_param("eta", 1.0, "step: alpha_i += eta * class_weight * sample_weight on a mistake")
                              .range(0.0, std::nullopt)
                              .open_below()
                              .like("scikit-learn Perceptron(eta0=...)")),
            max_iter_param(1000, "maximum number of epochs; stops early after an epoch without mistakes",
                           "scikit-learn Perceptron(max_iter=...)", 0.0),
            bind(&P::shuffle, bool_param("shuffle", true, "visit the rows in a fresh seeded random order each epoch")
                                  .like("scikit-learn Perceptron(shuffle=...)")),
            bind(&P::averaged,
                 bool_param("averaged", false, "predict with the average of the dual weights over every row visit")),
            fit_intercept_param("learn a bias b (updated as a constant kernel term of value 1)",
                                "scikit-learn Perceptron(fit_intercept=...)"),
            bind(&P::budget,
                 int_param("budget", 0, "keep at most this many support entries, dropping the oldest (0 = unlimited)")
                     .range(0.0, std::nullopt)),
            class_weight_param("\"\" (all 1), \"balanced\" or label:weight,...; multiplies the step for that class",
                               "scikit-learn Perceptron(class_weight=...)"),
        };
        b.add(kernel_param_bindings("rbf"));
        return b;
    }();
    return binding;
}

ModelInfo kernel_perceptron_model_info() {
    ModelInfo info = model_info_of<KernelPerceptron>(
        "kernel_perceptron", "dual (kernel) perceptron with epochs, seeded shuffling, a budget and averaging",
        kernel_perceptron_params().spec(), {Task::classification},
        {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.multiclass = Multiclass::binary_only;
    return info;
}

}  // namespace kestrel
