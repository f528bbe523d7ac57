// SMO with second-order working-set selection and shrinking, written once for both
// duals. The standard dual has one equality constraint, the nu dual one per label sign;
// a small policy type says how many candidate sets that makes and computes rho, and the
// solver is instantiated per policy so the hot passes stay free of run-time dispatch.
#include "kestrel/svm/smo_solver.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {

namespace {

constexpr double kTau = 1e-12;  // curvature floor for non-positive-definite pairs
constexpr double kInf = std::numeric_limits<double>::infinity();
// The passes of one iteration (selection, gradient update) run on one thread. Each is a few
// microseconds over the active variables and there are millions of iterations at large C: a
// fork-join per pass costs ~1 µs on an idle machine, but a scheduler time slice whenever the
// cores are shared (libgomp's waiting workers spin, then sleep: measured 141 s against 7.4 s
// at one thread on a 30000-row C = 1000 problem at load 8). Both cores go to coarse work
// instead: whole one-vs-one pairs, kernel rows long enough to pay for their fork-join.

// The running best of a selection pass. Pick: the largest value; BestJ: the smallest
// second-order objective −diff²/a. Both break ties to the later index.
struct Pick {
    double value = -kInf;
    Index at = -1;
    void offer(double v, Index t) {
        if (v >= value) {
            value = v;
            at = t;
        }
    }
};
struct BestJ {
    double best = kInf;
    Index at = -1;
    // t violates the pair's optimality by diff (> 0 to count); curvature() gives a, and
    // is only called then (the i column it reads may not exist otherwise).
    template <class Curvature>
    void offer(double diff, Curvature&& curvature, Index t) {
        if (!(diff > 0)) return;
        const double a = curvature();
        const double obj = -(diff * diff) / (a > 0 ? a : kTau);
        if (obj <= best) {
            best = obj;
            at = t;
        }
    }
};

template <int Sets>
std::array<double, Sets> all_minus_infinity() {
    std::array<double, Sets> a;
    a.fill(-kInf);
    return a;
}

enum Status : std::int8_t { at_lower = 0, at_upper = 1, free_var = 2 };

// Rho (or one of the nu dual's two offsets) from the variables of one equality
// constraint: the average KKT value over the free ones; without any, the middle of the
// interval the bound ones leave. A bound variable narrows the interval from below or
// from above depending on its bound and, where values are taken as y·G, its sign.
struct KktInterval {
    double ub = kInf, lb = -kInf, sum_free = 0;
    Index nr_free = 0;
    void add(double value, std::int8_t status, bool upper_bounds_from_above) {
        if (status == free_var) {
            ++nr_free;
            sum_free += value;
        } else if ((status == at_upper) == upper_bounds_from_above) {
            ub = std::min(ub, value);
        } else {
            lb = std::max(lb, value);
        }
    }
    double value() const { return nr_free > 0 ? sum_free / static_cast<double>(nr_free) : (ub + lb) / 2; }
};

// The policies: how many candidate sets the working-set selection and shrinking keep
// (set_of maps a label to its set, the pair is drawn within one set) and how rho comes
// out of the final gradient.

// yᵀα = Δ: one set; rho is read off y·G.
struct OneConstraint {
    static constexpr int kSets = 1;
    static constexpr int set_of(std::int8_t) { return 0; }
    static void finish(const std::int8_t* y, const double* G, const std::int8_t* status, Index n, SmoResult& res) {
        KktInterval all;
        for (Index i = 0; i < n; ++i) all.add(y[i] * G[i], status[i], y[i] != +1);
        res.rho = all.value();
    }
};

// Σ_{y=+1} α = Δ₊ and Σ_{y=-1} α = Δ₋: one set per sign; each gives an offset of G, and
// rho and r are their half difference and half sum.
struct PerSignConstraints {
    static constexpr int kSets = 2;
    static constexpr int set_of(std::int8_t y) { return y == +1 ? 0 : 1; }
    static void finish(const std::int8_t* y, const double* G, const std::int8_t* status, Index n, SmoResult& res) {
        KktInterval per_sign[2];
        for (Index i = 0; i < n; ++i) per_sign[set_of(y[i])].add(G[i], status[i], false);
        const double r1 = per_sign[0].value(), r2 = per_sign[1].value();
        res.r = (r1 + r2) / 2;
        res.rho = (r1 - r2) / 2;
    }
};

template <class Policy>
class SmoEngine {
public:
    SmoEngine(QMatrix& Q, const SmoProblem& pb, const SmoOptions& opt, const Context& ctx)
        : Q_(Q), opt_(opt), ctx_(ctx), l_(static_cast<Index>(pb.p.size())) {
        p_.assign(pb.p.data(), pb.p.data() + l_);
        y_ = pb.y;
        C_.assign(pb.upper.data(), pb.upper.data() + l_);
        alpha_.assign(pb.alpha.data(), pb.alpha.data() + l_);
        active_.resize(static_cast<std::size_t>(l_));
        std::iota(active_.begin(), active_.end(), Index{0});
        status_.resize(static_cast<std::size_t>(l_));
        for (Index i = 0; i < l_; ++i) update_status(i);
        QD_ = Q_.diagonal();
    }

    SmoResult run();

private:
    static constexpr int kSets = Policy::kSets;
    static constexpr int kPos = Policy::set_of(+1), kNeg = Policy::set_of(-1);

    void update_status(Index i) {
        const double a = alpha_[static_cast<std::size_t>(i)];
        status_[static_cast<std::size_t>(i)] = a >= C_[static_cast<std::size_t>(i)] ? at_upper
                                               : a <= 0                             ? at_lower
                                                                                    : free_var;
    }
    bool upper(Index i) const { return status_[static_cast<std::size_t>(i)] == at_upper; }
    bool lower(Index i) const { return status_[static_cast<std::size_t>(i)] == at_lower; }
    bool is_free(Index i) const { return status_[static_cast<std::size_t>(i)] == free_var; }

    void initialize_gradient();
    void swap_index(Index i, Index j);
    void reconstruct_gradient();
    bool select_pair(Index& out_i, Index& out_j);  // false = optimal
    void shrink();
    void update_pair(Index i, Index j);

    QMatrix& Q_;
    SmoOptions opt_;
    const Context& ctx_;
    Index l_;
    Index active_size_ = 0;
    bool unshrunk_ = false;
    const double* QD_ = nullptr;
    const SimdLoops& simd_ = simd_loops();
    std::vector<double> p_, C_, alpha_, G_;  // Ḡ is kept by Q (add_to_bound_sum)
    std::vector<std::int8_t> y_, status_;
    std::vector<Index> active_;  // original index of each position
};

template <class Policy>
void SmoEngine<Policy>::initialize_gradient() {
    G_.assign(p_.begin(), p_.end());
    for (Index i = 0; i < l_; ++i) {
        if (lower(i)) continue;
        const float* Qi = Q_.column(i, l_);
        const double a = alpha_[static_cast<std::size_t>(i)];
        for (Index j = 0; j < l_; ++j) G_[static_cast<std::size_t>(j)] += a * Qi[j];
        if (upper(i)) Q_.add_to_bound_sum(i, C_[static_cast<std::size_t>(i)]);
    }
}

template <class Policy>
void SmoEngine<Policy>::swap_index(Index i, Index j) {
    Q_.swap_index(i, j);
    auto si = static_cast<std::size_t>(i), sj = static_cast<std::size_t>(j);
    std::swap(y_[si], y_[sj]);
    std::swap(G_[si], G_[sj]);
    std::swap(status_[si], status_[sj]);
    std::swap(alpha_[si], alpha_[sj]);
    std::swap(p_[si], p_[sj]);
    std::swap(active_[si], active_[sj]);
    std::swap(C_[si], C_[sj]);
}

// Restores G on the shrunk (inactive) variables: Ḡ holds the contribution of the
// variables at their upper bound, the free ones are added back here.
template <class Policy>
void SmoEngine<Policy>::reconstruct_gradient() {
    if (active_size_ == l_) return;
    for (Index j = active_size_; j < l_; ++j)
        G_[static_cast<std::size_t>(j)] = Q_.bound_sum(j) + p_[static_cast<std::size_t>(j)];
    Index nr_free = 0;
    for (Index j = 0; j < active_size_; ++j) nr_free += is_free(j) ? 1 : 0;
    // Whichever way touches fewer Q entries: columns of the inactive variables
    // (length active_size) or of the free ones (length l).
    if (static_cast<double>(nr_free) * static_cast<double>(l_) >
        2.0 * static_cast<double>(active_size_) * static_cast<double>(l_ - active_size_)) {
        for (Index i = active_size_; i < l_; ++i) {
            const float* Qi = Q_.column(i, active_size_);
            double g = 0;
            for (Index j = 0; j < active_size_; ++j)
                if (is_free(j)) g += alpha_[static_cast<std::size_t>(j)] * Qi[j];
            G_[static_cast<std::size_t>(i)] += g;
        }
    } else {
        for (Index i = 0; i < active_size_; ++i) {
            if (!is_free(i)) continue;
            const float* Qi = Q_.column(i, l_);
            const double a = alpha_[static_cast<std::size_t>(i)];
            for (Index j = active_size_; j < l_; ++j) G_[static_cast<std::size_t>(j)] += a * Qi[j];
        }
    }
}

// Second-order selection (WSS3) within each set: i maximizes -y_t G_t over I_up; j
// minimizes the second-order decrease -(b_it²)/a_it over the violating t in I_low,
// against the i of t's set, and that set's i is the one used.
template <class Policy>
bool SmoEngine<Policy>::select_pair(Index& out_i, Index& out_j) {
    const double* G = G_.data();
    const std::int8_t* y = y_.data();
    const Index n = active_size_;
    if constexpr (kSets == 1) {
        // One constraint (C-SVC, epsilon-SVR, one-class): the two passes as dispatched loops
        // (common/simd.hpp spells them out; every path gives the same pair). The nu dual's
        // two sets take the loops below, which do the same per set.
        const SmoPickI pi = simd_.smo_pick_i(G, y, status_.data(), n);
        if (pi.at < 0) return false;
        const SmoPickJ pj = simd_.smo_pick_j(G, y, status_.data(), QD_, Q_.column(pi.at, n), n, pi.value, QD_[pi.at],
                                             2.0 * y[pi.at]);
        if (pi.value + pj.gmax2 < opt_.eps || pj.at == -1) return false;
        out_i = pi.at;
        out_j = pj.at;
        return true;
    } else {
        std::array<Pick, kSets> pi;
        for (Index t = 0; t < n; ++t) {
            if (y[t] == +1) {
                if (!upper(t)) pi[kPos].offer(-G[t], t);
            } else if (!lower(t)) {
                pi[kNeg].offer(G[t], t);
            }
        }
        // Per set: its i's violation, column, and the parts of a_it that do not depend on t
        // (2 y_i multiplies Q_it, whose sign is y_i y_t).
        std::array<double, kSets> gmax, qd_i, two_yi;
        std::array<const float*, kSets> Qi;
        for (int s = 0; s < kSets; ++s) {
            const Index i = pi[s].at;
            gmax[s] = pi[s].value;
            Qi[s] = i >= 0 ? Q_.column(i, n) : nullptr;
            qd_i[s] = i >= 0 ? QD_[i] : 0.0;
            two_yi[s] = i >= 0 ? 2.0 * y[i] : 0.0;
        }
        // The j chosen and, per set, the largest y·G over I_low.
        BestJ pj;
        std::array<double, kSets> gmax2 = all_minus_infinity<kSets>();
        for (Index t = 0; t < n; ++t) {
            if (y[t] == +1) {
                if (lower(t)) continue;
                if (G[t] >= gmax2[kPos]) gmax2[kPos] = G[t];
                pj.offer(gmax[kPos] + G[t], [&] { return qd_i[kPos] + QD_[t] - two_yi[kPos] * Qi[kPos][t]; }, t);
            } else {
                if (upper(t)) continue;
                if (-G[t] >= gmax2[kNeg]) gmax2[kNeg] = -G[t];
                pj.offer(gmax[kNeg] - G[t], [&] { return qd_i[kNeg] + QD_[t] + two_yi[kNeg] * Qi[kNeg][t]; }, t);
            }
        }
        double gap = gmax[0] + gmax2[0];
        for (int s = 1; s < kSets; ++s) gap = std::max(gap, gmax[s] + gmax2[s]);
        if (gap < opt_.eps || pj.at == -1) return false;
        out_j = pj.at;
        out_i = pi[static_cast<std::size_t>(Policy::set_of(y[out_j]))].at;
        return true;
    }
}

// A bound variable whose gradient says it would not move even against the most
// violating variable of its set's other side is set aside (moved past active_size).
template <class Policy>
void SmoEngine<Policy>::shrink() {
    // Per set: up, the largest -y G over I_up; low, the largest y G over I_low.
    std::array<double, kSets> up = all_minus_infinity<kSets>(), low = all_minus_infinity<kSets>();
    for (Index t = 0; t < active_size_; ++t) {
        const double g = G_[static_cast<std::size_t>(t)];
        if (y_[static_cast<std::size_t>(t)] == +1) {
            if (!upper(t)) up[kPos] = std::max(up[kPos], -g);
            if (!lower(t)) low[kPos] = std::max(low[kPos], g);
        } else {
            if (!upper(t)) low[kNeg] = std::max(low[kNeg], -g);
            if (!lower(t)) up[kNeg] = std::max(up[kNeg], g);
        }
    }
    // Close to the end: bring every variable back once, so a variable shrunk too
    // early cannot spoil the final solution.
    double gap = up[0] + low[0];
    for (int s = 1; s < kSets; ++s) gap = std::max(gap, up[s] + low[s]);
    if (!unshrunk_ && gap <= opt_.eps * 10) {
        unshrunk_ = true;
        reconstruct_gradient();
        active_size_ = l_;
    }
    const auto shrinkable = [&](Index t) {
        const double g = G_[static_cast<std::size_t>(t)];
        const bool pos = y_[static_cast<std::size_t>(t)] == +1;
        if (upper(t)) return pos ? -g > up[kPos] : -g > low[kNeg];
        if (lower(t)) return pos ? g > low[kPos] : g > up[kNeg];
        return false;
    };
    for (Index t = 0; t < active_size_; ++t) {
        if (!shrinkable(t)) continue;
        --active_size_;
        while (active_size_ > t) {
            if (!shrinkable(active_size_)) {
                swap_index(t, active_size_);
                break;
            }
            --active_size_;
        }
    }
}

// Minimizes the objective over (α_i, α_j) along the equality constraint, then clips
// the step to the box; G and Ḡ follow the change.
template <class Policy>
void SmoEngine<Policy>::update_pair(Index i, Index j) {
    const auto si = static_cast<std::size_t>(i), sj = static_cast<std::size_t>(j);
    const float* Qi = Q_.column(i, active_size_);
    const float* Qj = Q_.column(j, active_size_);
    const double Ci = C_[si], Cj = C_[sj];
    const double old_i = alpha_[si], old_j = alpha_[sj];
    double ai = old_i, aj = old_j;
    const double Gi = G_[si], Gj = G_[sj];
    if (y_[si] != y_[sj]) {
        // α_i - α_j stays constant.
        double quad = QD_[i] + QD_[j] + 2.0 * Qi[j];
        if (quad <= 0) quad = kTau;
        const double delta = (-Gi - Gj) / quad;
        const double diff = ai - aj;
        ai += delta;
        aj += delta;
        if (diff > 0) {
            if (aj < 0) {
                aj = 0;
                ai = diff;
            }
        } else if (ai < 0) {
            ai = 0;
            aj = -diff;
        }
        if (diff > Ci - Cj) {
            if (ai > Ci) {
                ai = Ci;
                aj = Ci - diff;
            }
        } else if (aj > Cj) {
            aj = Cj;
            ai = Cj + diff;
        }
    } else {
        // α_i + α_j stays constant.
        double quad = QD_[i] + QD_[j] - 2.0 * Qi[j];
        if (quad <= 0) quad = kTau;
        const double delta = (Gi - Gj) / quad;
        const double sum = ai + aj;
        ai -= delta;
        aj += delta;
        if (sum > Ci) {
            if (ai > Ci) {
                ai = Ci;
                aj = sum - Ci;
            }
        } else if (aj < 0) {
            aj = 0;
            ai = sum;
        }
        if (sum > Cj) {
            if (aj > Cj) {
                aj = Cj;
                ai = sum - Cj;
            }
        } else if (ai < 0) {
            ai = 0;
            aj = sum;
        }
    }
    alpha_[si] = ai;
    alpha_[sj] = aj;
    const double dai = ai - old_i, daj = aj - old_j;
    simd_.smo_gradient_update(G_.data(), Qi, Qj, dai, daj, active_size_);

    const bool was_upper_i = upper(i), was_upper_j = upper(j);
    update_status(i);
    update_status(j);
    if (was_upper_i != upper(i)) Q_.add_to_bound_sum(i, was_upper_i ? -Ci : Ci);
    if (was_upper_j != upper(j)) Q_.add_to_bound_sum(j, was_upper_j ? -Cj : Cj);
}

template <class Policy>
SmoResult SmoEngine<Policy>::run() {
    active_size_ = l_;
    initialize_gradient();
    long long max_iter = opt_.max_iter;
    if (max_iter <= 0) max_iter = std::max<long long>(10000000, 100 * static_cast<long long>(l_));
    long long iter = 0;
    Index counter = std::min<Index>(l_, 1000) + 1;
    bool hit_limit = true;
    interruption_point();  // then every min(l, 1000) iterations, with the shrinking
    while (iter < max_iter) {
        if (--counter == 0) {
            interruption_point();
            counter = std::min<Index>(l_, 1000);
            if (opt_.shrinking) shrink();
        }
        Index i = -1, j = -1;
        if (!select_pair(i, j)) {
            // Optimal on the active set: check again on the whole problem.
            reconstruct_gradient();
            active_size_ = l_;
            if (!select_pair(i, j)) {
                hit_limit = false;
                break;
            }
            counter = 1;  // shrink at the next iteration
        }
        ++iter;
        update_pair(i, j);
    }
    SmoResult res;
    if (hit_limit) {
        ctx_.warning("SMO solver reached max_iter=" + std::to_string(max_iter) +
                     " before convergence; the model is usable but may be inaccurate");
        reconstruct_gradient();
        active_size_ = l_;
        res.reached_max_iter = true;
    }
    Policy::finish(y_.data(), G_.data(), status_.data(), active_size_, res);
    double obj = 0;
    for (Index i = 0; i < l_; ++i)
        obj +=
            alpha_[static_cast<std::size_t>(i)] * (G_[static_cast<std::size_t>(i)] + p_[static_cast<std::size_t>(i)]);
    res.objective = obj / 2;
    res.iterations = iter;
    res.alpha.resize(l_);
    res.gradient.resize(l_);
    for (Index i = 0; i < l_; ++i) {
        res.alpha[active_[static_cast<std::size_t>(i)]] = alpha_[static_cast<std::size_t>(i)];
        res.gradient[active_[static_cast<std::size_t>(i)]] = G_[static_cast<std::size_t>(i)];
    }
    return res;
}

}  // namespace

SmoResult solve_smo(QMatrix& Q, const SmoProblem& problem, const SmoOptions& options, const Context& ctx) {
    return SmoEngine<OneConstraint>(Q, problem, options, ctx).run();
}

SmoResult solve_smo_nu(QMatrix& Q, const SmoProblem& problem, const SmoOptions& options, const Context& ctx) {
    return SmoEngine<PerSignConstraints>(Q, problem, options, ctx).run();
}

}  // namespace kestrel
