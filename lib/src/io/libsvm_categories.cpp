// LIBSVM features named by --categorical: their integer values are category codes of
// the user's own numbering. They become categories named by that number ("3", "-1"),
// sorted byte-wise as the CSV reader sorts its categories, so that the model, its
// one-hot step and predict time treat them exactly as a CSV string column. LIBSVM
// reads an absent entry as the value 0, so in these features an absent entry is the
// category "0"; a sparse table therefore gets an explicit entry per row for them.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "kestrel/core/error.hpp"
#include "read_hints.hpp"
#include "readers.hpp"

namespace kestrel::detail {
namespace {

// Categorical column "3" names LIBSVM feature 3, column 2. `option` names the option in messages.
std::vector<Index> named_features(const std::vector<std::string>& names, Index width, const std::string& source,
                                  const ErrorText& option) {
    std::vector<Index> out;
    for (const auto& name : names) {
        long long index = 0;
        const auto res = std::from_chars(name.data(), name.data() + name.size(), index);
        if (res.ec != std::errc() || res.ptr != name.data() + name.size() || index < 1)
            throw UsageError(option + " " + name + ": a LIBSVM file names features by their index (1, 2, ...)");
        if (index > width)
            throw DataError(source + ": no feature " + name + " (" + option + "); the highest index in the file is " +
                            std::to_string(width));
        out.push_back(static_cast<Index>(index - 1));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The category a value names: its shortest text, as LIBSVM labels are named.
std::string category_text(double v) {
    char text[32];
    const auto res = std::to_chars(text, text + sizeof text, v);
    return {text, res.ptr};
}

class FeatureCoder {
public:
    FeatureCoder(const Table& t, Index feature, const std::vector<std::string>* model, bool unknown_is_error)
        : t_(t), feature_(feature), unknown_is_error_(unknown_is_error) {
        if (!model) return;
        names_ = *model;
        for (std::size_t c = 0; c < names_.size(); ++c) code_.emplace(names_[c], static_cast<double>(c));
    }

    // Training: every value of the column, so that codes follow the sorted names.
    void collect(double v, Index row) {
        if (std::isnan(v)) return;
        check_integer(v, row);
        const std::string text = category_text(v);
        if (code_.emplace(text, 0).second) names_.push_back(text);
    }
    // Sorts the names seen and numbers them; returns how many there are.
    std::size_t settle() {
        std::sort(names_.begin(), names_.end());
        for (std::size_t c = 0; c < names_.size(); ++c) code_[names_[c]] = static_cast<double>(c);
        return names_.size();
    }
    double code(double v, Index row) const {
        if (std::isnan(v)) return v;
        check_integer(v, row);
        const auto it = code_.find(category_text(v));
        if (it != code_.end()) return it->second;
        if (unknown_is_error_)
            throw DataError(SourceLocation{t_.source, line(row), 0},
                            "feature " + std::to_string(feature_ + 1) + " holds " + category_text(v) +
                                ", a category the model never saw in training " + unknown_category_hint());
        return kUnknownCategory;
    }
    std::vector<std::string> take_names() { return std::move(names_); }

private:
    void check_integer(double v, Index row) const {
        if (v != std::floor(v) || std::fabs(v) > 9007199254740992.0)
            throw DataError(SourceLocation{t_.source, line(row), 0},
                            "feature " + std::to_string(feature_ + 1) + " is " + category_text(v) +
                                ", not an integer category code (it is named by " +
                                option_named("categorical_columns") + ")");
    }
    std::uint64_t line(Index row) const {
        return t_.labels && static_cast<std::size_t>(row) < t_.labels->line.size()
                   ? t_.labels->line[static_cast<std::size_t>(row)]
                   : 0;
    }

    const Table& t_;
    Index feature_;
    bool unknown_is_error_;
    std::vector<std::string> names_;
    std::unordered_map<std::string, double> code_;
};

// The value of column j in each row, absent entries included (as 0).
template <class Visit>
void for_each_value(const Features& X, Index j, Visit visit) {
    if (!X.is_sparse()) {
        const DenseView m = X.dense_ref();
        for (Index r = 0; r < m.rows(); ++r) visit(r, m(r, j));
        return;
    }
    const SparseMatrix& m = X.sparse_ref();
    for (Index r = 0; r < m.outerSize(); ++r) {
        double v = 0;
        for (SparseMatrix::InnerIterator it(m, r); it; ++it)
            if (it.col() == j) v = it.value();
        visit(r, v);
    }
}

// The sparse table with every row holding an entry for each coded column (code 0
// stored explicitly: only the named category "0" may be absent in the file).
SparseMatrix with_codes(const SparseMatrix& m, Index width, const std::vector<Index>& features,
                        const std::vector<std::vector<double>>& codes) {
    std::vector<Eigen::Triplet<double, int>> entries;
    entries.reserve(static_cast<std::size_t>(m.nonZeros()) + features.size() * static_cast<std::size_t>(m.rows()));
    for (Index r = 0; r < m.outerSize(); ++r) {
        for (SparseMatrix::InnerIterator it(m, r); it; ++it)
            if (!std::binary_search(features.begin(), features.end(), static_cast<Index>(it.col())))
                entries.emplace_back(static_cast<int>(r), static_cast<int>(it.col()), it.value());
        for (std::size_t k = 0; k < features.size(); ++k)
            entries.emplace_back(static_cast<int>(r), static_cast<int>(features[k]),
                                 codes[k][static_cast<std::size_t>(r)]);
    }
    SparseMatrix out(m.rows(), width);
    out.setFromTriplets(entries.begin(), entries.end());
    return out;
}

}  // namespace

void code_libsvm_categories(Table& t, const ReadOptions& opts) {
    const bool predict = opts.feature_categories.has_value();
    std::vector<Index> features;
    Index width = t.X.cols();
    if (predict) {
        const CategoryLists& model = *opts.feature_categories;
        for (std::size_t j = 0; j < model.size(); ++j)
            if (!model[j].empty()) features.push_back(static_cast<Index>(j));
        if (features.empty()) return;
        width = std::max<Index>(width, static_cast<Index>(model.size()));
    } else {
        if (opts.categorical_columns.empty()) return;
        features = named_features(opts.categorical_columns, width, t.source, option_named("categorical_columns"));
    }

    std::vector<std::vector<double>> codes(features.size());
    t.categories.assign(static_cast<std::size_t>(width), {});
    for (std::size_t k = 0; k < features.size(); ++k) {
        const Index j = features[k];
        const auto* model = predict ? &(*opts.feature_categories)[static_cast<std::size_t>(j)] : nullptr;
        FeatureCoder coder(t, j, model, opts.unknown_category_error);
        if (!predict) {
            for_each_value(t.X, j, [&](Index r, double v) { coder.collect(v, r); });
            if (static_cast<Index>(coder.settle()) > opts.max_categories)
                throw DataError(t.source + ": feature " + std::to_string(j + 1) + " has more than " +
                                std::to_string(opts.max_categories) + " categories (" +
                                option_named("read.max_categories") + ")");
        }
        auto& column = codes[k];
        column.resize(static_cast<std::size_t>(t.X.rows()));
        if (j < t.X.cols()) {
            for_each_value(t.X, j, [&](Index r, double v) { column[static_cast<std::size_t>(r)] = coder.code(v, r); });
        } else {  // a sparse piece whose rows never reach the feature: all absent, all 0
            if (!t.X.is_sparse()) throw InternalError("LIBSVM dense read narrower than the model");
            for (Index r = 0; r < t.X.rows(); ++r) column[static_cast<std::size_t>(r)] = coder.code(0, r);
        }
        t.categories[static_cast<std::size_t>(j)] = coder.take_names();
    }
    if (t.X.is_sparse()) {
        t.X = Features(with_codes(t.X.sparse_ref(), width, features, codes));
        return;
    }
    DenseMatrix& m = t.X.dense_mut();
    for (std::size_t k = 0; k < features.size(); ++k)
        m.col(features[k]) = Eigen::Map<const Vector>(codes[k].data(), static_cast<Index>(codes[k].size()));
}

}  // namespace kestrel::detail
