#include "kestrel/preprocess/column_selector.hpp"

#include <charconv>
#include <stdexcept>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"

namespace kestrel {
namespace {

class ColumnSelector final : public Transformer {
public:
    explicit ColumnSelector(std::vector<Index> cols) : cols_(std::move(cols)) {}
    std::string kind() const override { return "select_columns"; }
    void fit(const Features& X) override {
        in_features_ = X.cols();
        check(in_features_);
    }
    Features transform(const Features& X) const override {
        if (in_features_ > 0 && X.cols() != in_features_)
            throw DataError("select_columns: data has " + std::to_string(X.cols()) + " features, the step expects " +
                            std::to_string(in_features_));
        return select_columns(X, cols_);
    }
    Json to_json() const override { return {{"type", kind()}, {"columns", cols_}, {"in_features", in_features_}}; }
    void from_json(const Json& j) override {
        cols_ = json_integers<Index>(j.at("columns"));
        in_features_ = json_integer<Index>(j.at("in_features"));
        if (in_features_ < 1) throw ModelStateError("select_columns: in_features must be positive");
        check(in_features_);
    }
    std::vector<Index> output_roles(const std::vector<Index>& in, Index) const override {
        if (in.empty()) return in;
        std::vector<Index> out;
        for (Index c : cols_) out.push_back(in.at(static_cast<std::size_t>(c)));
        return out;
    }
    std::optional<std::vector<Index>> output_sources(Index) const override { return cols_; }
    std::vector<std::string> output_names(const std::vector<std::string>& in) const override {
        if (in.empty()) return in;
        std::vector<std::string> out;
        for (Index c : cols_) out.push_back(in.at(static_cast<std::size_t>(c)));
        return out;
    }

private:
    void check(Index width) const {
        if (cols_.empty()) throw UsageError("select_columns: no columns selected");
        for (Index c : cols_)
            if (c < 0 || c >= width)
                throw DataError("select_columns: column " + std::to_string(c) + " is outside the data's " +
                                std::to_string(width) + " features");
    }

    std::vector<Index> cols_;
    Index in_features_ = 0;
};

}  // namespace

Features select_columns(const Features& X, const std::vector<Index>& cols) {
    if (!X.is_sparse()) {
        const DenseView m = X.dense_ref();
        DenseMatrix out(m.rows(), static_cast<Index>(cols.size()));
        for (std::size_t j = 0; j < cols.size(); ++j) out.col(static_cast<Index>(j)) = m.col(cols[j]);
        return out;
    }
    const SparseMatrix& m = X.sparse_ref();
    std::vector<Index> where(static_cast<std::size_t>(m.cols()), -1);
    for (std::size_t j = 0; j < cols.size(); ++j) where[static_cast<std::size_t>(cols[j])] = static_cast<Index>(j);
    std::vector<Eigen::Triplet<double, int>> entries;
    for (Index r = 0; r < m.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(m, r); it; ++it) {
            const Index to = where[static_cast<std::size_t>(it.col())];
            if (to >= 0) entries.emplace_back(static_cast<int>(r), static_cast<int>(to), it.value());
        }
    SparseMatrix out(m.rows(), static_cast<Index>(cols.size()));
    out.setFromTriplets(entries.begin(), entries.end());
    return Features(std::move(out));
}

std::string column_selector_spec(const std::vector<Index>& cols) {
    std::string s = "select_columns:";
    for (std::size_t j = 0; j < cols.size(); ++j) (s += (j ? "," : "")) += std::to_string(cols[j]);
    return s;
}

std::vector<Index> column_selector_columns(const std::string& spec) {
    std::vector<Index> cols;
    const auto colon = spec.find(':');
    if (colon != std::string::npos) {
        std::string_view rest(spec);
        rest.remove_prefix(colon + 1);
        while (true) {
            const auto comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            long long v = -1;
            const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
            if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v < 0)
                throw UsageError("select_columns: '" + std::string(item) + "' is not a column index");
            cols.push_back(static_cast<Index>(v));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    return cols;
}

std::unique_ptr<Transformer> make_column_selector(const std::string& spec) {
    return std::make_unique<ColumnSelector>(column_selector_columns(spec));
}

}  // namespace kestrel
