// Imputation and one-hot encoding: the steps that let every model read a raw table.
// Their rules (and the scikit-learn classes they follow) are in encoders.hpp.
#include "kestrel/preprocess/encoders.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>

#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

double option_number(const std::string& text, const ErrorText& what) {
    const std::optional<double> v = parse_number_text(text);
    if (!v) throw UsageError(what + ": '" + text + "' is not a finite number");
    return *v;
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

void check_width(const Features& X, Index expected, const char* step) {
    if (X.cols() != expected)
        throw DataError(std::string(step) + ": data has " + std::to_string(X.cols()) + " features, the step expects " +
                        std::to_string(expected));
}

Index role_of(const std::vector<Index>& roles, Index j) {
    return roles.empty() ? kNumericColumn : roles[static_cast<std::size_t>(j)];
}

// A double's bits as an unsigned key in the doubles' order (−0 just below +0; no NaN here).
std::uint64_t order_key(double x) {
    const auto u = std::bit_cast<std::uint64_t>(x);
    return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
}

// The non-missing values of column j, sorted in the order of order_key: −0 before +0, so
// that which of the two equal zeros a fill takes does not depend on the sort (the ranks'
// fits, which order by the same keys, take the same one).
std::vector<double> sorted_values(const DenseView& m, Index j) {
    std::vector<double> v;
    v.reserve(static_cast<std::size_t>(m.rows()));
    for (Index r = 0; r < m.rows(); ++r)
        if (!std::isnan(m(r, j))) v.push_back(m(r, j));
    std::sort(v.begin(), v.end(), [](double a, double b) { return order_key(a) < order_key(b); });
    return v;
}
double from_order_key(std::uint64_t k) {
    return std::bit_cast<double>((k >> 63) != 0 ? k & ~(std::uint64_t{1} << 63) : ~k);
}

// Per column of m, the ranks' non-missing values taken together, the value of 0-based rank
// want[j] (want[j] < 0: none), the same on every rank, and exact: a bisection over the
// 64-bit order keys, each of its 64 steps counting the values at or below the midpoint of
// every column on every rank (one sum over the ranks a step). No rank sees another's rows.
std::vector<double> order_statistics_over_ranks(const DenseView& m, const std::vector<double>& want) {
    const auto d = static_cast<std::size_t>(m.cols());
    std::vector<std::uint64_t> lo(d, 0), hi(d, ~std::uint64_t{0});
    std::vector<double> count(d);
    for (int step = 0; step < 64; ++step) {
        std::vector<std::uint64_t> mid(d);
        for (std::size_t j = 0; j < d; ++j) mid[j] = lo[j] + (hi[j] - lo[j]) / 2;
        std::fill(count.begin(), count.end(), 0.0);
        for (std::size_t j = 0; j < d; ++j) {
            if (want[j] < 0) continue;
            for (Index r = 0; r < m.rows(); ++r)
                if (const double x = m(r, static_cast<Index>(j)); !std::isnan(x) && order_key(x) <= mid[j]) count[j] += 1;
        }
        sum_over_ranks(true, std::span<double>(count));
        // The smallest key with more than want[j] values at or below it is the value's.
        for (std::size_t j = 0; j < d; ++j) {
            if (count[j] > want[j]) hi[j] = mid[j];
            else lo[j] = mid[j] + 1;
        }
    }
    std::vector<double> out(d, 0.0);
    for (std::size_t j = 0; j < d; ++j)
        if (want[j] >= 0) out[j] = from_order_key(lo[j]);
    return out;
}

// The most frequent of sorted values, the smallest on ties (scikit-learn's rule); −0 and
// +0 are one value, named by the first of the order.
double most_frequent(const std::vector<double>& v) {
    double best = v.front();
    std::size_t best_count = 0;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t k = i;
        while (k < v.size() && v[k] == v[i]) ++k;
        if (k - i > best_count) {
            best_count = k - i;
            best = v[i];
        }
        i = k;
    }
    return best;
}

// Per column j with want[j], the most frequent non-missing value of the ranks' rows taken
// together, as most_frequent gives it on all of them (a collective step). Each rank sends
// its distinct values with their counts (16 bytes each, and 8 a column) to every rank.
std::vector<double> most_frequent_over_ranks(const DenseView& m, const std::vector<char>& want) {
    const auto d = static_cast<std::size_t>(m.cols());
    std::vector<double> mine;  // per wanted column: n, then n (value, count) pairs
    for (std::size_t j = 0; j < d; ++j) {
        if (!want[j]) continue;
        const std::vector<double> v = sorted_values(m, static_cast<Index>(j));
        const std::size_t at = mine.size();
        mine.push_back(0);
        for (std::size_t i = 0; i < v.size();) {
            std::size_t k = i;
            while (k < v.size() && v[k] == v[i]) ++k;
            mine.push_back(v[i]);
            mine.push_back(static_cast<double>(k - i));
            mine[at] += 1;
            i = k;
        }
    }
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("impute: rows spread over ranks, but this run has no process group");
    const std::vector<std::vector<double>> parts = share_numbers_with_all(*group, mine);
    std::vector<std::size_t> at(parts.size(), 0);
    std::vector<double> out(d, 0.0);
    for (std::size_t j = 0; j < d; ++j) {
        if (!want[j]) continue;
        std::vector<std::pair<double, double>> pairs;  // (value, count) of every rank
        for (std::size_t r = 0; r < parts.size(); ++r) {
            const auto n = static_cast<std::size_t>(parts[r][at[r]++]);
            for (std::size_t i = 0; i < n; ++i, at[r] += 2) pairs.emplace_back(parts[r][at[r]], parts[r][at[r] + 1]);
        }
        std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return order_key(a.first) < order_key(b.first); });
        double best_count = 0;
        for (std::size_t i = 0; i < pairs.size();) {
            double count = 0;
            std::size_t k = i;
            for (; k < pairs.size() && pairs[k].first == pairs[i].first; ++k) count += pairs[k].second;
            if (count > best_count) best_count = count, out[j] = pairs[i].first;
            i = k;
        }
    }
    return out;
}

// Each categorical column's category counts over the rows, the columns one after the
// other in column order, then the row count: every number a one-hot fit reads.
struct CategoryTally {
    Index width = 0;
    std::vector<double> counts;
};

CategoryTally tally_categories(const DenseView& m, const std::vector<Index>& roles) {
    CategoryTally t;
    t.width = m.cols();
    for (Index j = 0; j < m.cols(); ++j) {
        const Index k = role_of(roles, j);
        if (k <= 0) continue;
        const std::size_t at = t.counts.size();
        t.counts.resize(at + static_cast<std::size_t>(k), 0.0);
        for (Index r = 0; r < m.rows(); ++r) {
            const double x = m(r, j);
            if (x >= 0 && x < static_cast<double>(k)) t.counts[at + static_cast<std::size_t>(x)] += 1;
        }
    }
    t.counts.push_back(static_cast<double>(m.rows()));
    return t;
}

// Per categorical column (roles[j] = k > 0), its most frequent code over the ranks' rows
// (the smallest on ties: the first category in the sorted list), from the k counts of each
// column summed over the ranks. Other columns: 0.
std::vector<double> category_modes_over_ranks(const DenseView& m, const std::vector<Index>& roles) {
    CategoryTally tally = tally_categories(m, roles);
    sum_over_ranks(true, std::span<double>(tally.counts));
    std::vector<double> modes(static_cast<std::size_t>(m.cols()), 0.0);
    std::size_t at = 0;
    for (Index j = 0; j < m.cols(); ++j) {
        const Index k = role_of(roles, j);
        if (k <= 0) continue;
        double best = 0;
        for (Index c = 0; c < k; ++c, ++at)
            if (tally.counts[at] > best) best = tally.counts[at], modes[static_cast<std::size_t>(j)] = static_cast<double>(c);
    }
    return modes;
}

// ---- impute ---------------------------------------------------------------------

class Imputer final : public Transformer {
public:
    explicit Imputer(const std::string& spec) {
        if (spec == "impute") return;  // rebuilt from a model file: from_json sets everything
        for (const auto& part : split_commas(spec.substr(std::string("impute:").size()))) {
            if (part == "indicator") indicator_wanted_ = true;
            else if (part == "mean" || part == "median" || part == "most_frequent") strategy_ = part;
            else if (starts_with(part, "constant=")) {
                strategy_ = "constant";
                constant_ = option_number(part.substr(9), option_named("missing") + " constant");
            } else {
                throw UsageError("unknown imputation '" + part +
                                 "' (valid: mean, median, most_frequent, constant:VALUE, and indicator)");
            }
        }
    }
    std::string kind() const override { return "impute"; }
    void fit(const Features& X) override { fit(X, {}); }
    void fit(const Features& X, const std::vector<Index>& roles) override {
        in_features_ = X.cols();
        fill_ = Vector::Zero(in_features_);
        indicator_.clear();
        if (X.is_sparse()) return;  // LIBSVM rows: an absent entry is a zero, never missing
        const DenseView m = X.dense_ref();
        for (Index j = 0; j < m.cols(); ++j) {
            const std::vector<double> v = sorted_values(m, j);
            if (static_cast<Index>(v.size()) < m.rows() && indicator_wanted_) indicator_.push_back(j);
            // A column without a value in these rows (possible in a cv fold) is filled with 0.
            if (v.empty()) continue;
            const bool categorical = role_of(roles, j) > 0;
            if (categorical || strategy_ == "most_frequent") fill_[j] = most_frequent(v);
            else if (strategy_ == "constant") fill_[j] = constant_;
            else if (strategy_ == "median") {
                const std::size_t n = v.size();
                fill_[j] = n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2;
            } else {
                double sum = 0;
                for (double x : v) sum += x;
                fill_[j] = sum / static_cast<double>(v.size());
            }
        }
    }
    // mean and constant fill from each column's count and sum of non-missing cells
    // summed over the ranks (the indicator: a count below the rows); median from two
    // order statistics found by a bisection over the ranks' counts (exact); most_frequent
    // from every rank's distinct values and their counts; a categorical column's most
    // frequent category from its category counts summed over the ranks.
    bool fits_on_shards() const override { return true; }
    void fit_on_shards(const Features& X, const std::vector<Index>& roles) override {
        in_features_ = X.cols();
        fill_ = Vector::Zero(in_features_);
        indicator_.clear();
        if (X.is_sparse()) return;
        const DenseView m = X.dense_ref();
        const Index d = m.cols();
        Vector sums = Vector::Zero(2 * d + 1);  // per column: count and sum of the values; then the rows
        for (Index j = 0; j < d; ++j)
            for (Index r = 0; r < m.rows(); ++r)
                if (const double x = m(r, j); !std::isnan(x)) sums[j] += 1, sums[d + j] += x;
        sums[2 * d] = static_cast<double>(m.rows());
        sum_over_ranks(true, std::span<double>(sums.data(), static_cast<std::size_t>(sums.size())));
        const auto categorical = [&](Index j) { return role_of(roles, j) > 0; };
        const bool any_categorical = std::any_of(roles.begin(), roles.end(), [](Index k) { return k > 0; });
        const std::vector<double> modes = any_categorical ? category_modes_over_ranks(m, roles) : std::vector<double>();
        std::vector<double> frequent;
        if (strategy_ == "most_frequent") {
            std::vector<char> want(static_cast<std::size_t>(d), 0);
            for (Index j = 0; j < d; ++j) want[static_cast<std::size_t>(j)] = !categorical(j) && sums[j] > 0;
            frequent = most_frequent_over_ranks(m, want);
        }
        // The median as fit takes it: the middle value, or the two middle ones halved and added.
        std::vector<double> below, above;
        if (strategy_ == "median") {
            std::vector<double> lower(static_cast<std::size_t>(d), -1.0), upper(static_cast<std::size_t>(d), -1.0);
            for (Index j = 0; j < d; ++j) {
                const double n = sums[j];
                if (n == 0 || categorical(j)) continue;
                const double k = std::floor(n / 2);
                upper[static_cast<std::size_t>(j)] = k;
                if (std::fmod(n, 2) == 0) lower[static_cast<std::size_t>(j)] = k - 1;  // odd: the middle alone
            }
            below = order_statistics_over_ranks(m, lower);
            above = order_statistics_over_ranks(m, upper);
        }
        for (Index j = 0; j < d; ++j) {
            if (sums[j] < sums[2 * d] && indicator_wanted_) indicator_.push_back(j);
            if (sums[j] == 0) continue;  // no value in any row: 0, as fit
            const auto u = static_cast<std::size_t>(j);
            if (categorical(j)) fill_[j] = modes[u];
            else if (strategy_ == "most_frequent") fill_[j] = frequent[u];
            else if (strategy_ == "constant") fill_[j] = constant_;
            else if (strategy_ == "median") fill_[j] = std::fmod(sums[j], 2) != 0 ? above[u] : below[u] / 2 + above[u] / 2;
            else fill_[j] = sums[d + j] / sums[j];
        }
    }
    Features transform(const Features& X) const override {
        check_width(X, in_features_, "impute");
        if (X.is_sparse()) {
            SparseMatrix s = X.sparse_ref();
            for (Index i = 0; i < s.nonZeros(); ++i)
                if (std::isnan(s.valuePtr()[i])) s.valuePtr()[i] = fill_[s.innerIndexPtr()[i]];
            return s;
        }
        const DenseView in = X.dense_ref();
        const auto extra = static_cast<Index>(indicator_.size());
        DenseMatrix out(in.rows(), in.cols() + extra);
        for (Index r = 0; r < in.rows(); ++r) {
            for (Index j = 0; j < in.cols(); ++j) {
                const double x = in(r, j);
                out(r, j) = std::isnan(x) ? fill_[j] : x;
            }
            for (Index k = 0; k < extra; ++k) out(r, in.cols() + k) = std::isnan(in(r, indicator_[static_cast<std::size_t>(k)])) ? 1 : 0;
        }
        return out;
    }
    std::vector<Index> output_roles(const std::vector<Index>& in, Index width) const override {
        std::vector<Index> out = in.empty() ? std::vector<Index>(static_cast<std::size_t>(in_features_), 0) : in;
        out.resize(static_cast<std::size_t>(width), kIndicatorColumn);
        return out;
    }
    std::optional<std::vector<Index>> output_sources(Index in_width) const override {
        std::vector<Index> out = same_columns(in_width);
        out.insert(out.end(), indicator_.begin(), indicator_.end());
        return out;
    }
    std::vector<std::string> output_names(const std::vector<std::string>& in) const override {
        if (in.empty() || indicator_.empty()) return in;
        std::vector<std::string> out = in;
        for (Index j : indicator_) out.push_back("missing(" + in.at(static_cast<std::size_t>(j)) + ")");
        return out;
    }
    Json to_json() const override {
        Json j{{"type", kind()}, {"strategy", strategy_}, {"fill", std::vector<double>(fill_.data(), fill_.data() + fill_.size())}};
        if (strategy_ == "constant") j["constant"] = constant_;
        if (!indicator_.empty()) j["indicator"] = indicator_;
        return j;
    }
    void from_json(const Json& j) override {
        strategy_ = j.at("strategy").get<std::string>();
        if (strategy_ != "mean" && strategy_ != "median" && strategy_ != "most_frequent" && strategy_ != "constant")
            throw ModelStateError("impute: unknown strategy '" + strategy_ + "'");
        const auto fill = j.at("fill").get<std::vector<double>>();
        for (double x : fill)
            if (!std::isfinite(x)) throw ModelStateError("impute: non-finite fill value");
        fill_ = Eigen::Map<const Vector>(fill.data(), static_cast<Index>(fill.size()));
        in_features_ = fill_.size();
        if (in_features_ < 1) throw ModelStateError("impute: no columns");
        constant_ = j.value("constant", 0.0);
        indicator_ = j.contains("indicator") ? json_integers<Index>(j.at("indicator")) : std::vector<Index>{};
        for (Index c : indicator_)
            if (c < 0 || c >= in_features_) throw ModelStateError("impute: indicator column out of range");
    }

private:
    std::string strategy_ = "mean";
    double constant_ = 0;
    bool indicator_wanted_ = false;
    Index in_features_ = 0;
    Vector fill_;
    std::vector<Index> indicator_;  // columns that had missing cells in training
};

// ---- onehot ---------------------------------------------------------------------

// scikit-learn's ColumnTransformer(sparse_threshold=0.3): below this share of stored
// cells, the encoded rows are sparse.
constexpr double kOneHotSparseDensity = 0.3;

// How one categorical input column becomes 0/1 columns.
struct Block {
    Index column = 0;
    std::vector<int> slot;           // per code: its output column within the block, or -1
    int width = 0;                   // output columns of the block
    bool infrequent = false;         // the last output column gathers the rare categories
    std::vector<std::string> names;  // per output column: the category (or "infrequent")
};

class OneHotEncoder final : public Transformer {
public:
    explicit OneHotEncoder(const std::string& spec) {
        if (spec == "onehot") return;
        for (const auto& part : split_commas(spec.substr(std::string("onehot:").size()))) {
            if (starts_with(part, "max_categories=")) {
                const double v = option_number(part.substr(15), option_named("max_categories"));
                if (v < 2 || v != std::floor(v))
                    throw UsageError(option_named("max_categories") + " must be an integer >= 2");
                max_categories_ = static_cast<Index>(v);
            } else if (starts_with(part, "min_frequency=")) {
                min_frequency_ = option_number(part.substr(14), option_named("min_frequency"));
                if (min_frequency_ < 0) throw UsageError(option_named("min_frequency") + " must be >= 0");
            } else if (part == "sparse") {
                sparse_allowed_ = true;
            } else {
                throw UsageError("unknown one-hot option '" + part +
                                 "' (valid: max_categories=N, min_frequency=F, sparse)");
            }
        }
    }
    std::string kind() const override { return "onehot"; }
    void fit(const Features& X) override { fit(X, {}); }
    void fit(const Features& X, const std::vector<Index>& roles) override {
        DenseMatrix scratch;  // LIBSVM rows with --categorical features arrive sparse
        fit_tally(tally_categories(X.dense(scratch), roles), roles);
    }
    // Every rule (min_frequency, max_categories, the sparse-rows threshold) reads only the
    // categories' counts and the rows, which sum over the ranks exactly.
    bool fits_on_shards() const override { return true; }
    void fit_on_shards(const Features& X, const std::vector<Index>& roles) override {
        DenseMatrix scratch;
        CategoryTally tally = tally_categories(X.dense(scratch), roles);
        sum_over_ranks(true, std::span<double>(tally.counts));
        fit_tally(tally, roles);
    }
    Features transform(const Features& X) const override {
        DenseMatrix scratch;
        const DenseView in = X.dense(scratch);
        check_width(X, in_features_, "onehot");
        if (sparse_) return sparse_rows(in);
        DenseMatrix out = DenseMatrix::Zero(in.rows(), out_width());
        for (Index r = 0; r < in.rows(); ++r) encode_row(in, r, [&](Index c, double v) { out(r, c) = v; });
        return out;
    }
    std::vector<Index> output_roles(const std::vector<Index>&, Index width) const override {
        std::vector<Index> out;
        out.reserve(static_cast<std::size_t>(width));
        std::size_t b = 0;
        for (Index j = 0; j < in_features_; ++j) {
            if (b < blocks_.size() && blocks_[b].column == j) out.insert(out.end(), static_cast<std::size_t>(blocks_[b++].width), kIndicatorColumn);
            else out.push_back(kNumericColumn);
        }
        return out;
    }
    std::optional<std::vector<Index>> output_sources(Index) const override {
        std::vector<Index> out;
        std::size_t b = 0;
        for (Index j = 0; j < in_features_; ++j) {
            const Index copies = b < blocks_.size() && blocks_[b].column == j ? blocks_[b++].width : 1;
            out.insert(out.end(), static_cast<std::size_t>(copies), j);
        }
        return out;
    }
    std::vector<std::string> output_names(const std::vector<std::string>& in) const override {
        std::vector<std::string> out;
        std::size_t b = 0;
        for (Index j = 0; j < in_features_; ++j) {
            const std::string name = in.empty() ? "x" + std::to_string(j + 1) : in.at(static_cast<std::size_t>(j));
            if (b < blocks_.size() && blocks_[b].column == j) {
                for (const auto& c : blocks_[b].names) out.push_back(name + "=" + c);
                ++b;
            } else {
                out.push_back(name);
            }
        }
        return out;
    }
    Json to_json() const override {
        Json blocks = Json::array();
        for (const auto& b : blocks_)
            blocks.push_back({{"column", b.column}, {"slot", b.slot}, {"width", b.width}, {"infrequent", b.infrequent},
                              {"names", b.names}});
        Json j{{"type", kind()}, {"in_features", in_features_}, {"columns", std::move(blocks)}};
        if (sparse_) j["sparse"] = true;  // absent in older files: dense rows
        return j;
    }
    void from_json(const Json& j) override {
        in_features_ = json_integer<Index>(j.at("in_features"));
        if (in_features_ < 1) throw ModelStateError("onehot: in_features must be positive");
        blocks_.clear();
        sparse_ = j.value("sparse", false);
        Index last = -1;
        for (const auto& e : j.at("columns")) {
            Block b;
            b.column = json_integer<Index>(e.at("column"));
            if (b.column <= last || b.column >= in_features_) throw ModelStateError("onehot: bad column");
            last = b.column;
            b.width = json_integer<int>(e.at("width"));
            b.infrequent = e.at("infrequent").get<bool>();
            b.slot = json_integers<int>(e.at("slot"));
            b.names = e.at("names").get<std::vector<std::string>>();
            if (b.width < 0 || static_cast<int>(b.names.size()) != b.width) throw ModelStateError("onehot: bad width");
            for (int s : b.slot)
                if (s < -1 || s >= b.width) throw ModelStateError("onehot: slot out of range");
            blocks_.push_back(std::move(b));
        }
    }
    void name_categories(const CategoryLists& categories) {
        for (auto& b : blocks_) {
            const auto& names = categories.at(static_cast<std::size_t>(b.column));
            for (std::size_t c = 0; c < b.slot.size() && c < names.size(); ++c) {
                const int s = b.slot[c];
                if (s >= 0 && !(b.infrequent && s == b.width - 1)) b.names[static_cast<std::size_t>(s)] = names[c];
            }
        }
    }

private:
    void fit_tally(const CategoryTally& tally, const std::vector<Index>& roles) {
        in_features_ = tally.width;
        blocks_.clear();
        const double rows = tally.counts.back();
        const double min_count = min_frequency_ < 1 ? min_frequency_ * rows : min_frequency_;
        double encoded_ones = 0;  // cells of the one-hot columns that hold a 1
        std::size_t at = 0;       // the column's first count in tally.counts
        for (Index j = 0; j < in_features_; ++j) {
            const Index k = role_of(roles, j);
            if (k <= 0) continue;
            const std::span<const double> count(tally.counts.data() + at, static_cast<std::size_t>(k));
            at += static_cast<std::size_t>(k);
            Block b;
            b.column = j;
            b.slot.assign(static_cast<std::size_t>(k), -1);
            // scikit-learn's rule: infrequent when seen fewer than min_count times; and
            // with more observed categories than max_categories, the observed ones beyond
            // the max_categories - 1 most frequent (a stable ascending sort by count, so
            // of equal counts the later category stays frequent).
            std::vector<Index> order;
            for (Index c = 0; c < k; ++c)
                if (count[static_cast<std::size_t>(c)] > 0) order.push_back(c);
            std::vector<char> frequent(static_cast<std::size_t>(k), 0);
            for (Index c : order) frequent[static_cast<std::size_t>(c)] = count[static_cast<std::size_t>(c)] >= min_count;
            if (max_categories_ > 0 && max_categories_ < static_cast<Index>(order.size())) {
                std::stable_sort(order.begin(), order.end(), [&](Index a, Index c) {
                    return count[static_cast<std::size_t>(a)] < count[static_cast<std::size_t>(c)];
                });
                const auto rare = order.size() - static_cast<std::size_t>(max_categories_ - 1);
                for (std::size_t i = 0; i < rare; ++i) frequent[static_cast<std::size_t>(order[i])] = 0;
            }
            Index n_rare = 0;
            for (Index c : order) n_rare += !frequent[static_cast<std::size_t>(c)];
            for (Index c = 0; c < k; ++c)
                if (frequent[static_cast<std::size_t>(c)]) {
                    b.slot[static_cast<std::size_t>(c)] = b.width++;
                    b.names.push_back(std::to_string(c));
                }
            if (n_rare > 0) {
                b.infrequent = true;
                for (Index c : order)
                    if (!frequent[static_cast<std::size_t>(c)]) b.slot[static_cast<std::size_t>(c)] = b.width;
                ++b.width;
                b.names.push_back("infrequent");
            }
            for (Index c = 0; c < k; ++c)
                if (b.slot[static_cast<std::size_t>(c)] >= 0) encoded_ones += count[static_cast<std::size_t>(c)];
            blocks_.push_back(std::move(b));
        }
        // scikit-learn's ColumnTransformer rule (sparse_threshold=0.3): sparse rows when
        // fewer than 30% of the encoded cells are stored, and the model takes them.
        const double cells = rows * static_cast<double>(out_width());
        const double stored = rows * static_cast<double>(in_features_ - static_cast<Index>(blocks_.size())) + encoded_ones;
        sparse_ = sparse_allowed_ && cells > 0 && stored < kOneHotSparseDensity * cells;
    }

    // The encoded rows as a row-major sparse matrix: each numeric cell stored (zeros
    // too, so that a scaler can centre the column in place), one entry per known category.
    Features sparse_rows(const DenseView& in) const {
        const Index numeric = in_features_ - static_cast<Index>(blocks_.size());
        const Index width = out_width();
        if (width > std::numeric_limits<int>::max() ||
            static_cast<double>(in.rows()) * static_cast<double>(in_features_) > std::numeric_limits<int>::max())
            throw DataError("onehot: " + std::to_string(in.rows()) + " rows of " + std::to_string(width) +
                            " columns hold more entries than a sparse matrix indexes (2^31 - 1)");
        SparseMatrix out(in.rows(), width);
        out.reserve(in.rows() * (numeric + static_cast<Index>(blocks_.size())));
        for (Index r = 0; r < in.rows(); ++r) {
            out.startVec(r);
            encode_row(in, r, [&](Index c, double v) { out.insertBack(r, c) = v; });
        }
        out.finalize();
        return Features(std::move(out));
    }

    // Calls put(column, value) for the encoded cells of row r, in column order: each
    // numeric cell, and a 1 in the column of a known category.
    template <class Put>
    void encode_row(const DenseView& in, Index r, Put&& put) const {
        Index o = 0;
        std::size_t b = 0;
        for (Index j = 0; j < in.cols(); ++j) {
            if (b < blocks_.size() && blocks_[b].column == j) {
                const Block& blk = blocks_[b++];
                const double x = in(r, j);
                if (x >= 0 && x < static_cast<double>(blk.slot.size())) {
                    const int s = blk.slot[static_cast<std::size_t>(x)];
                    if (s >= 0) put(o + s, 1.0);
                }
                o += blk.width;
            } else {
                put(o++, in(r, j));
            }
        }
    }

    Index out_width() const {
        Index w = in_features_;
        for (const auto& b : blocks_) w += b.width - 1;
        return w;
    }

    Index max_categories_ = 0;  // 0 = no limit
    double min_frequency_ = 0;
    Index in_features_ = 0;
    std::vector<Block> blocks_;
    bool sparse_allowed_ = false;  // the model takes sparse rows ("sparse" in the spec)
    bool sparse_ = false;          // fitted: the encoding is wide enough to give sparse rows
};

}  // namespace

bool is_impute_step(const std::string& spec) { return spec == "impute" || starts_with(spec, "impute:"); }
std::unique_ptr<Transformer> make_impute_step(const std::string& spec) { return std::make_unique<Imputer>(spec); }
bool is_onehot_step(const std::string& spec) { return spec == "onehot" || starts_with(spec, "onehot:"); }
std::unique_ptr<Transformer> make_onehot_step(const std::string& spec) { return std::make_unique<OneHotEncoder>(spec); }

void set_category_names(Transformer& onehot, const CategoryLists& categories) {
    if (auto* e = dynamic_cast<OneHotEncoder*>(&onehot)) e->name_categories(categories);
}

}  // namespace kestrel
