#include "kestrel/model_selection/partial_dependence.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

// The model's response on F: n x outputs.
Matrix response(const Model& model, const Features& F, const std::string& kind) {
    if (kind == "proba") return model.predict_proba(F);
    if (kind == "decision") return model.decision_function(F);
    const Vector p = model.predict(F);
    return Matrix(p);
}

}  // namespace

double mquantile(const std::vector<double>& sorted, double prob) {
    // scipy.stats.mstats.mquantiles: m = alphap + p (1 - alphap - betap), aleph = n p + m,
    // k = floor(clip(aleph, 1, n - 1)), gamma = clip(aleph - k, 0, 1), and the quantile
    // (1 - gamma) x[k-1] + gamma x[k] (1-based x).
    const auto n = static_cast<double>(sorted.size());
    if (sorted.size() == 1) return sorted[0];
    const double alphap = 0.4, betap = 0.4;
    const double m = alphap + prob * (1 - alphap - betap);
    const double aleph = n * prob + m;
    const double k = std::floor(std::clamp(aleph, 1.0, n - 1));
    const double gamma = std::clamp(aleph - k, 0.0, 1.0);
    const auto ki = static_cast<std::size_t>(k);
    return (1 - gamma) * sorted[ki - 1] + gamma * sorted[ki];
}

std::vector<double> percentile_grid(std::vector<double> values, int resolution, double lo, double hi) {
    if (resolution < 2) throw UsageError(option_named("grid_resolution") + " must be at least 2");
    if (!(lo >= 0 && lo < hi && hi <= 1)) throw UsageError("the percentiles must satisfy 0 <= low < high <= 1");
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty()) throw DataError("the column has no finite value to make a grid from");
    std::sort(values.begin(), values.end());
    std::vector<double> unique = values;
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    if (unique.size() < static_cast<std::size_t>(resolution)) return unique;
    const double a = mquantile(values, lo), b = mquantile(values, hi);
    if (a == b)
        throw DataError("the column's " + format_number(lo * 100) + "th and " + format_number(hi * 100) +
                        "th percentiles are equal: no grid between them");
    // numpy.linspace: a + i (b - a) / (n - 1), the last point exactly b.
    std::vector<double> grid(static_cast<std::size_t>(resolution));
    const double step = (b - a) / (resolution - 1);
    for (int i = 0; i < resolution; ++i) grid[static_cast<std::size_t>(i)] = a + i * step;
    grid.back() = b;
    return grid;
}

std::vector<double> column_grid(const Model& model, const Features& X, Index column, int resolution) {
    if (column < 0 || column >= X.cols()) throw InternalError("column_grid: column out of range");
    const auto& cats = model.categories();
    if (static_cast<std::size_t>(column) < cats.size() && !cats[static_cast<std::size_t>(column)].empty()) {
        std::vector<double> codes(cats[static_cast<std::size_t>(column)].size());
        std::iota(codes.begin(), codes.end(), 0.0);
        return codes;
    }
    std::vector<double> values(static_cast<std::size_t>(X.rows()));
    if (X.is_sparse()) {
        // Absent entries are zeros.
        const SparseMatrix& S = X.sparse_ref();
        std::fill(values.begin(), values.end(), 0.0);
        for (Index k = 0; k < S.outerSize(); ++k)
            for (SparseMatrix::InnerIterator it(S, k); it; ++it)
                if (it.col() == column) values[static_cast<std::size_t>(it.row())] = it.value();
    } else {
        const DenseView rows = X.dense_ref();
        for (Index i = 0; i < X.rows(); ++i) values[static_cast<std::size_t>(i)] = rows(i, column);
    }
    return percentile_grid(std::move(values), resolution);
}

PartialDependence partial_dependence(const Model& model, const Features& X, Index column,
                                     const std::vector<double>& grid, Index ice_rows, std::uint64_t seed,
                                     int threads) {
    if (X.rows() == 0) throw DataError("partial dependence needs at least one row");
    if (grid.empty()) throw InternalError("partial_dependence: empty grid");
    PartialDependence out;
    out.column = column;
    out.grid = grid;
    const auto& cats = model.categories();
    const bool categorical =
        static_cast<std::size_t>(column) < cats.size() && !cats[static_cast<std::size_t>(column)].empty();
    for (double g : grid)
        out.labels.push_back(categorical ? cats[static_cast<std::size_t>(column)][static_cast<std::size_t>(g)]
                                         : format_number(g));
    if (model.task() == Task::classification && model.has_predict_proba()) {
        out.response = "proba";
        out.outputs = model.classes();
    } else if (model.task() == Task::classification) {
        if (!model.has_decision_function())
            throw UsageError("partial dependence: model " + model.model_name() +
                             " gives neither probabilities nor decision values");
        out.response = "decision";
        // One decision value for two classes: that of classes[1], as scikit-learn.
        out.outputs = model.classes().size() == 2 ? std::vector<std::string>{model.classes()[1]} : model.classes();
    } else {
        out.response = "prediction";
        out.outputs = {"prediction"};
    }

    const Index n = X.rows();
    std::vector<Index> rows(static_cast<std::size_t>(n));
    std::iota(rows.begin(), rows.end(), 0);
    if (n > ice_rows) {
        Rng rng(seed);
        rng.shuffle(rows);
        rows.resize(static_cast<std::size_t>(std::max<Index>(ice_rows, 0)));
        std::sort(rows.begin(), rows.end());
    }
    out.ice_rows = rows;

    const auto g = static_cast<Index>(grid.size());
    const auto k = static_cast<Index>(out.outputs.size());
    out.average = Matrix::Zero(g, k);
    out.ice.assign(static_cast<std::size_t>(k), Matrix::Zero(static_cast<Index>(rows.size()), g));
    DenseMatrix scratch;
    const DenseView base = X.dense(scratch);
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(g));
#pragma omp parallel for schedule(dynamic) num_threads(threads > 0 ? threads : omp_get_num_procs())
    for (Index p = 0; p < g; ++p) {
        try {
            DenseMatrix set(base);
            set.col(column).setConstant(grid[static_cast<std::size_t>(p)]);
            const Features F = X.is_sparse() ? Features(SparseMatrix(set.sparseView())) : Features(std::move(set));
            const Matrix r = response(model, F, out.response);
            if (r.cols() != k) throw InternalError("partial_dependence: the response has an unexpected width");
            // Each grid point owns its row of `average` and its column of each ICE matrix.
            out.average.row(p) = r.colwise().mean();
            for (Index o = 0; o < k; ++o)
                for (std::size_t i = 0; i < rows.size(); ++i)
                    out.ice[static_cast<std::size_t>(o)](static_cast<Index>(i), p) = r(rows[i], o);
        } catch (...) {
            errors[static_cast<std::size_t>(p)] = std::current_exception();
        }
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

}  // namespace kestrel
