#include "kestrel/common/splits.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {

namespace {

void check_k(Index n, int k) {
    if (k < 2)
        throw UsageError(option_named("k") + " " + std::to_string(k) + ": cross-validation needs at least 2 folds");
    if (k > n)
        throw UsageError(option_named("k") + " " + std::to_string(k) + ": more folds than rows (" + std::to_string(n) +
                         "); use " + option_named("k") + " " + std::to_string(n) + " or fewer");
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
            throw InternalError("stratified_kfold: row " + std::to_string(i) + " has class index " + std::to_string(c) +
                                " outside 0.." + std::to_string(n_classes - 1));
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
    if (repeats < 1) throw UsageError(option_named("repeats") + " " + std::to_string(repeats) + ": must be at least 1");
    check_k(y.size(), k);  // before k sizes anything (-k -3 reserved 2^64 folds)
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

namespace kestrel {

namespace {

// Test and train of one split from a row -> side marking, both sorted.
Fold fold_from_marks(const std::vector<char>& side, int index) {
    Fold f;
    f.index = index;
    for (std::size_t row = 0; row < side.size(); ++row) {
        if (side[row] == 't')
            f.test.push_back(static_cast<Index>(row));
        else if (side[row] == 'r')
            f.train.push_back(static_cast<Index>(row));
    }
    return f;
}

struct SplitSizes {
    Index train, test;
};

// sklearn's _validate_shuffle_split: test = ceil(f * n), train = the rest.
SplitSizes shuffle_split_sizes(Index n, int splits, double test_fraction) {
    if (splits < 1)
        throw UsageError(option_named("shuffle_splits") + " " + std::to_string(splits) + ": needs at least 1 split");
    if (!(test_fraction > 0 && test_fraction < 1))
        throw UsageError(option_named("test_fraction") + " " + std::to_string(test_fraction) +
                         ": must be strictly between 0 and 1");
    const auto test = static_cast<Index>(std::ceil(test_fraction * static_cast<double>(n)));
    if (test >= n)
        throw UsageError(option_named("test_fraction") + " " + std::to_string(test_fraction) +
                         ": leaves no training row out of " + std::to_string(n));
    return {n - test, test};
}

// sklearn's _approximate_mode: the most likely per-class counts of `draws` rows drawn
// without replacement; the rows left after flooring go to the largest remainders,
// ties among equal remainders broken at random.
std::vector<Index> approximate_mode(const std::vector<Index>& counts, Index draws, Rng& rng) {
    Index total = 0;
    for (Index c : counts) total += c;
    std::vector<Index> out(counts.size());
    std::vector<double> remainder(counts.size());
    Index assigned = 0;
    for (std::size_t c = 0; c < counts.size(); ++c) {
        const double exact = static_cast<double>(counts[c]) / static_cast<double>(total) * static_cast<double>(draws);
        out[c] = static_cast<Index>(std::floor(exact));
        remainder[c] = exact - std::floor(exact);
        assigned += out[c];
    }
    Index need = draws - assigned;
    std::vector<double> values(remainder);
    std::sort(values.begin(), values.end(), std::greater<>());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (double v : values) {
        if (need <= 0) break;
        std::vector<std::size_t> tied;
        for (std::size_t c = 0; c < remainder.size(); ++c)
            if (remainder[c] == v) tied.push_back(c);
        rng.shuffle(tied);
        for (std::size_t i = 0; i < tied.size() && need > 0; ++i, --need) ++out[tied[i]];
    }
    return out;
}

}  // namespace

std::vector<Fold> leave_one_out(Index n) {
    if (n < 2)
        throw UsageError(option_named("leave_one_out") + ": leave-one-out needs at least 2 rows, got " +
                         std::to_string(n));
    std::vector<int> fold_of_row(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) fold_of_row[static_cast<std::size_t>(i)] = static_cast<int>(i);
    return folds_from_assignment(fold_of_row, static_cast<int>(n));
}

std::vector<Fold> shuffle_split(Index n, int splits, double test_fraction, std::uint64_t seed) {
    const SplitSizes sizes = shuffle_split_sizes(n, splits, test_fraction);
    std::vector<Fold> out;
    for (int s = 0; s < splits; ++s) {
        Rng rng(derive_seed(seed, static_cast<std::uint64_t>(s)));
        std::vector<Index> order(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
        rng.shuffle(order);
        std::vector<char> side(static_cast<std::size_t>(n), 'r');
        for (Index i = 0; i < sizes.test; ++i) side[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = 't';
        out.push_back(fold_from_marks(side, s));
    }
    return out;
}

std::vector<Fold> stratified_shuffle_split(const Vector& class_index, Index n_classes, int splits, double test_fraction,
                                           std::uint64_t seed) {
    const Index n = class_index.size();
    const SplitSizes sizes = shuffle_split_sizes(n, splits, test_fraction);
    std::vector<std::vector<Index>> rows_of_class(static_cast<std::size_t>(std::max<Index>(n_classes, 0)));
    for (Index i = 0; i < n; ++i) rows_of_class[static_cast<std::size_t>(class_index[i])].push_back(i);
    // Classes absent from these rows take no part (a class list may name more).
    std::vector<std::vector<Index>> present;
    std::vector<Index> counts;
    for (auto& rows : rows_of_class) {
        if (rows.empty()) continue;
        if (rows.size() < 2)
            throw UsageError(option_named("shuffle_splits") +
                             ": a class has only 1 row; stratified splits need at least 2 per class");
        counts.push_back(static_cast<Index>(rows.size()));
        present.push_back(std::move(rows));
    }
    const auto k = static_cast<Index>(present.size());
    if (sizes.train < k || sizes.test < k)
        throw UsageError(option_named("test_fraction") + " " + std::to_string(test_fraction) + ": " +
                         std::to_string(sizes.test) + " test and " + std::to_string(sizes.train) +
                         " training rows cannot hold all " + std::to_string(k) + " classes");

    std::vector<Fold> out;
    for (int s = 0; s < splits; ++s) {
        Rng rng(derive_seed(seed, static_cast<std::uint64_t>(s)));
        const std::vector<Index> n_train = approximate_mode(counts, sizes.train, rng);
        std::vector<Index> left(counts.size());
        for (std::size_t c = 0; c < counts.size(); ++c) left[c] = counts[c] - n_train[c];
        const std::vector<Index> n_test = approximate_mode(left, sizes.test, rng);
        std::vector<char> side(static_cast<std::size_t>(n), 0);  // 0: in neither side
        for (std::size_t c = 0; c < present.size(); ++c) {
            std::vector<Index> rows = present[c];
            rng.shuffle(rows);
            for (Index i = 0; i < n_train[c] + n_test[c]; ++i)
                side[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])] = i < n_train[c] ? 'r' : 't';
        }
        out.push_back(fold_from_marks(side, s));
    }
    return out;
}

std::vector<Fold> group_kfold(const std::vector<Index>& group_of_row, int k) {
    Index n_groups = 0;
    for (Index g : group_of_row) {
        if (g < 0) throw InternalError("group_kfold: negative group id");
        n_groups = std::max(n_groups, g + 1);
    }
    std::vector<Index> size(static_cast<std::size_t>(n_groups), 0);
    for (Index g : group_of_row) ++size[static_cast<std::size_t>(g)];
    const auto present = std::count_if(size.begin(), size.end(), [](Index s) { return s > 0; });
    if (present < 2)
        throw UsageError(option_named("groups") + ": the group column has " + std::to_string(present) +
                         " distinct value; group k-fold needs at least 2 groups");
    if (k < 2)
        throw UsageError(option_named("k") + " " + std::to_string(k) + ": cross-validation needs at least 2 folds");
    if (k > present)
        throw UsageError(option_named("k") + " " + std::to_string(k) + ": more folds than groups (" +
                         std::to_string(present) + " in the " + option_named("groups") + " column); use " +
                         option_named("k") + " " + std::to_string(present) + " or fewer");

    // numpy's argsort(sizes)[::-1]: decreasing size, equal sizes by decreasing id.
    std::vector<Index> order(static_cast<std::size_t>(n_groups));
    for (Index g = 0; g < n_groups; ++g) order[static_cast<std::size_t>(g)] = g;
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) {
        return size[static_cast<std::size_t>(a)] < size[static_cast<std::size_t>(b)];
    });
    std::reverse(order.begin(), order.end());
    std::vector<Index> load(static_cast<std::size_t>(k), 0);
    std::vector<int> fold_of_group(static_cast<std::size_t>(n_groups), 0);
    for (Index g : order) {
        if (size[static_cast<std::size_t>(g)] == 0) continue;
        const auto lightest = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        load[lightest] += size[static_cast<std::size_t>(g)];
        fold_of_group[static_cast<std::size_t>(g)] = static_cast<int>(lightest);
    }
    std::vector<int> fold_of_row(group_of_row.size());
    for (std::size_t row = 0; row < group_of_row.size(); ++row)
        fold_of_row[row] = fold_of_group[static_cast<std::size_t>(group_of_row[row])];
    return folds_from_assignment(fold_of_row, k);
}

}  // namespace kestrel
