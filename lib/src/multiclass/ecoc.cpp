#include "kestrel/multiclass/ecoc.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

// Seed stream of the code matrix: any fixed number, apart from the members' streams.
constexpr std::uint64_t kCodeStream = 0xec0c;

double log1p_exp_neg(double z) {  // log(1 + exp(-z)) without overflow
    return z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
}

bool same_problem(const CodeMatrix& m, Index a, Index b) {
    return m.col(a) == m.col(b) || m.col(a) == -m.col(b);
}

bool rows_distinct(const CodeMatrix& m) {
    for (Index a = 0; a < m.rows(); ++a)
        for (Index b = a + 1; b < m.rows(); ++b)
            if (m.row(a) == m.row(b)) return false;
    return true;
}

}  // namespace

CodeMatrix random_ecoc_code(Index k, double code_size, std::uint64_t seed) {
    if (k < 2) throw InternalError("ecoc: a code needs two classes or more");
    if (!(code_size > 0) || !std::isfinite(code_size)) throw ParamError("parameter code_size must be > 0");
    const auto bits = std::max<Index>(1, static_cast<Index>(std::floor(code_size * static_cast<double>(k))));
    // Distinct non-constant columns up to complement: 2^(k-1) - 1 (capped: any L fits below it).
    const double distinct = k > 60 ? 1e18 : std::ldexp(1.0, static_cast<int>(k - 1)) - 1;
    // k classes need ceil(log2 k) bits to all differ.
    const bool rows_can_differ = bits >= 63 || std::ldexp(1.0, static_cast<int>(bits)) >= static_cast<double>(k);
    Rng rng(derive_seed(seed, kCodeStream));
    CodeMatrix code(k, bits);
    for (int attempt = 0; attempt < 100; ++attempt) {
        for (Index m = 0; m < bits; ++m) {
            for (int tries = 0;; ++tries) {
                for (Index c = 0; c < k; ++c) code(c, m) = rng.below(2) ? 1 : -1;
                if (code.col(m).minCoeff() == code.col(m).maxCoeff()) continue;  // no binary problem
                if (static_cast<double>(m) >= distinct || tries >= 1000) break;
                bool repeated = false;
                for (Index e = 0; e < m && !repeated; ++e) repeated = same_problem(code, e, m);
                if (!repeated) break;
            }
        }
        if (!rows_can_differ || rows_distinct(code)) break;
    }
    return code;
}

Matrix ecoc_decode_loss(const Matrix& margins, const CodeMatrix& code) {
    const Index n = margins.rows(), k = code.rows(), bits = code.cols();
    Matrix out(n, k);
    for (Index i = 0; i < n; ++i)
        for (Index c = 0; c < k; ++c) {
            double loss = 0;
            for (Index m = 0; m < bits; ++m) loss += log1p_exp_neg(code(c, m) * margins(i, m));
            out(i, c) = -loss;
        }
    return out;
}

Matrix ecoc_decode_hamming(const Matrix& margins, const CodeMatrix& code) {
    const Index n = margins.rows(), k = code.rows(), bits = code.cols();
    const Matrix loss = -ecoc_decode_loss(margins, code);
    Matrix out(n, k);
    for (Index i = 0; i < n; ++i)
        for (Index c = 0; c < k; ++c) {
            double h = 0;
            for (Index m = 0; m < bits; ++m) {
                const double s = margins(i, m) > 0 ? 1.0 : margins(i, m) < 0 ? -1.0 : 0.0;
                h += (1 - s * code(c, m)) / 2;
            }
            out(i, c) = -(h + loss(i, c) / (3 * (loss(i, c) + 1)));
        }
    return out;
}

std::vector<std::pair<std::vector<Index>, std::vector<Index>>> Ecoc::problems(Index k) const {
    if (code_.rows() != k)
        throw InternalError("ecoc code has " + std::to_string(code_.rows()) + " rows for " + std::to_string(k) +
                            " classes");
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> out;
    for (Index m = 0; m < code_.cols(); ++m) {
        std::vector<Index> neg, pos;
        for (Index c = 0; c < k; ++c) (code_(c, m) > 0 ? pos : neg).push_back(c);
        out.emplace_back(std::move(neg), std::move(pos));
    }
    return out;
}

Matrix Ecoc::combine_decisions(const Matrix& member_scores) const {
    Matrix margins = member_scores;
    if (!members_give_decisions()) {
        // member_scores holds P(positive) - 1/2; the margin is its logit.
        margins = member_scores.unaryExpr([](double s) {
            const double p = std::clamp(s + 0.5, 1e-12, 1 - 1e-12);
            return std::log(p / (1 - p));
        });
    }
    return get_string(params(), "decoding") == "hamming" ? ecoc_decode_hamming(margins, code_)
                                                         : ecoc_decode_loss(margins, code_);
}

Matrix Ecoc::combine_probabilities(const std::vector<Matrix>&) const {
    throw InternalError("ecoc gives no probabilities");
}

void Ecoc::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification) throw UsageError("multiclass=ecoc applies to classification only");
    code_ = random_ecoc_code(data.n_classes(), get_real(params(), "code_size"), ctx.seed);
    MulticlassWrapper::do_fit(data, ctx);
}

Json Ecoc::do_save_state() const {
    Json s = MulticlassWrapper::do_save_state();
    Json rows = Json::array();
    for (Index c = 0; c < code_.rows(); ++c) {
        Json row = Json::array();
        for (Index m = 0; m < code_.cols(); ++m) row.push_back(code_(c, m));
        rows.push_back(row);
    }
    s["code"] = rows;
    return s;
}

void Ecoc::do_load_state(const Json& state) {
    const auto rows = state.at("code").get<std::vector<std::vector<int>>>();
    if (rows.empty() || rows.front().empty()) throw ModelStateError("ecoc code is empty");
    CodeMatrix code(static_cast<Index>(rows.size()), static_cast<Index>(rows.front().size()));
    for (std::size_t c = 0; c < rows.size(); ++c) {
        if (rows[c].size() != rows.front().size()) throw ModelStateError("ecoc code rows differ in length");
        for (std::size_t m = 0; m < rows[c].size(); ++m) {
            if (rows[c][m] != 1 && rows[c][m] != -1) throw ModelStateError("ecoc code entries must be -1 or 1");
            code(static_cast<Index>(c), static_cast<Index>(m)) = rows[c][m];
        }
    }
    if (code.rows() != n_classes()) throw ModelStateError("ecoc code rows differ from the class count");
    code_ = std::move(code);
    MulticlassWrapper::do_load_state(state);
}

}  // namespace kestrel
