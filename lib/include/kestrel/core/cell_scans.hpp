#pragma once
// A scan for NaN over every cell of dense rows, two cells a step (GCC's vector extension;
// SSE2 on x86-64): Eigen's hasNaN() took 7 instructions a cell, and a fit makes such a scan
// twice (missing cells, the scaler) before it starts. Rows stored one after another are
// scanned as one run of cells.
#include <algorithm>
#include <cstring>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

namespace cell_scan_detail {

using Pair = double __attribute__((vector_size(16)));
using PairMask = long long __attribute__((vector_size(16)));

inline Pair load_pair(const double* p) {
    Pair v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline bool has_nan(const double* p, Index n) {
    PairMask any = {0, 0};
    Index k = 0;
    for (; k + 2 <= n; k += 2) {
        const Pair v = load_pair(p + k);
        any |= v != v;
    }
    bool nan = (any[0] | any[1]) != 0;
    for (; k < n; ++k) nan |= p[k] != p[k];
    return nan;
}

// Calls f(first cell, count) over the cells of m: one run when its rows are contiguous
// (in pieces of 64 Ki cells, so that a found NaN stops the scan early), else a run a row.
template <class F>
bool any_run(const DenseView& m, F&& f) {
    if (m.outerStride() == m.cols() || m.rows() <= 1) {
        const Index cells = m.rows() * m.cols();
        for (Index k = 0; k < cells; k += Index{1} << 16)
            if (f(m.data() + k, std::min<Index>(Index{1} << 16, cells - k))) return true;
        return false;
    }
    for (Index i = 0; i < m.rows(); ++i)
        if (f(m.data() + i * m.outerStride(), m.cols())) return true;
    return false;
}

}  // namespace cell_scan_detail

// Whether any cell is NaN.
inline bool has_nan_cell(const DenseView& m) {
    return cell_scan_detail::any_run(m, [](const double* p, Index n) { return cell_scan_detail::has_nan(p, n); });
}

}  // namespace kestrel
