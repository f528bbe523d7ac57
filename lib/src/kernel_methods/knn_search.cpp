// Exact k-nearest-neighbour search: blocked brute force (dense, sparse, kernel) and the
// k-d tree, behind one query().
#include "kestrel/kernel_methods/knn_search.hpp"

#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "knn_candidates.hpp"
#include "knn_kdtree.hpp"
#include "knn_screen.hpp"

namespace kestrel {

using namespace knn_detail;

namespace {

// Block sizes are fixed, never derived from the thread count, so which values are
// computed together (and their rounding) does not depend on it.
constexpr Index kQueryBlock = 64;        // queries per task
constexpr Index kKernelQueryBlock = 16;  // queries per task with the kernel metric (a 16 x n block)
constexpr Index kL1TrainBlock = 256;     // training rows per pass of the L1 loop

int thread_count(int threads) {
    return threads > 0 ? threads : std::max(1, omp_get_max_threads());
}

// Screening values differ from the exact distance by rounding only; these bound twice
// that difference (a sum of d products carries at most γ_d = d·u/(1-d·u) relative error).
double l2_tolerance(double query_norm, double max_norm, Index d) {
    const double s = query_norm + max_norm;
    return 4.0 * static_cast<double>(d + 4) * DBL_EPSILON * s * s;
}
double cosine_tolerance(double query_norm, Index d) {
    return 8.0 * static_cast<double>(d + 4) * DBL_EPSILON * query_norm;
}
double l1_tolerance(double query_l1, double max_l1, Index d) {
    return 8.0 * static_cast<double>(d + 4) * DBL_EPSILON * (query_l1 + max_l1);
}

// The reported distance from the ranked value.
double reported(KnnMetric m, double v) {
    switch (m) {
        case KnnMetric::euclidean:
        case KnnMetric::kernel:
            return std::sqrt(std::max(v, 0.0));
        case KnnMetric::cosine:
            return std::clamp(v, 0.0, 2.0);
        case KnnMetric::manhattan:
            break;
    }
    return v;
}

Neighbors make_neighbors(Index n, Index k) {
    Neighbors out;
    out.k = k;
    out.index.assign(static_cast<std::size_t>(n * k), 0);
    out.distance.assign(static_cast<std::size_t>(n * k), 0.0);
    return out;
}

}  // namespace

KnnMetric knn_metric_from_string(const std::string& s) {
    if (s == "euclidean") return KnnMetric::euclidean;
    if (s == "manhattan") return KnnMetric::manhattan;
    if (s == "cosine") return KnnMetric::cosine;
    if (s == "kernel") return KnnMetric::kernel;
    throw ParamError("metric: unknown metric '" + s + "' (valid: euclidean, manhattan, cosine, kernel)");
}

const char* to_string(KnnMetric m) {
    switch (m) {
        case KnnMetric::euclidean:
            return "euclidean";
        case KnnMetric::manhattan:
            return "manhattan";
        case KnnMetric::cosine:
            return "cosine";
        case KnnMetric::kernel:
            return "kernel";
    }
    return "?";
}

KnnIndex::KnnIndex() = default;
KnnIndex::~KnnIndex() = default;
KnnIndex::KnnIndex(KnnIndex&&) noexcept = default;
KnnIndex& KnnIndex::operator=(KnnIndex&&) noexcept = default;

KnnIndex::KnnIndex(Features train, KnnMetric metric, std::optional<KernelSpec> kernel, bool kd_tree, Index leaf_size)
    : train_(std::make_unique<Features>(std::move(train))), metric_(metric) {
    train_->own();  // the index keeps its rows: its own copy, never a caller's
    const Features& X = *train_;
    const Index n = X.rows(), d = X.cols();
    if (train_->is_sparse()) train_->sparse_mut().makeCompressed();
    if (metric_ == KnnMetric::kernel) {
        if (!kernel || !kernel->resolved()) throw InternalError("knn: the kernel metric needs a resolved kernel");
        kernel_ = Kernel(*kernel);
        kernel_rows_ = KernelRows(X);
        norm_.resize(static_cast<std::size_t>(n));
        for (Index j = 0; j < n; ++j) norm_[static_cast<std::size_t>(j)] = kernel_(kernel_rows_, j, kernel_rows_, j);
        return;
    }
    // Row norms in feature order (the exact distances use them).
    norm_.resize(static_cast<std::size_t>(n));
    for (Index j = 0; j < n; ++j) {
        double sq = 0, l1 = 0;
        if (X.is_sparse()) {
            const SparseRow r = sparse_row(X.sparse_ref(), j);
            for (Index t = 0; t < r.nnz; ++t) {
                sq += r.val[t] * r.val[t];
                l1 += std::abs(r.val[t]);
            }
        } else {
            const double* z = X.dense_ref().data() + j * d;
            sq = exact_dot(z, z, d);
            for (Index t = 0; t < d; ++t) l1 += std::abs(z[t]);
        }
        const double v = metric_ == KnnMetric::euclidean ? sq : metric_ == KnnMetric::cosine ? std::sqrt(sq) : l1;
        norm_[static_cast<std::size_t>(j)] = v;
        norm_max_ = std::max(norm_max_, metric_ == KnnMetric::euclidean ? std::sqrt(sq) : v);
    }
    if (!kd_tree && !X.is_sparse() && (metric_ == KnnMetric::euclidean || metric_ == KnnMetric::cosine))
        packed_ = std::make_unique<PackedRows>(pack_rows(X.dense_ref(), norm_, metric_ == KnnMetric::cosine));
    if (kd_tree) {
        if (X.is_sparse() || (metric_ != KnnMetric::euclidean && metric_ != KnnMetric::manhattan))
            throw InternalError("knn: the k-d tree needs dense rows and the euclidean or manhattan metric");
        tree_ = std::make_unique<KdTree>(X.dense_ref(), metric_ == KnnMetric::manhattan, leaf_size);
    }
}

Neighbors KnnIndex::query(const Features& Q, Index k, int threads) const {
    if (!train_ || k < 1 || k > train_->rows()) throw InternalError("knn: k out of range in query");
    const int nt = thread_count(threads);
    if (metric_ == KnnMetric::kernel) return brute_kernel(Q, k, nt);
    if (train_->is_sparse()) {
        if (Q.is_sparse()) return brute_sparse(Q.sparse_ref(), k, nt);
        return brute_sparse(SparseMatrix(Q.dense_ref().sparseView()), k, nt);
    }
    DenseMatrix scratch;
    const DenseView Qd = Q.dense(scratch);
    if (!tree_) return brute_dense(Qd, k, nt);
    const Index nq = Qd.rows();
    Neighbors out = make_neighbors(nq, k);
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt) if (nt > 1)
    for (Index i = 0; i < nq; ++i) {
        Index* idx = out.index.data() + i * k;
        double* dist = out.distance.data() + i * k;
        tree_->query(Qd.data() + i * Qd.cols(), k, idx, dist);
        for (Index t = 0; t < k; ++t) dist[t] = reported(metric_, dist[t]);
    }
    return out;
}

Neighbors KnnIndex::brute_dense(const DenseView& Q, Index k, int threads) const {
    const DenseView T = train_->dense_ref();
    const Index nq = Q.rows(), n = T.rows(), d = T.cols();
    const Index blocks = (nq + kQueryBlock - 1) / kQueryBlock;
    Neighbors out = make_neighbors(nq, k);
#pragma omp parallel num_threads(threads) if (threads > 1 && blocks > 1)
    {
        std::vector<CandidateList> lists(static_cast<std::size_t>(kQueryBlock));
        std::vector<double> qnorm(static_cast<std::size_t>(kQueryBlock));
        DotScreen screen;
        const PackedRows no_panels;
        const PackedRows& panels = packed_ ? *packed_ : no_panels;
#pragma omp for schedule(dynamic)
        for (Index b = 0; b < blocks; ++b) {
            const Index q0 = b * kQueryBlock, bq = std::min(kQueryBlock, nq - q0);
            for (Index r = 0; r < bq; ++r) {
                const double* q = Q.data() + (q0 + r) * d;
                double tol = 0;
                if (metric_ == KnnMetric::euclidean) {
                    qnorm[static_cast<std::size_t>(r)] = std::sqrt(exact_dot(q, q, d));
                    tol = l2_tolerance(qnorm[static_cast<std::size_t>(r)], norm_max_, d);
                } else if (metric_ == KnnMetric::cosine) {
                    qnorm[static_cast<std::size_t>(r)] = std::sqrt(exact_dot(q, q, d));
                    tol = cosine_tolerance(qnorm[static_cast<std::size_t>(r)], d);
                }
                lists[static_cast<std::size_t>(r)].reset(k, tol);
            }
            if (metric_ == KnnMetric::manhattan) {
                // No product form: the exact L1 distance directly, a block of training
                // rows at a time so that they stay in cache across the queries.
                for (Index t0 = 0; t0 < n; t0 += kL1TrainBlock) {
                    const Index t1 = std::min(n, t0 + kL1TrainBlock);
                    for (Index r = 0; r < bq; ++r) {
                        const double* q = Q.data() + (q0 + r) * d;
                        CandidateList& c = lists[static_cast<std::size_t>(r)];
                        for (Index j = t0; j < t1; ++j) {
                            const double v = exact_l1(q, T.data() + j * d, d);
                            if (v <= c.threshold()) c.push(v, j);
                        }
                    }
                }
            } else {
                const bool cosine = metric_ == KnnMetric::cosine;
                screen.run(Q, q0, bq, T, norm_, cosine, panels, lists);
            }
            for (Index r = 0; r < bq; ++r) {
                const double* q = Q.data() + (q0 + r) * d;
                Index* idx = out.index.data() + (q0 + r) * k;
                double* dist = out.distance.data() + (q0 + r) * k;
                CandidateList& c = lists[static_cast<std::size_t>(r)];
                const double nq_r = qnorm[static_cast<std::size_t>(r)];
                switch (metric_) {
                    case KnnMetric::euclidean:
                        finish(
                            c, k, true, [&](Index j) { return exact_sq_l2(q, T.data() + j * d, d); }, idx, dist);
                        break;
                    case KnnMetric::cosine:
                        finish(
                            c, k, true,
                            [&](Index j) {
                                return cosine_from(exact_dot(q, T.data() + j * d, d), nq_r,
                                                   norm_[static_cast<std::size_t>(j)]);
                            },
                            idx, dist);
                        break;
                    default:
                        finish(
                            c, k, false, [](Index) { return 0.0; }, idx, dist);
                }
                for (Index t = 0; t < k; ++t) dist[t] = reported(metric_, dist[t]);
            }
        }
    }
    return out;
}

Neighbors KnnIndex::brute_sparse(const SparseMatrix& Qs, Index k, int threads) const {
    const SparseMatrix& T = train_->sparse_ref();
    SparseMatrix Q = Qs;
    Q.makeCompressed();
    const Index nq = Q.rows(), n = T.rows(), d = T.cols();
    Neighbors out = make_neighbors(nq, k);
#pragma omp parallel num_threads(threads) if (threads > 1 && nq > 1)
    {
        std::vector<double> w(static_cast<std::size_t>(d), 0.0);
        CandidateList c;
#pragma omp for schedule(dynamic, 8)
        for (Index i = 0; i < nq; ++i) {
            const SparseRow q = sparse_row(Q, i);
            double sq = 0, l1 = 0;
            for (Index t = 0; t < q.nnz; ++t) {
                w[static_cast<std::size_t>(q.idx[t])] = q.val[t];
                sq += q.val[t] * q.val[t];
                l1 += std::abs(q.val[t]);
            }
            const double qn = std::sqrt(sq);
            switch (metric_) {
                case KnnMetric::euclidean:
                    c.reset(k, l2_tolerance(qn, norm_max_, d));
                    break;
                case KnnMetric::cosine:
                    c.reset(k, cosine_tolerance(qn, d));
                    break;
                default:
                    c.reset(k, l1_tolerance(l1, norm_max_, d));
            }
            // Screening values: only the training row's non-zeros are visited.
            for (Index j = 0; j < n; ++j) {
                const SparseRow z = sparse_row(T, j);
                double v = 0;
                if (metric_ == KnnMetric::manhattan) {
                    for (Index t = 0; t < z.nnz; ++t) {
                        const double x = w[static_cast<std::size_t>(z.idx[t])];
                        v += std::abs(x - z.val[t]) - std::abs(x);
                    }
                } else {
                    double dot = 0;
                    for (Index t = 0; t < z.nnz; ++t) dot += w[static_cast<std::size_t>(z.idx[t])] * z.val[t];
                    const double nz = norm_[static_cast<std::size_t>(j)];
                    v = metric_ == KnnMetric::euclidean ? nz - 2 * dot : (nz == 0 ? 0.0 : -dot / nz);
                }
                if (v <= c.threshold()) c.push(v, j);
            }
            for (Index t = 0; t < q.nnz; ++t) w[static_cast<std::size_t>(q.idx[t])] = 0.0;
            Index* idx = out.index.data() + i * k;
            double* dist = out.distance.data() + i * k;
            const auto exact = [&](Index j) {
                const SparseRow z = sparse_row(T, j);
                switch (metric_) {
                    case KnnMetric::euclidean:
                        return merge_sum(q, z, sq_diff);
                    case KnnMetric::manhattan:
                        return merge_sum(q, z, abs_diff);
                    default:
                        return cosine_from(merge_sum(q, z, product), qn, norm_[static_cast<std::size_t>(j)]);
                }
            };
            finish(c, k, true, exact, idx, dist);
            for (Index t = 0; t < k; ++t) dist[t] = reported(metric_, dist[t]);
        }
    }
    return out;
}

Neighbors KnnIndex::brute_kernel(const Features& Q, Index k, int threads) const {
    const Index nq = Q.rows(), n = train_->rows();
    const Index blocks = (nq + kKernelQueryBlock - 1) / kKernelQueryBlock;
    Neighbors out = make_neighbors(nq, k);
#pragma omp parallel num_threads(threads) if (threads > 1 && blocks > 1)
    {
        CandidateList c;
        std::vector<Index> rows;
#pragma omp for schedule(dynamic)
        for (Index b = 0; b < blocks; ++b) {
            const Index q0 = b * kKernelQueryBlock, bq = std::min(kKernelQueryBlock, nq - q0);
            rows.resize(static_cast<std::size_t>(bq));
            for (Index r = 0; r < bq; ++r) rows[static_cast<std::size_t>(r)] = q0 + r;
            const KernelRows qr(Q, rows);
            const DenseMatrix K = kernel_.block(qr, kernel_rows_, 1);
            for (Index r = 0; r < bq; ++r) {
                // The distance the kernel induces: ||φ(x) - φ(z)||² = k(x,x) - 2k(x,z) + k(z,z),
                // clipped at 0 (rounding, or a kernel that is not positive semi-definite).
                const double kxx = kernel_(qr, r, qr, r);
                c.reset(k, 0.0);
                for (Index j = 0; j < n; ++j) {
                    const double v = std::max(0.0, kxx - 2 * K(r, j) + norm_[static_cast<std::size_t>(j)]);
                    if (v <= c.threshold()) c.push(v, j);
                }
                Index* idx = out.index.data() + (q0 + r) * k;
                double* dist = out.distance.data() + (q0 + r) * k;
                finish(
                    c, k, false, [](Index) { return 0.0; }, idx, dist);
                for (Index t = 0; t < k; ++t) dist[t] = reported(metric_, dist[t]);
            }
        }
    }
    return out;
}

}  // namespace kestrel
