// SMO with second-order working-set selection and shrinking. The standard variant
// (one equality constraint) and the nu variant (one per label sign) differ only in
// how they pick the pair, shrink and compute rho.
#include "kestrel/svm/smo_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace kestrel {

namespace {

constexpr double kTau = 1e-12;  // curvature floor for non-positive-definite pairs
constexpr double kInf = std::numeric_limits<double>::infinity();
// Passes over the active variables (selection, gradient update) split into chunks
// once there are enough of them to pay for a fork-join (~1 µs against ~0.5 ns a
// variable). Selection only compares, and chunks are combined in order, so the pair
// chosen is the one a single pass would choose, whatever the thread count.
constexpr Index kScanChunk = 1024;
constexpr Index kParallelScan = 2 * kScanChunk;

// part(lo, hi) -> R over [0, n) in chunks (parallel when worth it), then
// join(acc, part) from left to right.
template <class R, class Part, class Join>
R scan_chunks(Index n, int threads, std::vector<R>& parts, Part&& part, Join&& join) {
    if (threads <= 1 || n < kParallelScan) return part(Index{0}, n);
    const Index chunks = (n + kScanChunk - 1) / kScanChunk;
    parts.resize(static_cast<std::size_t>(chunks));
#pragma omp parallel for num_threads(threads) schedule(static)
    for (Index c = 0; c < chunks; ++c)
        parts[static_cast<std::size_t>(c)] = part(c * kScanChunk, std::min(n, (c + 1) * kScanChunk));
    R acc = parts[0];
    for (Index c = 1; c < chunks; ++c) join(acc, parts[static_cast<std::size_t>(c)]);
    return acc;
}

// The running best of a selection pass. Pick: the largest value; BestJ: the smallest
// second-order objective −diff²/a. Both break ties to the later index, within a chunk
// (a later t replaces an equal one) and across chunks (join prefers the later chunk).
struct Pick {
    double value = -kInf;
    Index at = -1;
    void offer(double v, Index t) {
        if (v >= value) {
            value = v;
            at = t;
        }
    }
    void join(const Pick& next) {
        if (next.at >= 0 && next.value >= value) *this = next;
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
    void join(const BestJ& next) {
        if (next.at >= 0 && next.best <= best) {
            best = next.best;
            at = next.at;
        }
    }
};
struct PickJ {
    BestJ j;
    double gmax2 = -kInf;
};
struct PickNu {
    Pick p, n;  // i candidates of each sign
};
struct PickJNu {
    BestJ j;
    double gmaxp2 = -kInf, gmaxn2 = -kInf;
};

enum Status : std::int8_t { at_lower = 0, at_upper = 1, free_var = 2 };

class SmoEngine {
public:
    SmoEngine(QMatrix& Q, const SmoProblem& pb, const SmoOptions& opt, const Context& ctx, bool nu)
        : Q_(Q), opt_(opt), ctx_(ctx), nu_(nu), l_(static_cast<Index>(pb.p.size())) {
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
    bool select_pair_nu(Index& out_i, Index& out_j);
    void shrink();
    void shrink_nu();
    bool shrinkable(Index t, double gmax1, double gmax2) const;
    bool shrinkable_nu(Index t, double gmax1, double gmax2, double gmax3, double gmax4) const;
    void update_pair(Index i, Index j);
    double compute_rho() const;
    void compute_rho_nu(double& rho, double& r) const;

    QMatrix& Q_;
    SmoOptions opt_;
    const Context& ctx_;
    bool nu_;
    Index l_;
    Index active_size_ = 0;
    bool unshrunk_ = false;
    const double* QD_ = nullptr;
    std::vector<double> p_, C_, alpha_, G_;  // Ḡ is kept by Q (add_to_bound_sum)
    std::vector<std::int8_t> y_, status_;
    std::vector<Index> active_;  // original index of each position
    // Per-chunk results of the selection passes (kept to avoid reallocating).
    std::vector<Pick> picks_;
    std::vector<PickJ> picks_j_;
    std::vector<PickNu> picks_nu_;
    std::vector<PickJNu> picks_j_nu_;
};

void SmoEngine::initialize_gradient() {
    G_.assign(p_.begin(), p_.end());
    for (Index i = 0; i < l_; ++i) {
        if (lower(i)) continue;
        const float* Qi = Q_.column(i, l_);
        const double a = alpha_[static_cast<std::size_t>(i)];
        for (Index j = 0; j < l_; ++j) G_[static_cast<std::size_t>(j)] += a * Qi[j];
        if (upper(i)) Q_.add_to_bound_sum(i, C_[static_cast<std::size_t>(i)]);
    }
}

void SmoEngine::swap_index(Index i, Index j) {
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
void SmoEngine::reconstruct_gradient() {
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

// Second-order selection (WSS3): i maximizes -y_t G_t over I_up; j minimizes the
// second-order decrease -(b_it²)/a_it over the violating t in I_low.
bool SmoEngine::select_pair(Index& out_i, Index& out_j) {
    const double* G = G_.data();
    const std::int8_t* y = y_.data();
    const int threads = Q_.threads();
    const Pick pi = scan_chunks(
        active_size_, threads, picks_,
        [&](Index lo, Index hi) {
            Pick r;
            for (Index t = lo; t < hi; ++t) {
                if (y[t] == +1) {
                    if (!upper(t)) r.offer(-G[t], t);
                } else if (!lower(t)) {
                    r.offer(G[t], t);
                }
            }
            return r;
        },
        [](Pick& acc, const Pick& next) { acc.join(next); });
    const double gmax = pi.value;
    const Index imax = pi.at;
    const float* Qi = imax >= 0 ? Q_.column(imax, active_size_) : nullptr;
    const double qd_i = imax >= 0 ? QD_[imax] : 0.0;
    const double yi = imax >= 0 ? y[imax] : 0.0;
    const PickJ pj = scan_chunks(
        active_size_, threads, picks_j_,
        [&](Index lo, Index hi) {
            PickJ r;
            for (Index t = lo; t < hi; ++t) {
                if (y[t] == +1) {
                    if (lower(t)) continue;
                    if (G[t] >= r.gmax2) r.gmax2 = G[t];
                    r.j.offer(
                        gmax + G[t], [&] { return qd_i + QD_[t] - 2.0 * yi * Qi[t]; }, t);
                } else {
                    if (upper(t)) continue;
                    if (-G[t] >= r.gmax2) r.gmax2 = -G[t];
                    r.j.offer(
                        gmax - G[t], [&] { return qd_i + QD_[t] + 2.0 * yi * Qi[t]; }, t);
                }
            }
            return r;
        },
        [](PickJ& acc, const PickJ& next) {
            acc.gmax2 = std::max(acc.gmax2, next.gmax2);
            acc.j.join(next.j);
        });
    if (gmax + pj.gmax2 < opt_.eps || pj.j.at == -1) return false;
    out_i = imax;
    out_j = pj.j.at;
    return true;
}

// The nu variant picks i and j with the same label: the candidates for i are the
// best of each sign, and j decides which one is used.
bool SmoEngine::select_pair_nu(Index& out_i, Index& out_j) {
    const double* G = G_.data();
    const std::int8_t* y = y_.data();
    const int threads = Q_.threads();
    const PickNu pi = scan_chunks(
        active_size_, threads, picks_nu_,
        [&](Index lo, Index hi) {
            PickNu r;
            for (Index t = lo; t < hi; ++t) {
                if (y[t] == +1) {
                    if (!upper(t)) r.p.offer(-G[t], t);
                } else if (!lower(t)) {
                    r.n.offer(G[t], t);
                }
            }
            return r;
        },
        [](PickNu& acc, const PickNu& next) {
            acc.p.join(next.p);
            acc.n.join(next.n);
        });
    const double gmaxp = pi.p.value, gmaxn = pi.n.value;
    const Index ip = pi.p.at, in = pi.n.at;
    const float* Qip = ip >= 0 ? Q_.column(ip, active_size_) : nullptr;
    const float* Qin = in >= 0 ? Q_.column(in, active_size_) : nullptr;
    const PickJNu pj = scan_chunks(
        active_size_, threads, picks_j_nu_,
        [&](Index lo, Index hi) {
            PickJNu r;
            for (Index t = lo; t < hi; ++t) {
                if (y[t] == +1) {
                    if (lower(t)) continue;
                    if (G[t] >= r.gmaxp2) r.gmaxp2 = G[t];
                    r.j.offer(
                        gmaxp + G[t], [&] { return QD_[ip] + QD_[t] - 2.0 * Qip[t]; }, t);
                } else {
                    if (upper(t)) continue;
                    if (-G[t] >= r.gmaxn2) r.gmaxn2 = -G[t];
                    r.j.offer(
                        gmaxn - G[t], [&] { return QD_[in] + QD_[t] - 2.0 * Qin[t]; }, t);
                }
            }
            return r;
        },
        [](PickJNu& acc, const PickJNu& next) {
            acc.gmaxp2 = std::max(acc.gmaxp2, next.gmaxp2);
            acc.gmaxn2 = std::max(acc.gmaxn2, next.gmaxn2);
            acc.j.join(next.j);
        });
    if (std::max(gmaxp + pj.gmaxp2, gmaxn + pj.gmaxn2) < opt_.eps || pj.j.at == -1) return false;
    out_i = y[pj.j.at] == +1 ? ip : in;
    out_j = pj.j.at;
    return true;
}

// A bound variable whose gradient says it would not move even against the most
// violating variable of the other side is set aside (moved past active_size).
bool SmoEngine::shrinkable(Index t, double gmax1, double gmax2) const {
    const double g = G_[static_cast<std::size_t>(t)];
    const bool pos = y_[static_cast<std::size_t>(t)] == +1;
    if (upper(t)) return pos ? -g > gmax1 : -g > gmax2;
    if (lower(t)) return pos ? g > gmax2 : g > gmax1;
    return false;
}

void SmoEngine::shrink() {
    double gmax1 = -kInf;  // max over I_up of -y G
    double gmax2 = -kInf;  // max over I_low of y G
    for (Index t = 0; t < active_size_; ++t) {
        const double g = G_[static_cast<std::size_t>(t)];
        if (y_[static_cast<std::size_t>(t)] == +1) {
            if (!upper(t)) gmax1 = std::max(gmax1, -g);
            if (!lower(t)) gmax2 = std::max(gmax2, g);
        } else {
            if (!upper(t)) gmax2 = std::max(gmax2, -g);
            if (!lower(t)) gmax1 = std::max(gmax1, g);
        }
    }
    // Close to the end: bring every variable back once, so a variable shrunk too
    // early cannot spoil the final solution.
    if (!unshrunk_ && gmax1 + gmax2 <= opt_.eps * 10) {
        unshrunk_ = true;
        reconstruct_gradient();
        active_size_ = l_;
    }
    for (Index t = 0; t < active_size_; ++t) {
        if (!shrinkable(t, gmax1, gmax2)) continue;
        --active_size_;
        while (active_size_ > t) {
            if (!shrinkable(active_size_, gmax1, gmax2)) {
                swap_index(t, active_size_);
                break;
            }
            --active_size_;
        }
    }
}

bool SmoEngine::shrinkable_nu(Index t, double gmax1, double gmax2, double gmax3, double gmax4) const {
    const double g = G_[static_cast<std::size_t>(t)];
    const bool pos = y_[static_cast<std::size_t>(t)] == +1;
    if (upper(t)) return pos ? -g > gmax1 : -g > gmax4;
    if (lower(t)) return pos ? g > gmax2 : g > gmax3;
    return false;
}

void SmoEngine::shrink_nu() {
    // gmax1/gmax2: I_up/I_low values of the +1 variables; gmax3/gmax4: of the -1 ones.
    double gmax1 = -kInf, gmax2 = -kInf, gmax3 = -kInf, gmax4 = -kInf;
    for (Index t = 0; t < active_size_; ++t) {
        const double g = G_[static_cast<std::size_t>(t)];
        if (y_[static_cast<std::size_t>(t)] == +1) {
            if (!upper(t)) gmax1 = std::max(gmax1, -g);
            if (!lower(t)) gmax2 = std::max(gmax2, g);
        } else {
            if (!lower(t)) gmax3 = std::max(gmax3, g);
            if (!upper(t)) gmax4 = std::max(gmax4, -g);
        }
    }
    if (!unshrunk_ && std::max(gmax1 + gmax2, gmax3 + gmax4) <= opt_.eps * 10) {
        unshrunk_ = true;
        reconstruct_gradient();
        active_size_ = l_;
    }
    for (Index t = 0; t < active_size_; ++t) {
        if (!shrinkable_nu(t, gmax1, gmax2, gmax3, gmax4)) continue;
        --active_size_;
        while (active_size_ > t) {
            if (!shrinkable_nu(active_size_, gmax1, gmax2, gmax3, gmax4)) {
                swap_index(t, active_size_);
                break;
            }
            --active_size_;
        }
    }
}

// Minimizes the objective over (α_i, α_j) along the equality constraint, then clips
// the step to the box; G and Ḡ follow the change.
void SmoEngine::update_pair(Index i, Index j) {
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
    double* G = G_.data();
    const int threads = Q_.threads();
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && active_size_ >= kParallelScan)
    for (Index k = 0; k < active_size_; ++k) G[k] += Qi[k] * dai + Qj[k] * daj;

    const bool was_upper_i = upper(i), was_upper_j = upper(j);
    update_status(i);
    update_status(j);
    if (was_upper_i != upper(i)) Q_.add_to_bound_sum(i, was_upper_i ? -Ci : Ci);
    if (was_upper_j != upper(j)) Q_.add_to_bound_sum(j, was_upper_j ? -Cj : Cj);
}

// rho: the average of y_i G_i over the free variables; without any, the middle of
// the interval the KKT conditions leave.
double SmoEngine::compute_rho() const {
    double ub = kInf, lb = -kInf, sum_free = 0;
    Index nr_free = 0;
    for (Index i = 0; i < active_size_; ++i) {
        const double yg = y_[static_cast<std::size_t>(i)] * G_[static_cast<std::size_t>(i)];
        const bool pos = y_[static_cast<std::size_t>(i)] == +1;
        if (upper(i)) {
            if (pos)
                lb = std::max(lb, yg);
            else
                ub = std::min(ub, yg);
        } else if (lower(i)) {
            if (pos)
                ub = std::min(ub, yg);
            else
                lb = std::max(lb, yg);
        } else {
            ++nr_free;
            sum_free += yg;
        }
    }
    return nr_free > 0 ? sum_free / static_cast<double>(nr_free) : (ub + lb) / 2;
}

void SmoEngine::compute_rho_nu(double& rho, double& r) const {
    double ub[2] = {kInf, kInf}, lb[2] = {-kInf, -kInf}, sum[2] = {0, 0};
    Index nfree[2] = {0, 0};
    for (Index i = 0; i < active_size_; ++i) {
        const int s = y_[static_cast<std::size_t>(i)] == +1 ? 0 : 1;
        const double g = G_[static_cast<std::size_t>(i)];
        if (upper(i))
            lb[s] = std::max(lb[s], g);
        else if (lower(i))
            ub[s] = std::min(ub[s], g);
        else {
            ++nfree[s];
            sum[s] += g;
        }
    }
    const double r1 = nfree[0] > 0 ? sum[0] / static_cast<double>(nfree[0]) : (ub[0] + lb[0]) / 2;
    const double r2 = nfree[1] > 0 ? sum[1] / static_cast<double>(nfree[1]) : (ub[1] + lb[1]) / 2;
    r = (r1 + r2) / 2;
    rho = (r1 - r2) / 2;
}

SmoResult SmoEngine::run() {
    active_size_ = l_;
    initialize_gradient();
    long long max_iter = opt_.max_iter;
    if (max_iter <= 0) max_iter = std::max<long long>(10000000, 100 * static_cast<long long>(l_));
    long long iter = 0;
    Index counter = std::min<Index>(l_, 1000) + 1;
    bool hit_limit = true;
    while (iter < max_iter) {
        if (--counter == 0) {
            counter = std::min<Index>(l_, 1000);
            if (opt_.shrinking) nu_ ? shrink_nu() : shrink();
        }
        Index i = -1, j = -1;
        const auto select = [&] { return nu_ ? select_pair_nu(i, j) : select_pair(i, j); };
        if (!select()) {
            // Optimal on the active set: check again on the whole problem.
            reconstruct_gradient();
            active_size_ = l_;
            if (!select()) {
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
    if (nu_)
        compute_rho_nu(res.rho, res.r);
    else
        res.rho = compute_rho();
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
    return SmoEngine(Q, problem, options, ctx, false).run();
}

SmoResult solve_smo_nu(QMatrix& Q, const SmoProblem& problem, const SmoOptions& options, const Context& ctx) {
    return SmoEngine(Q, problem, options, ctx, true).run();
}

}  // namespace kestrel
