#include "kestrel/preprocess/resample.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

const char* const kUsage = " (valid: under, over, over:JITTER, smote, smote:K)";

double resample_number(const std::string& text, const std::string& whole) {
    const std::optional<double> v = parse_number_text(text);
    if (!v) throw UsageError(option_named("resample") + " " + whole + ": '" + text + "' is not a number" + kUsage);
    return *v;
}

// Row indices of each class, in file order.
std::vector<std::vector<Index>> rows_by_class(const Dataset& data) {
    std::vector<std::vector<Index>> out(static_cast<std::size_t>(data.n_classes()));
    for (Index i = 0; i < data.rows(); ++i) out[static_cast<std::size_t>(data.y[i])].push_back(i);
    return out;
}

// The rows `sources` (labels and weights from there), the last extra.rows() of them
// with the features of `extra` (the synthetic samples).
Dataset assemble(const Dataset& data, const std::vector<Index>& sources, const DenseMatrix& extra) {
    Dataset out = data.subset(sources);
    DenseMatrix scratch;
    DenseMatrix X(out.X.dense(scratch));
    X.bottomRows(extra.rows()) = extra;
    if (data.X.is_sparse())
        out.X = Features(SparseMatrix(X.sparseView()));
    else
        out.X = Features(std::move(X));
    return out;
}

Vector feature_sd(const DenseView& X) {
    const Vector mean = X.colwise().mean().transpose();
    return ((X.rowwise() - mean.transpose()).array().square().colwise().sum() / static_cast<double>(X.rows()))
        .sqrt()
        .transpose();
}

// The k nearest rows (Euclidean) of each row of `members`, among `members`, self excluded.
std::vector<std::vector<Index>> neighbours(const DenseView& X, const std::vector<Index>& members, int k) {
    const std::size_t n = members.size();
    std::vector<std::vector<Index>> out(n);
    std::vector<std::pair<double, Index>> dist;
    for (std::size_t a = 0; a < n; ++a) {
        dist.clear();
        for (std::size_t b = 0; b < n; ++b)
            if (b != a) dist.emplace_back((X.row(members[a]) - X.row(members[b])).squaredNorm(), members[b]);
        // Ties by row order, so the neighbour lists do not depend on the sort.
        std::partial_sort(dist.begin(), dist.begin() + k, dist.end());
        for (int j = 0; j < k; ++j) out[a].push_back(dist[static_cast<std::size_t>(j)].second);
    }
    return out;
}

}  // namespace

ResampleSpec parse_resample(const std::string& text) {
    ResampleSpec s;
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    const bool has_arg = colon != std::string::npos;
    const std::string arg = has_arg ? text.substr(colon + 1) : std::string();
    if (kind == "under") {
        if (has_arg) throw UsageError(option_named("resample") + " under takes no argument" + kUsage);
        s.kind = ResampleSpec::Kind::under;
    } else if (kind == "over") {
        s.kind = ResampleSpec::Kind::over;
        if (has_arg) s.jitter = resample_number(arg, text);
        if (s.jitter < 0) throw UsageError(option_named("resample") + " " + text + ": the jitter must be >= 0");
    } else if (kind == "smote") {
        s.kind = ResampleSpec::Kind::smote;
        if (has_arg) {
            const double k = resample_number(arg, text);
            if (k < 1 || k != std::floor(k) || k > 1e6)
                throw UsageError(option_named("resample") + " " + text +
                                 ": the neighbour count must be an integer >= 1");
            s.neighbours = static_cast<int>(k);
        }
    } else {
        throw UsageError(option_named("resample") + ": unknown method '" + text + "'" + kUsage);
    }
    return s;
}

void check_resample_applies(const Dataset& data, const std::string& spec) {
    const ErrorText option = option_named("resample") + (spec.empty() ? std::string() : " " + spec);
    if (data.task != Task::classification)
        throw UsageError(option + " rebalances classes; it does not apply to regression");
    if (data.has_queries())
        throw UsageError(option + " draws single rows, which would break the data's query groups (qid:N, " +
                         option_named("group_col") + ") apart; it does not apply to rows in queries");
}

Dataset resample(const Dataset& data, const ResampleSpec& spec, std::uint64_t seed) {
    if (spec.kind == ResampleSpec::Kind::none) return data;
    check_resample_applies(data, "");
    Rng rng(seed);
    const auto by_class = rows_by_class(data);
    Index smallest = data.rows(), largest = 0;
    for (const auto& rows : by_class)
        if (!rows.empty()) {
            smallest = std::min<Index>(smallest, static_cast<Index>(rows.size()));
            largest = std::max<Index>(largest, static_cast<Index>(rows.size()));
        }

    if (spec.kind == ResampleSpec::Kind::under) {
        std::vector<Index> kept;
        for (auto rows : by_class) {
            rng.shuffle(rows);
            kept.insert(kept.end(), rows.begin(),
                        rows.begin() + std::min<Index>(smallest, static_cast<Index>(rows.size())));
        }
        std::sort(kept.begin(), kept.end());
        return data.subset(kept);
    }

    std::vector<Index> sources(static_cast<std::size_t>(data.rows()));
    std::iota(sources.begin(), sources.end(), 0);
    const bool synthetic = spec.kind == ResampleSpec::Kind::smote || spec.jitter > 0;
    DenseMatrix scratch;
    const DenseView X = synthetic ? data.X.dense(scratch) : DenseView(scratch);
    std::vector<std::vector<double>> added;  // feature rows of the added samples
    const Vector sd = synthetic && spec.kind == ResampleSpec::Kind::over ? feature_sd(X) : Vector();

    for (const auto& rows : by_class) {
        const auto count = static_cast<Index>(rows.size());
        if (count == 0 || count == largest) continue;
        const Index need = largest - count;
        const bool copies = spec.kind == ResampleSpec::Kind::over || count == 1;
        std::vector<std::vector<Index>> nn;
        int k = 0;
        if (!copies) {
            k = static_cast<int>(std::min<Index>(spec.neighbours, count - 1));
            nn = neighbours(X, rows, k);
        }
        for (Index s = 0; s < need; ++s) {
            const auto a = static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(count)));
            const Index x = rows[a];
            sources.push_back(x);
            if (!synthetic) continue;
            std::vector<double> row(X.row(x).data(), X.row(x).data() + X.cols());
            if (copies) {
                if (spec.jitter > 0)
                    for (Index f = 0; f < X.cols(); ++f)
                        row[static_cast<std::size_t>(f)] += spec.jitter * sd[f] * rng.normal();
            } else {
                const Index z = nn[a][static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(k)))];
                const double u = rng.uniform();
                for (Index f = 0; f < X.cols(); ++f) row[static_cast<std::size_t>(f)] += u * (X(z, f) - X(x, f));
            }
            added.push_back(std::move(row));
        }
    }
    if (!synthetic) return data.subset(sources);
    DenseMatrix extra(static_cast<Index>(added.size()), X.cols());
    for (std::size_t r = 0; r < added.size(); ++r)
        for (Index f = 0; f < X.cols(); ++f) extra(static_cast<Index>(r), f) = added[r][static_cast<std::size_t>(f)];
    return assemble(data, sources, extra);
}

}  // namespace kestrel
