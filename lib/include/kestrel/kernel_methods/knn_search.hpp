#pragma once
// Exact k-nearest-neighbour search (docs/models/knn.md). Every distance that decides
// the neighbours is the "exact" one of the metric, evaluated coordinate by coordinate
// in feature order, so brute force and the k-d tree, dense and sparse rows, and any
// thread count give the same neighbours bit for bit; ties go to the lower training row.
//
// Brute force on dense data screens with squared norms + one matrix product per block
// (the cheap, slightly rounded form), keeps every row within a proven rounding bound of
// the k-th, and re-ranks those few by the exact distance. Low-dimensional dense data
// can use a k-d tree (nanoflann) searching the exact distance directly.
#include <memory>
#include <optional>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

namespace knn_detail {
class KdTree;
struct PackedRows;
}  // namespace knn_detail

enum class KnnMetric { euclidean, manhattan, cosine, kernel };
KnnMetric knn_metric_from_string(const std::string& s);  // ParamError
const char* to_string(KnnMetric m);

// Query i's neighbours are index[i*k .. i*k+k), nearest first; distance alike.
struct Neighbors {
    Index k = 0;
    std::vector<Index> index;
    std::vector<double> distance;
    Index rows() const { return k == 0 ? 0 : static_cast<Index>(index.size()) / k; }
};

class KnnIndex {
public:
    KnnIndex();
    ~KnnIndex();
    KnnIndex(KnnIndex&&) noexcept;
    KnnIndex& operator=(KnnIndex&&) noexcept;

    // `kernel` (resolved) is read for KnnMetric::kernel only. `kd_tree` asks for the
    // tree: only for euclidean/manhattan on dense rows (InternalError otherwise).
    KnnIndex(Features train, KnnMetric metric, std::optional<KernelSpec> kernel, bool kd_tree, Index leaf_size);

    // The k nearest training rows of each row of Q, with OpenMP over fixed blocks of
    // queries (`threads` <= 0: omp_get_max_threads()).
    Neighbors query(const Features& Q, Index k, int threads = 0) const;

    const Features& train() const { return *train_; }
    KnnMetric metric() const { return metric_; }
    bool uses_kd_tree() const { return tree_ != nullptr; }

private:
    Neighbors brute_dense(const DenseView& Q, Index k, int threads) const;
    Neighbors brute_sparse(const SparseMatrix& Q, Index k, int threads) const;
    Neighbors brute_kernel(const Features& Q, Index k, int threads) const;

    // Behind a pointer: the k-d tree holds the rows' address, which must survive moves.
    std::unique_ptr<Features> train_;
    KnnMetric metric_ = KnnMetric::euclidean;
    // Per training row: squared norm (euclidean), norm (cosine), L1 norm (manhattan
    // on sparse rows), k(z, z) (kernel).
    std::vector<double> norm_;
    double norm_max_ = 0;
    Kernel kernel_;
    KernelRows kernel_rows_;
    std::unique_ptr<knn_detail::KdTree> tree_;
    std::unique_ptr<knn_detail::PackedRows> packed_;  // dense rows in SIMD panels (brute euclidean/cosine)
};

}  // namespace kestrel
