#include "training_shard_categories.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "kestrel/core/error.hpp"
#include "training_shard_messages.hpp"

namespace kestrel::detail {
namespace {

// Whether column f of this rank's rows holds a cell that is not missing.
bool shard_column_has_value(const Features& X, Index f) {
    if (X.is_sparse()) return false;  // LIBSVM: categorical by --categorical on every rank alike
    const DenseView m = X.dense_ref();
    for (Index r = 0; r < m.rows(); ++r)
        if (!std::isnan(m(r, f))) return true;
    return false;
}

// The cells of column f: code c becomes map[c] (NaN stays missing).
void recode_shard_column(Features& X, Index f, const std::vector<double>& map) {
    const auto to = [&map](double& x) {
        if (!std::isnan(x) && x >= 0 && x < static_cast<double>(map.size())) x = map[static_cast<std::size_t>(x)];
    };
    if (X.is_sparse()) {
        SparseMatrix& s = X.sparse_mut();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                if (it.col() == f) to(it.valueRef());
        return;
    }
    DenseMatrix& m = X.dense_mut();
    for (Index r = 0; r < m.rows(); ++r) to(m(r, f));
}

std::string shard_column_name(const Table& t, Index f) {
    return f < static_cast<Index>(t.feature_names.size()) ? "'" + t.feature_names[static_cast<std::size_t>(f)] + "'"
                                                          : std::to_string(f);
}

}  // namespace

void widen_table(Table& t, Index width) {
    if (t.X.cols() >= width) return;
    if (t.X.is_sparse()) {
        SparseMatrix wide = t.X.sparse_ref();
        wide.conservativeResize(wide.rows(), width);
        t.X = Features(std::move(wide));
    } else {
        DenseMatrix wide = DenseMatrix::Zero(t.X.rows(), width);
        wide.leftCols(t.X.cols()) = t.X.dense_ref();
        t.X = Features(std::move(wide));
    }
}

namespace {

// The columns whose flag is set.
std::vector<Index> flagged_shard_columns(const std::vector<double>& flag) {
    std::vector<Index> out;
    for (std::size_t f = 0; f < flag.size(); ++f)
        if (flag[f] != 0) out.push_back(static_cast<Index>(f));
    return out;
}

// t read again with `categorical` forced categorical when one of them holds numbers in t
// (a column t read as numbers because its cells there are all number-like).
void read_shard_as_categories(Table& t, const std::vector<Index>& categorical, Index width,
                              const std::function<Table(const std::vector<Index>&)>& read_again) {
    const bool again = std::any_of(categorical.begin(), categorical.end(), [&](Index f) {
        return t.categories[static_cast<std::size_t>(f)].empty() && shard_column_has_value(t.X, f);
    });
    if (!again) return;
    t = read_again(categorical);
    widen_table(t, width);
    t.categories.resize(static_cast<std::size_t>(width));
}

// Column f of t recoded to `all`, the sorted union of its list and others'.
void recode_shard_column_to(Table& t, Index f, std::vector<std::string> all) {
    auto& mine = t.categories[static_cast<std::size_t>(f)];
    std::vector<double> map(mine.size());
    for (std::size_t c = 0; c < mine.size(); ++c)
        map[c] = static_cast<double>(std::lower_bound(all.begin(), all.end(), mine[c]) - all.begin());
    recode_shard_column(t.X, f, map);
    mine = std::move(all);
}

// Sorted byte-wise without repeats, as the reader merges its chunks' dictionaries.
std::vector<std::string> sorted_category_union(std::vector<std::string> all) {
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

}  // namespace

void unite_categories(std::vector<Table>& parts,
                      const std::function<Table(std::size_t, const std::vector<Index>&)>& read_again) {
    if (parts.size() < 2) return;
    Index width = 0;  // LIBSVM files: the widest
    for (const Table& t : parts) width = std::max(width, t.X.cols());
    std::vector<double> flag(static_cast<std::size_t>(width), 0.0);
    for (Table& t : parts) {
        t.categories.resize(static_cast<std::size_t>(width));
        for (std::size_t f = 0; f < flag.size(); ++f) flag[f] = std::max(flag[f], t.categories[f].empty() ? 0.0 : 1.0);
    }
    const std::vector<Index> categorical = flagged_shard_columns(flag);
    if (categorical.empty()) {
        for (Table& t : parts) t.categories.clear();
        return;
    }
    for (std::size_t i = 0; i < parts.size(); ++i)
        read_shard_as_categories(parts[i], categorical, width,
                                 [&](const std::vector<Index>& c) { return read_again(i, c); });
    for (const Index f : categorical) {
        std::vector<std::string> all;
        for (const Table& t : parts) {
            const auto& list = t.categories[static_cast<std::size_t>(f)];
            all.insert(all.end(), list.begin(), list.end());
        }
        all = sorted_category_union(std::move(all));
        for (Table& t : parts) recode_shard_column_to(t, f, all);
    }
}

void agree_on_categories(ProcessGroup* group, Table& t, Index width, Index max_categories,
                         const std::function<Table(const std::vector<Index>& categorical)>& read_again) {
    const auto d = static_cast<std::size_t>(width);
    t.categories.resize(d);
    std::vector<double> flag(d, 0.0);
    for (std::size_t f = 0; f < d; ++f) flag[f] = t.categories[f].empty() ? 0.0 : 1.0;
    if (group != nullptr) allreduce_max(*group, std::span<double>(flag));
    const std::vector<Index> categorical = flagged_shard_columns(flag);
    if (categorical.empty()) {
        t.categories.clear();
        return;
    }
    read_shard_as_categories(t, categorical, width, read_again);
    // Each column's words: its count, then the words (one message for every column).
    std::vector<std::string> words;
    for (const Index f : categorical) {
        const auto& list = t.categories[static_cast<std::size_t>(f)];
        words.push_back(std::to_string(list.size()));
        words.insert(words.end(), list.begin(), list.end());
    }
    const auto every = gather_words(group, words);
    std::vector<std::size_t> at(every.size(), 0);
    for (const Index f : categorical) {
        std::vector<std::string> all;
        for (std::size_t r = 0; r < every.size(); ++r) {
            const std::size_t n = std::stoul(every[r][at[r]++]);
            all.insert(all.end(), every[r].begin() + static_cast<std::ptrdiff_t>(at[r]),
                       every[r].begin() + static_cast<std::ptrdiff_t>(at[r] + n));
            at[r] += n;
        }
        all = sorted_category_union(std::move(all));
        if (static_cast<Index>(all.size()) > max_categories)
            throw DataError(t.source + ": column " + shard_column_name(t, f) + " has " + std::to_string(all.size()) +
                            " categories, more than " + option_named("read.max_categories") + " (" +
                            std::to_string(max_categories) + ")");
        recode_shard_column_to(t, f, std::move(all));
    }
}

}  // namespace kestrel::detail
