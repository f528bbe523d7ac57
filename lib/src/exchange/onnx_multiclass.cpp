// A multiclass wrapper's combination of its members' scores (multiclass_wrapper.cpp, ecoc.cpp),
// the members' scores [N, members] built by the exporter of their family: one-vs-rest gives
// them as the class scores (the label their argmax), one-vs-one its votes and decision values,
// error-correcting output codes the decoding of them against each class's codeword; and the
// pairwise coupling of pair probabilities into class probabilities (pairwise_coupling.cpp).
// Members of a family without a combined form of its own (gbdt, forest, tree, svc, knn,
// adaboost) give their columns through onnx_wrapper_scores, each member exported as alone.
#include <algorithm>

#include "kestrel/exchange/export.hpp"
#include "kestrel/multiclass/ecoc.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using A = OnnxAttribute;

// A [members, k] matrix with 1 at (m, class(m)).
std::string member_to_class(OnnxGraphBuilder& g, Index k, const std::vector<Index>& classes) {
    const auto members = static_cast<Index>(classes.size());
    std::vector<double> v(static_cast<std::size_t>(members * k), 0.0);
    for (Index m = 0; m < members; ++m) v[static_cast<std::size_t>(m * k + classes[static_cast<std::size_t>(m)])] = 1.0;
    return g.doubles(std::move(v), {members, k});
}

// One-vs-one's combine_decisions on the members' scores S [N, pairs]: member (i, j) votes
// for j where its score is above 0, else for i; the decision is votes + conf / (3(|conf| + 1)),
// conf(j) += s and conf(i) −= s; the label is the most votes, the lower class on ties.
OnnxScores one_vs_one(Index k, const std::string& S, OnnxGraphBuilder& g) {
    std::vector<Index> first, second;
    for (Index i = 0; i < k; ++i)
        for (Index j = i + 1; j < k; ++j) {
            first.push_back(i);
            second.push_back(j);
        }
    const std::string to_first = member_to_class(g, k, first), to_second = member_to_class(g, k, second);
    const std::string won = g.add("Cast", {g.add("Greater", {S, g.double_scalar(0.0)})}, {A::of_int("to", 11)});
    const std::string lost = g.add("Sub", {g.double_scalar(1.0), won});
    const std::string votes =
        g.add("Add", {g.add("MatMul", {won, to_second}), g.add("MatMul", {lost, to_first})});
    const std::string conf = g.add("MatMul", {S, g.add("Sub", {to_second, to_first})});
    const std::string shrink = g.add("Mul", {g.add("Add", {g.add("Abs", {conf}), g.double_scalar(1.0)}), g.double_scalar(3.0)});
    return OnnxScores{g.add("Add", {votes, g.add("Div", {conf, shrink})}), false, votes};
}

// Ecoc::combine_decisions on the members' decision values S [N, bits] (ecoc.cpp): per class c
// the loss L_c = Σ_m log(1 + exp(−M_cm s_m)), evaluated as max(−t, 0) + log(1 + exp(−|t|))
// (kestrel's log1p, to 1e-16 a term), and the class score −L_c; Hamming decoding scores
// −(h_c + L_c / (3(L_c + 1))), h_c = Σ_m (1 − sign(s_m) M_cm) / 2 (halves: exact). The
// label is the first largest score; two classes keep their two columns.
OnnxScores error_correcting_codes(const Ecoc& ecoc, const std::string& S, OnnxGraphBuilder& g) {
    const CodeMatrix& code = ecoc.code();
    const Index k = code.rows(), bits = code.cols();
    std::vector<double> M;  // [1, k, bits]
    for (Index c = 0; c < k; ++c)
        for (Index m = 0; m < bits; ++m) M.push_back(code(c, m));
    const std::string t = g.add("Mul", {g.add("Unsqueeze", {S, g.int64s({1}, {1})}), g.doubles(M, {1, k, bits})});
    const std::string zero = g.double_scalar(0.0), one = g.double_scalar(1.0);
    const std::string per_bit =
        g.add("Add", {g.add("Max", {g.add("Neg", {t}), zero}),
                      g.add("Log", {g.add("Add", {one, g.add("Exp", {g.add("Neg", {g.add("Abs", {t})})})})})});
    const std::string loss = g.add("ReduceSum", {per_bit, g.int64s({2}, {1})}, {A::of_int("keepdims", 0)});  // [N, k]
    std::string scores;
    if (get_string(ecoc.params(), "decoding") == "hamming") {
        std::vector<double> Mt;  // [bits, k]
        for (Index m = 0; m < bits; ++m)
            for (Index c = 0; c < k; ++c) Mt.push_back(code(c, m));
        const std::string agreement = g.add("MatMul", {g.add("Sign", {S}), g.doubles(std::move(Mt), {bits, k})});
        const std::string h =
            g.add("Div", {g.add("Sub", {g.double_scalar(static_cast<double>(bits)), agreement}), g.double_scalar(2.0)});
        const std::string tie = g.add("Div", {loss, g.add("Mul", {g.add("Add", {loss, one}), g.double_scalar(3.0)})});
        scores = g.add("Neg", {g.add("Add", {h, tie})});
    } else {
        scores = g.add("Neg", {loss});
    }
    OnnxScores out{scores, false, scores};
    out.columns = k;
    return out;
}

// The sum of a dot product's terms x as Eigen 3.4 adds them in p.dot(q) for a dynamic size
// (its vectorised redux with SSE2's packets of two doubles, kestrel's default build): two
// lanes (the even and the odd terms) in two packet accumulators over the whole pairs of
// packets, the accumulators added, then one more packet, the two lanes added, then the terms
// past the last whole packet one by one. Checked bit for bit against p.dot(q) for 1 to 17
// terms. (A build with wider vectors, -march=native with AVX, adds in another order: the
// coupling's result moves by a rounding, not its iterations unless a row's stopping test lies
// within that rounding of eps.)
std::string eigen_dot_sum(OnnxGraphBuilder& g, const std::vector<std::string>& x) {
    const std::size_t size = x.size(), packet = 2;
    const std::size_t whole2 = size / (2 * packet) * (2 * packet), whole = size / packet * packet;
    const auto add = [&](const std::string& a, const std::string& b) { return g.add("Add", {a, b}); };
    if (whole == 0) return x[0];
    std::string lane0 = x[0], lane1 = x[1];
    if (whole > packet) {
        std::string next0 = x[2], next1 = x[3];
        for (std::size_t i = 2 * packet; i < whole2; i += 2 * packet) {
            lane0 = add(lane0, x[i]);
            lane1 = add(lane1, x[i + 1]);
            next0 = add(next0, x[i + 2]);
            next1 = add(next1, x[i + 3]);
        }
        lane0 = add(lane0, next0);
        lane1 = add(lane1, next1);
        if (whole > whole2) {
            lane0 = add(lane0, x[whole2]);
            lane1 = add(lane1, x[whole2 + 1]);
        }
    }
    std::string sum = add(lane0, lane1);
    for (std::size_t i = whole; i < size; ++i) sum = add(sum, x[i]);
    return sum;
}

// The coupling's matrix Q as [N, 1] entries from the pairs' r: Q_tt = Σ_{j≠t} r_jt² added
// from j = 0 up, Q_tj = −r_jt r_tj (so Q is symmetric), as pairwise_coupling fills it.
std::vector<std::vector<std::string>> coupling_matrix(OnnxGraphBuilder& g, Index k, const std::string& upper,
                                                      const std::string& lower) {
    const auto n = static_cast<std::size_t>(k);
    std::vector<std::vector<std::string>> r(n, std::vector<std::string>(n)), q = r;
    std::int64_t pair = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j, ++pair) {
            r[i][j] = onnx_column(g, upper, pair);
            r[j][i] = onnx_column(g, lower, pair);
        }
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t j = 0; j < n; ++j) {
            if (j == t) continue;
            const std::string square = g.add("Mul", {r[j][t], r[j][t]});
            q[t][t] = q[t][t].empty() ? square : g.add("Add", {q[t][t], square});
            q[t][j] = g.add("Neg", {g.add("Mul", {r[j][t], r[t][j]})});
        }
    return q;
}

// One pass of pairwise_coupling's loop over the classes t on every row (p, Qp [N, k] and pQp
// [N, 1]), each expression as kestrel writes it: diff = (−Qp_t + pQp) / Q_tt; p_t += diff;
// pQp = (pQp + diff (diff Q_tt + 2 Qp_t)) / (1 + diff)²; Qp = (Qp + diff Q_·t) / (1 + diff);
// p /= 1 + diff. `q_tt` are the diagonal [N, 1], `q_col` Q's columns [N, k], `is_class` the
// [1, k] masks of each class's column, all in the outer graph.
struct CouplingPass {
    std::string p, qp;
};
CouplingPass coupling_pass(OnnxGraphBuilder& body, CouplingPass s, std::string pqp,
                           const std::vector<std::string>& q_tt, const std::vector<std::string>& q_col,
                           const std::vector<std::string>& is_class) {
    const std::string one = body.double_scalar(1.0), two = body.double_scalar(2.0);
    for (std::size_t t = 0; t < q_tt.size(); ++t) {
        const std::string qp_t = onnx_column(body, s.qp, static_cast<std::int64_t>(t));
        const std::string diff = body.add("Div", {body.add("Sub", {pqp, qp_t}), q_tt[t]});
        s.p = body.add("Where", {is_class[t], body.add("Add", {s.p, diff}), s.p});
        const std::string scale = body.add("Add", {one, diff});
        const std::string grow =
            body.add("Mul", {diff, body.add("Add", {body.add("Mul", {diff, q_tt[t]}), body.add("Mul", {two, qp_t})})});
        pqp = body.add("Div", {body.add("Add", {pqp, grow}), body.add("Mul", {scale, scale})});
        s.qp = body.add("Div", {body.add("Add", {s.qp, body.add("Mul", {diff, q_col[t]})}), scale});
        s.p = body.add("Div", {s.p, scale});
    }
    return s;
}

}  // namespace

std::string onnx_pairwise_coupling(OnnxGraphBuilder& g, Index k, const std::string& upper, const std::string& lower) {
    using T = OnnxType;
    const auto n = static_cast<std::size_t>(k);
    const auto q = coupling_matrix(g, k, upper, lower);
    // Before the loop: p = 1/k each, Qp = Q p (Eigen's matrix-vector product adds each row's
    // terms from j = 0 up), and per class its diagonal entry, column and column mask.
    const std::string uniform = g.double_scalar(1.0 / static_cast<double>(k));
    std::vector<std::string> qp, q_tt, q_col, is_class;
    std::vector<std::int64_t> range;
    for (Index c = 0; c < k; ++c) range.push_back(c);
    const std::string classes = g.int64s(range, {1, k});
    for (std::size_t i = 0; i < n; ++i) {
        std::string sum;
        for (std::size_t j = 0; j < n; ++j) {
            const std::string term = g.add("Mul", {q[i][j], uniform});
            sum = sum.empty() ? term : g.add("Add", {sum, term});
        }
        qp.push_back(sum);
        q_tt.push_back(q[i][i]);
        std::vector<std::string> column;
        for (std::size_t r = 0; r < n; ++r) column.push_back(q[r][i]);
        q_col.push_back(g.add("Concat", column, {A::of_int("axis", 1)}));
        is_class.push_back(g.add("Equal", {classes, g.int64s({static_cast<std::int64_t>(i)}, {1})}));
    }
    const std::string qp0 = g.add("Concat", qp, {A::of_int("axis", 1)});
    const std::string p0 =
        g.add("Expand", {g.double_row(std::vector<double>(n, 1.0 / static_cast<double>(k))), g.add("Shape", {qp0})});

    // The body: every row's stopping rule max_t |Qp_t − pQp| < 0.005 / k, pQp = p·Qp as Eigen
    // adds it; a pass over the classes; the rows that stopped keep their p and Qp. The loop
    // goes on while a row has not stopped, for at most max(100, k) iterations.
    OnnxGraphBuilder body(g);
    const std::string iteration = body.fresh("iteration"), running_in = body.fresh("running");
    const std::string p_in = body.fresh("p"), qp_in = body.fresh("qp");
    body.add_input({.name = iteration, .type = T::int64, .dims = {}});
    body.add_input({.name = running_in, .type = T::boolean, .dims = {}});
    body.add_input({.name = p_in, .type = T::float64, .dims = {-1, k}});
    body.add_input({.name = qp_in, .type = T::float64, .dims = {-1, k}});
    const std::string product = body.add("Mul", {p_in, qp_in});
    std::vector<std::string> terms;
    for (Index t = 0; t < k; ++t) terms.push_back(onnx_column(body, product, t));
    const std::string pqp = eigen_dot_sum(body, terms);
    const std::string error = body.add("ReduceMax", {body.add("Abs", {body.add("Sub", {qp_in, pqp})})},
                                       {A::of_ints("axes", {1}), A::of_int("keepdims", 1)});
    const std::string stopped = body.add("Less", {error, body.double_scalar(0.005 / static_cast<double>(k))});
    const CouplingPass next = coupling_pass(body, {p_in, qp_in}, pqp, q_tt, q_col, is_class);
    const std::string p_out = body.add("Where", {stopped, p_in, next.p});
    const std::string qp_out = body.add("Where", {stopped, qp_in, next.qp});
    const std::string still_running = body.add(
        "ReduceSum", {body.add("Cast", {body.add("Not", {stopped})}, {A::of_int("to", static_cast<int>(T::float64))})},
        {A::of_int("keepdims", 0)});
    const std::string running_out = body.add("Greater", {still_running, body.doubles({0.0}, {})});
    body.add_output({.name = running_out, .type = T::boolean, .dims = {}});
    body.add_output({.name = p_out, .type = T::float64, .dims = {-1, k}});
    body.add_output({.name = qp_out, .type = T::float64, .dims = {-1, k}});

    const std::int64_t max_iter = std::max<std::int64_t>(100, k);
    const auto out = g.add_outputs("Loop", {g.int64s({max_iter}, {}), g.boolean_scalar(true), p0, qp0}, 2,
                                   {A::of_graph("body", body.take("pairwise_coupling"))});
    return out[0];
}

OnnxScores onnx_multiclass_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper, const std::string& members,
                                  OnnxGraphBuilder& g, const std::string& positive) {
    const Model& model = e.model;
    const Index k = e.classes;
    OnnxScores out = [&] {
        if (wrapper.strategy_name() == "ovr") return OnnxScores{members, false};  // the label: their argmax
        if (wrapper.strategy_name() == "ovo") return one_vs_one(k, members, g);
        if (const auto* ecoc = dynamic_cast<const Ecoc*>(&wrapper)) return error_correcting_codes(*ecoc, members, g);
        throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " multiclass strategy of " +
                            model.model_name() + " has no ONNX form here (ovr, ovo and ecoc export)");
    }();
    if (!wrapper.has_predict_proba()) return out;
    if (positive.empty())
        throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " wrapper's probabilities of " +
                            model.model_name() + " have no ONNX form here");
    // The label stays the decisions' (MulticlassWrapper::predict); the probabilities are
    // combine_probabilities' of the members' P(positive): one-vs-rest each over the row's sum
    // (added left to right; 1/k each where it is not above 0), one-vs-one their pairwise
    // coupling with r(i, j) = 1 − p, r(j, i) = p, p clipped to [1e-7, 1 − 1e-7].
    std::string p;
    if (wrapper.strategy_name() == "ovr") {
        std::string sum;
        for (Index c = 0; c < k; ++c) {
            const std::string column = onnx_column(g, positive, c);
            sum = sum.empty() ? column : g.add("Add", {sum, column});
        }
        p = g.add("Where", {g.add("Greater", {sum, g.double_scalar(0.0)}), g.add("Div", {positive, sum}),
                            g.double_scalar(1.0 / static_cast<double>(k))});
    } else {
        const std::string clipped = g.add("Clip", {positive, g.double_scalar(1e-7), g.double_scalar(1 - 1e-7)});
        p = onnx_pairwise_coupling(g, k, g.add("Sub", {g.double_scalar(1.0), clipped}), clipped);
    }
    if (out.label_scores.empty()) out.label_scores = out.tensor;
    out.decision = out.tensor;
    out.tensor = p;
    out.probabilities = true;
    return out;
}

OnnxScores onnx_wrapper_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper, const std::string& X,
                               bool float_inputs, OnnxGraphBuilder& g) {
    const bool proba = wrapper.has_predict_proba();
    const bool ecoc = dynamic_cast<const Ecoc*>(&wrapper) != nullptr;
    std::vector<std::string> decisions, positives;
    for (const auto& member : wrapper.fitted_members()) {
        const OnnxScores s = onnx_estimator_scores(OnnxEstimator::member(e, *member, 2), X, float_inputs, g);
        const auto refuse = [&](const std::string& what) {
            return ExportRefused("ONNX export: the " + what + " of " + member->name() + " as a member of the " +
                                 wrapper.strategy_name() + " wrapper of " + e.model.model_name() +
                                 " have no ONNX form here");
        };
        // MulticlassWrapper::member_scores: the member's decision value (its one column), else
        // its P(positive) − ½.
        if (member->has_decision_function()) {
            const std::string& d = s.probabilities ? s.decision : s.tensor;
            if (d.empty() || s.columns > 1) throw refuse("decision values");
            decisions.push_back(d);
        } else {
            if (!s.probabilities) throw refuse("probabilities");
            std::string score = g.add("Sub", {onnx_column(g, s.tensor, 1), g.double_scalar(0.5)});
            if (ecoc) {
                // Ecoc::combine_decisions: the margin is the logit of (score + ½) clipped to
                // [1e-12, 1 − 1e-12].
                const std::string p = g.add("Clip", {g.add("Add", {score, g.double_scalar(0.5)}),
                                                     g.double_scalar(1e-12), g.double_scalar(1 - 1e-12)});
                score = g.add("Log", {g.add("Div", {p, g.add("Sub", {g.double_scalar(1.0), p})})});
            }
            decisions.push_back(score);
        }
        if (!proba) continue;
        if (!s.probabilities) throw refuse("probabilities");
        positives.push_back(onnx_column(g, s.tensor, 1));
    }
    const auto side_by_side = [&](const std::vector<std::string>& columns) {
        return columns.size() == 1 ? columns.front() : g.add("Concat", columns, {A::of_int("axis", 1)});
    };
    return onnx_multiclass_scores(e, wrapper, side_by_side(decisions), g,
                                  proba ? side_by_side(positives) : std::string());
}

}  // namespace kestrel
