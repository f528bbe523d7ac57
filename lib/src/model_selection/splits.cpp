#include "kestrel/model_selection/splits.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {

namespace {

void check_k(Index n, int k) {
    if (k < 2) throw UsageError("-k " + std::to_string(k) + ": cross-validation needs at least 2 folds");
    if (k > n)
        throw UsageError("-k " + std::to_string(k) + ": more folds than rows (" + std::to_string(n) +
                         "); use -k " + std::to_string(n) + " or fewer");
}

// Builds the folds from each row's fold number: tests and trains come out sorted
// because rows are visited in order.
std::vector<Fold> folds_from_assignment(const std::vector<int>& fold_of_row, int k) {
    std::vector<Fold> folds(static_cast<std::size_t>(k));
    for (int f = 0; f < k; ++f) folds[static_cast<std::size_t>(f)].index = f;
    for (std::size_t row = 0; row < fold_of_row.size(); ++row) {
        for (int f = 0; f < k; ++f) {
            auto& dst = (f == fold_of_row[row]) ? folds[static_cast<std::size_t>(f)].test
                                                : folds[static_cast<std::size_t>(f)].train;
            dst.push_back(static_cast<Index>(row));
        }
    }
    return folds;
}

}  // namespace

std::vector<Fold> kfold(Index n, int k, std::uint64_t seed) {
    check_k(n, k);
    std::vector<Index> order(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    Rng rng(seed);
    rng.shuffle(order);

    // As sklearn's KFold: the first n % k folds take one extra row.
    std::vector<int> fold_of_row(static_cast<std::size_t>(n));
    const Index base = n / k, extra = n % k;
    std::size_t pos = 0;
    for (int f = 0; f < k; ++f) {
        const Index size = base + (f < extra ? 1 : 0);
        for (Index j = 0; j < size; ++j) fold_of_row[static_cast<std::size_t>(order[pos++])] = f;
    }
    return folds_from_assignment(fold_of_row, k);
}

std::vector<Fold> stratified_kfold(const Vector& class_index, Index n_classes, int k, std::uint64_t seed) {
    const Index n = class_index.size();
    check_k(n, k);

    std::vector<std::vector<Index>> rows_of_class(static_cast<std::size_t>(std::max<Index>(n_classes, 0)));
    for (Index i = 0; i < n; ++i) {
        const double c = class_index[i];
        if (!(c >= 0) || c >= static_cast<double>(n_classes) || c != std::floor(c))
            throw InternalError("stratified_kfold: row " + std::to_string(i) + " has class index " +
                                std::to_string(c) + " outside 0.." + std::to_string(n_classes - 1));
        rows_of_class[static_cast<std::size_t>(c)].push_back(i);
    }

    // Deal the rows, sorted by class, round-robin over the folds (as sklearn's
    // allocation = bincount(y_sorted[i::k])): each class then gives every fold the
    // floor or ceil of its share, and fold sizes differ by at most one overall.
    // Which rows of a class land in which of its slots is the shuffled part.
    Rng rng(seed);
    std::vector<int> fold_of_row(static_cast<std::size_t>(n));
    std::size_t dealt = 0;
    for (auto& rows : rows_of_class) {
        rng.shuffle(rows);
        for (Index row : rows) fold_of_row[static_cast<std::size_t>(row)] = static_cast<int>(dealt++ % k);
    }
    return folds_from_assignment(fold_of_row, k);
}

std::vector<Fold> repeated_kfold(const Vector& y, Index n_classes, int k, int repeats, std::uint64_t seed) {
    if (repeats < 1) throw UsageError("--repeat " + std::to_string(repeats) + ": must be at least 1");
    std::vector<Fold> all;
    all.reserve(static_cast<std::size_t>(k) * static_cast<std::size_t>(repeats));
    for (int r = 0; r < repeats; ++r) {
        const std::uint64_t s = derive_seed(seed, static_cast<std::uint64_t>(r));
        auto folds = n_classes > 0 ? stratified_kfold(y, n_classes, k, s) : kfold(y.size(), k, s);
        for (auto& f : folds) {
            f.repeat = r;
            all.push_back(std::move(f));
        }
    }
    return all;
}

}  // namespace kestrel
