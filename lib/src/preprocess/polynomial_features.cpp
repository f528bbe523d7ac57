#include "kestrel/preprocess/polynomial_features.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
// Past this every count is "too many": far beyond any width a machine can hold, and
// small enough that a sum of two never wraps.
constexpr std::uint64_t kHuge = std::uint64_t{1} << 62;

// Degrees beyond d add nothing without repeated factors.
int effective_degree(Index d, int degree, bool interaction_only) {
    if (!interaction_only) return degree;
    return static_cast<int>(std::min<Index>(degree, d));
}

// C(n, k) for k <= n, saturated: loops over the smaller of k and n - k.
std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
    k = std::min(k, n - k);
    std::uint64_t c = 1;
    for (std::uint64_t i = 1; i <= k; ++i) {
        // c·(n−k+i) = i·C(n−k+i, i): divided before multiplying, so it cannot overflow
        // unless the result does (i/g, coprime to c/g, divides n−k+i).
        const std::uint64_t g = std::gcd(c, i);
        if (__builtin_mul_overflow(c / g, (n - k + i) / (i / g), &c) || c > kHuge) return kSaturated;
    }
    return c;
}

// Where each degree's monomials start in an expanded row: begin[k][i] is the column
// of the first degree-k monomial whose lowest feature is i; begin[k][d] ends degree k.
// A degree-k monomial x_i·m is x_i times a degree-(k-1) monomial m whose lowest feature
// is >= i (> i without repeats): those are one contiguous run of the degree below,
// which is how scikit-learn both orders and computes the columns.
class Layout {
public:
    Layout(Index d, int degree, bool interaction_only)
        : d_(d), interaction_only_(interaction_only), degree_(effective_degree(d, degree, interaction_only)) {
        if (degree_ < 1) return;
        // One small table, except for a degree in the millions on a few features (a
        // wide but legal expansion of one column, or a model file's claim): checked.
        const auto entries = (static_cast<std::uint64_t>(degree_) + 1) * static_cast<std::uint64_t>(d + 1);
        check_memory(entries * sizeof(Index), 0,
                     option_named("poly") + " " + std::to_string(degree) + " column layout");
        begin_.assign(entries, 0);
        for (Index i = 0; i <= d; ++i) at(1, i) = i;
        for (int k = 2; k <= degree_; ++k) {
            Index pos = end(k - 1);
            for (Index i = 0; i < d; ++i) {
                at(k, i) = pos;
                pos += end(k - 1) - source_begin(k - 1, i);
            }
            at(k, d) = pos;
        }
    }
    int degree() const { return degree_; }
    Index width() const { return degree_ < 1 ? 0 : end(degree_); }
    Index begin(int k, Index i) const { return begin_[slot(k, i)]; }
    Index end(int k) const { return begin(k, d_); }
    // First degree-k monomial that feature i may multiply.
    Index source_begin(int k, Index i) const { return begin(k, interaction_only_ ? i + 1 : i); }

private:
    std::size_t slot(int k, Index i) const {
        return static_cast<std::size_t>(k) * static_cast<std::size_t>(d_ + 1) + static_cast<std::size_t>(i);
    }
    Index& at(int k, Index i) { return begin_[slot(k, i)]; }

    Index d_;
    bool interaction_only_;
    int degree_;
    std::vector<Index> begin_;
};

// n * w * bytes, or "too much" when the product does not fit.
std::uint64_t table_bytes(Index n, Index w, std::uint64_t bytes) {
    const auto un = static_cast<std::uint64_t>(n), uw = static_cast<std::uint64_t>(w);
    if (uw != 0 && un > kHuge / bytes / uw) return kHuge;
    return un * uw * bytes;
}

void expand_dense_row(const Layout& L, const double* x, Index d, double* out) {
    std::copy(x, x + d, out);
    for (int k = 2; k <= L.degree(); ++k) {
        const Index hi = L.end(k - 1);
        for (Index i = 0; i < d; ++i) {
            double* dst = out + L.begin(k, i);
            for (Index j = L.source_begin(k - 1, i); j < hi; ++j) *dst++ = x[i] * out[j];
        }
    }
}

Features expand_dense(const DenseView& X, const Layout& L) {
    const Index n = X.rows(), d = X.cols(), w = L.width();
    check_memory(table_bytes(n, w, sizeof(double)), 0,
                 option_named("poly") + " " + std::to_string(L.degree()) + " (" + std::to_string(n) + " x " +
                     std::to_string(w) + " dense)");
    DenseMatrix out(n, w);
    // Rows are independent: the result does not depend on the thread count.
#pragma omp parallel for schedule(static) if (n * w > (Index{1} << 20))
    for (Index r = 0; r < n; ++r) expand_dense_row(L, X.row(r).data(), d, out.row(r).data());
    return out;
}

// Calls f(column, value) for every monomial of the row's non-zeros (positions `idx`
// with values `val`), in increasing column order. The column of x_i·m is
// begin(k, i) + (column of m − source_begin(k−1, i)); the value is built right to
// left, x_i·(x_j·(...)), as the dense rows are.
template <class F>
void for_each_sparse_term(const Layout& L, const int* idx, const double* val, int m, bool interaction_only, F&& f) {
    if (m == 0) return;
    std::vector<int> p;
    for (int k = 1; k <= L.degree(); ++k) {
        if (interaction_only && k > m) break;
        // Positions p[0] <= p[1] <= ... (strictly increasing without repeats), in lex order.
        p.resize(static_cast<std::size_t>(k));
        for (int q = 0; q < k; ++q) p[static_cast<std::size_t>(q)] = interaction_only ? q : 0;
        while (true) {
            Index col = idx[p[static_cast<std::size_t>(k) - 1]];
            double v = val[p[static_cast<std::size_t>(k) - 1]];
            for (int q = k - 2; q >= 0; --q) {
                const int at = p[static_cast<std::size_t>(q)];
                const int degree_here = k - q;
                col = L.begin(degree_here, idx[at]) + (col - L.source_begin(degree_here - 1, idx[at]));
                v = val[at] * v;
            }
            f(col, v);
            // Next tuple: the rightmost position that can still move.
            int q = k - 1;
            while (q >= 0) {
                const int limit = interaction_only ? m - (k - q) : m - 1;
                if (p[static_cast<std::size_t>(q)] < limit) break;
                --q;
            }
            if (q < 0) break;
            ++p[static_cast<std::size_t>(q)];
            for (int r = q + 1; r < k; ++r)
                p[static_cast<std::size_t>(r)] = p[static_cast<std::size_t>(r) - 1] + (interaction_only ? 1 : 0);
        }
    }
}

Features expand_sparse(const SparseMatrix& X0, const Layout& L, int degree, bool interaction_only) {
    SparseMatrix X = X0;
    X.makeCompressed();
    const Index n = X.rows(), w = L.width();
    if (w > INT_MAX)
        throw UsageError(option_named("poly") + " " + std::to_string(degree) + " gives " + std::to_string(w) +
                         " columns, more than a sparse matrix indexes (2^31 - 1)");
    const int* outer = X.outerIndexPtr();
    // The exact non-zero count first, so nothing is allocated for an expansion too large.
    std::vector<std::uint64_t> per_row(static_cast<std::size_t>(n));
    std::uint64_t nnz = 0;
    for (Index r = 0; r < n; ++r) {
        per_row[static_cast<std::size_t>(r)] = poly_width(outer[r + 1] - outer[r], degree, interaction_only);
        nnz = std::min(kHuge, nnz + std::min(kHuge, per_row[static_cast<std::size_t>(r)]));
    }
    if (nnz > static_cast<std::uint64_t>(INT_MAX))
        throw UsageError(option_named("poly") + " " + std::to_string(degree) + " gives " + std::to_string(nnz) +
                         " non-zeros, more than a sparse matrix holds (2^31 - 1)");
    check_memory(nnz * (sizeof(double) + sizeof(int)) + static_cast<std::uint64_t>(n + 1) * sizeof(int), 0,
                 option_named("poly") + " " + std::to_string(degree) + " (" + std::to_string(nnz) + " non-zeros)");
    SparseMatrix out(n, w);
    out.resizeNonZeros(static_cast<Index>(nnz));
    int* o_outer = out.outerIndexPtr();
    o_outer[0] = 0;
    for (Index r = 0; r < n; ++r) o_outer[r + 1] = o_outer[r] + static_cast<int>(per_row[static_cast<std::size_t>(r)]);
    int* o_inner = out.innerIndexPtr();
    double* o_val = out.valuePtr();
#pragma omp parallel for schedule(dynamic, 256) if (nnz > (std::uint64_t{1} << 20))
    for (Index r = 0; r < n; ++r) {
        int pos = o_outer[r];
        for_each_sparse_term(L, X.innerIndexPtr() + outer[r], X.valuePtr() + outer[r], outer[r + 1] - outer[r],
                             interaction_only, [&](Index col, double v) {
                                 o_inner[pos] = static_cast<int>(col);
                                 o_val[pos++] = v;
                             });
    }
    return Features(std::move(out));
}

ErrorText too_wide(const PolyOptions& o, Index d, std::uint64_t width) {
    ErrorText text = option_named("poly") + " " + std::to_string(o.degree);
    if (o.interaction_only) text += " " + option_named("poly.interaction_only");
    return text + " on " + std::to_string(d) + " features gives " +
           (width >= kHuge ? std::string("more than 2^62") : std::to_string(width)) + " columns, more than " +
           option_named("poly.max_width") + " " + std::to_string(o.max_width) +
           " (lower the degree, select features first, or raise " + option_named("poly.max_width") + ")";
}

class PolynomialStep final : public Transformer {
public:
    explicit PolynomialStep(PolyOptions o) : o_(o) {}
    std::string kind() const override { return "poly"; }
    void fit(const Features& X) override {
        const std::uint64_t width = poly_width(X.cols(), o_.degree, o_.interaction_only);
        if (width > o_.max_width) throw UsageError(too_wide(o_, X.cols(), width));
        in_features_ = X.cols();
        out_features_ = static_cast<Index>(width);
    }
    // Its fit reads the width only: every rank fits the same step.
    bool fits_on_shards() const override { return true; }
    void fit_on_shards(const Features& X, const std::vector<Index>&) override { fit(X); }
    Features transform(const Features& X) const override {
        if (X.cols() != in_features_)
            throw DataError("poly: data has " + std::to_string(X.cols()) + " features, the step expects " +
                            std::to_string(in_features_));
        return polynomial_features(X, o_.degree, o_.interaction_only);
    }
    Json to_json() const override {
        return {{"type", kind()},
                {"degree", o_.degree},
                {"interaction_only", o_.interaction_only},
                {"in_features", in_features_},
                {"out_features", out_features_}};
    }
    void from_json(const Json& j) override {
        o_.degree = json_integer<int>(j.at("degree"));
        o_.interaction_only = j.at("interaction_only").get<bool>();
        in_features_ = json_integer<Index>(j.at("in_features"));
        out_features_ = json_integer<Index>(j.at("out_features"));
        if (o_.degree < 1) throw ModelStateError("poly: degree must be at least 1");
        if (in_features_ < 1) throw ModelStateError("poly: in_features must be positive");
        // A model file is untrusted: the width it claims must be the one its degree gives,
        // and small enough to index, before anything is allocated for it.
        const std::uint64_t width = poly_width(in_features_, o_.degree, o_.interaction_only);
        if (width > static_cast<std::uint64_t>(INT_MAX) || static_cast<Index>(width) != out_features_)
            throw ModelStateError("poly: out_features does not match degree and in_features");
        o_.max_width = width;
    }
    std::vector<std::string> output_names(const std::vector<std::string>& in) const override {
        if (in.empty()) return in;
        return poly_feature_names(in, o_.degree, o_.interaction_only);
    }

private:
    PolyOptions o_;
    Index in_features_ = 0, out_features_ = 0;
};

bool parse_unsigned(std::string_view text, std::uint64_t& v) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::uint64_t poly_width(Index d, int degree, bool interaction_only) {
    if (d < 1 || degree < 1) return 0;
    const auto n = static_cast<std::uint64_t>(d);
    if (!interaction_only) {
        // Σ_{k=1..D} C(d+k−1, k) = C(d+D, D) − 1
        const std::uint64_t c = binomial(n + static_cast<std::uint64_t>(degree), static_cast<std::uint64_t>(degree));
        return c == kSaturated ? kSaturated : c - 1;
    }
    const int D = effective_degree(d, degree, true);
    if (D == d) return d >= 62 ? kSaturated : (std::uint64_t{1} << d) - 1;
    std::uint64_t total = 0;
    for (int k = 1; k <= D; ++k) {
        const std::uint64_t c = binomial(n, static_cast<std::uint64_t>(k));
        if (c == kSaturated) return kSaturated;
        total += c;
        if (total > kHuge) return kSaturated;
    }
    return total;
}

Features polynomial_features(const Features& X, int degree, bool interaction_only) {
    const std::uint64_t width = poly_width(X.cols(), degree, interaction_only);
    if (width > static_cast<std::uint64_t>(std::numeric_limits<Index>::max() / 2))
        throw UsageError(option_named("poly") + " " + std::to_string(degree) + ": the expansion is too wide to hold");
    const Layout L(X.cols(), degree, interaction_only);
    if (X.is_sparse()) return expand_sparse(X.sparse_ref(), L, degree, interaction_only);
    return expand_dense(X.dense_ref(), L);
}

std::vector<std::string> poly_feature_names(const std::vector<std::string>& in, int degree, bool interaction_only) {
    const auto d = static_cast<Index>(in.size());
    const Layout L(d, degree, interaction_only);
    // The exponents of each column, expanded as the values are, then written as
    // scikit-learn writes them: factors by feature index, "^p" for p > 1, joined by spaces.
    std::vector<std::vector<std::pair<Index, int>>> terms(static_cast<std::size_t>(L.width()));
    for (Index i = 0; i < d; ++i) terms[static_cast<std::size_t>(i)] = {{i, 1}};
    for (int k = 2; k <= L.degree(); ++k)
        for (Index i = 0; i < d; ++i) {
            Index dst = L.begin(k, i);
            for (Index j = L.source_begin(k - 1, i); j < L.end(k - 1); ++j) {
                auto t = terms[static_cast<std::size_t>(j)];
                if (t.front().first == i) ++t.front().second;
                else t.insert(t.begin(), {i, 1});
                terms[static_cast<std::size_t>(dst++)] = std::move(t);
            }
        }
    std::vector<std::string> out;
    out.reserve(terms.size());
    for (const auto& t : terms) {
        std::string name;
        for (const auto& [feature, power] : t) {
            if (!name.empty()) name += ' ';
            name += in[static_cast<std::size_t>(feature)];
            if (power > 1) (name += '^') += std::to_string(power);
        }
        out.push_back(std::move(name));
    }
    return out;
}

std::string poly_step_spec(const PolyOptions& o) {
    std::string s = "poly:degree=" + std::to_string(o.degree);
    if (o.interaction_only) s += ",interaction_only=1";
    if (o.max_width != kDefaultMaxPolyWidth) s += ",max_width=" + std::to_string(o.max_width);
    return s;
}

bool is_poly_step(const std::string& spec) { return spec == "poly" || spec.rfind("poly:", 0) == 0; }

PolyOptions parse_poly_step(const std::string& spec) {
    PolyOptions o;
    if (spec == "poly") return o;
    if (!is_poly_step(spec)) throw UsageError("'" + spec + "' is not a poly step");
    std::string_view rest(spec);
    rest.remove_prefix(5);
    bool has_degree = false;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const auto eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        const std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
        std::uint64_t v = 0;
        if (!parse_unsigned(value, v)) throw UsageError("poly step: '" + std::string(item) + "' is not key=integer");
        if (key == "degree") {
            if (v < 1 || v > static_cast<std::uint64_t>(INT_MAX))
                throw UsageError(option_named("poly") + ": the degree must be at least 1");
            o.degree = static_cast<int>(v);
            has_degree = true;
        } else if (key == "interaction_only") {
            o.interaction_only = v != 0;
        } else if (key == "max_width") {
            if (v < 1) throw UsageError(option_named("poly.max_width") + " must be at least 1");
            o.max_width = v;
        } else {
            throw UsageError("poly step: unknown option '" + std::string(key) +
                             "' (valid: degree, interaction_only, max_width)");
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    if (!has_degree) throw UsageError("poly step '" + spec + "' has no degree");
    return o;
}

std::unique_ptr<Transformer> make_poly_step(const std::string& spec) {
    return std::make_unique<PolynomialStep>(parse_poly_step(spec));
}

void set_poly_step(std::vector<std::string>& steps, const PolyOptions& o) {
    steps.erase(std::remove_if(steps.begin(), steps.end(), is_poly_step), steps.end());
    if (o.degree <= 1) return;
    // After the steps that decide which values and columns there are, before those
    // that rescale what the model sees.
    auto at = steps.begin();
    for (auto it = steps.begin(); it != steps.end(); ++it)
        if (*it == "impute_mean" || it->rfind("select_columns", 0) == 0) at = it + 1;
    steps.insert(at, poly_step_spec(o));
}

}  // namespace kestrel
