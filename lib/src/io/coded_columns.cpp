// Integer-coded categorical columns: checked, put in the readers' byte-wise order, and
// matched to a model's categories by name.
#include "kestrel/io/coded_columns.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

std::string cell_place(const Table& table, Index row, Index column) {
    return table.source + ": row " + std::to_string(row + 1) + ", column " + std::to_string(column + 1);
}

// old code -> new code when `names` are sorted byte-wise; `names` sorted in place.
std::vector<double> sort_names(std::vector<std::string>& names, const Table& table, Index column) {
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
    std::vector<std::string> sorted(names.size());
    std::vector<double> new_code(names.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        sorted[k] = names[order[k]];
        new_code[order[k]] = static_cast<double>(k);
        if (k > 0 && sorted[k] == sorted[k - 1])
            throw DataError(table.source + ": column " + std::to_string(column + 1) + ": category \"" + sorted[k] +
                            "\" is named twice");
    }
    names = std::move(sorted);
    return new_code;
}

}  // namespace

void set_coded_column(Table& table, Index column, std::vector<std::string> names) {
    if (table.X.is_sparse()) throw UsageError("categorical columns are taken on dense rows only");
    if (column < 0 || column >= table.X.cols())
        throw UsageError("column " + std::to_string(column) + ": the rows have " + std::to_string(table.X.cols()) +
                         " columns (counted from 0)");
    if (names.empty())
        throw DataError(table.source + ": column " + std::to_string(column + 1) + ": no category names");
    const std::vector<double> new_code = sort_names(names, table, column);
    DenseMatrix& X = table.X.dense_mut();
    const auto n = static_cast<double>(new_code.size());
    for (Index i = 0; i < X.rows(); ++i) {
        double& cell = X(i, column);
        if (std::isnan(cell) || cell < 0) {
            cell = std::nan("");
            continue;
        }
        if (cell != std::floor(cell) || cell >= n)
            throw DataError(cell_place(table, i, column) + ": code " + format_number(cell) + " is not one of 0.." +
                            std::to_string(new_code.size() - 1));
        cell = new_code[static_cast<std::size_t>(cell)];
    }
    if (table.categories.empty()) table.categories.assign(static_cast<std::size_t>(X.cols()), {});
    table.categories[static_cast<std::size_t>(column)] = std::move(names);
}

Features coded_for_model(const Table& table, const CategoryLists& model) {
    if (table.categories.empty() && model.empty()) return table.X;
    const auto kind = [](const CategoryLists& lists, Index j) {
        return !lists.empty() && !lists[static_cast<std::size_t>(j)].empty();
    };
    DenseMatrix X = table.X.to_dense();
    for (Index j = 0; j < X.cols(); ++j) {
        if (kind(table.categories, j) != kind(model, j))
            throw DataError(table.source + ": column " + std::to_string(j + 1) + " is " +
                            (kind(model, j) ? "categorical for the model but numeric here"
                                            : "categorical here but numeric for the model"));
        if (!kind(model, j)) continue;
        const auto& theirs = model[static_cast<std::size_t>(j)];
        std::unordered_map<std::string, double> code_of;
        for (std::size_t k = 0; k < theirs.size(); ++k) code_of.emplace(theirs[k], static_cast<double>(k));
        const auto& ours = table.categories[static_cast<std::size_t>(j)];
        std::vector<double> to_model(ours.size(), kUnknownCategory);
        for (std::size_t k = 0; k < ours.size(); ++k)
            if (auto at = code_of.find(ours[k]); at != code_of.end()) to_model[k] = at->second;
        for (Index i = 0; i < X.rows(); ++i)
            if (double& cell = X(i, j); !std::isnan(cell) && cell >= 0) cell = to_model[static_cast<std::size_t>(cell)];
    }
    return X;
}

}  // namespace kestrel
