// A multiclass wrapper's combination of its members' scores (multiclass_wrapper.cpp, ecoc.cpp),
// the members' scores [N, members] built by the exporter of their family: one-vs-rest gives
// them as the class scores (the label their argmax), one-vs-one its votes and decision values,
// error-correcting output codes the decoding of them against each class's codeword.
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

}  // namespace

OnnxScores onnx_multiclass_scores(const Model& model, const MulticlassWrapper& wrapper, const std::string& members,
                                  OnnxGraphBuilder& g) {
    if (model.estimator().has_predict_proba())
        throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " wrapper's probabilities of " +
                            model.model_name() + " have no ONNX form here");
    const auto k = static_cast<Index>(model.classes().size());
    if (wrapper.strategy_name() == "ovr") return OnnxScores{members, false};  // the label: their argmax
    if (wrapper.strategy_name() == "ovo") return one_vs_one(k, members, g);
    if (const auto* ecoc = dynamic_cast<const Ecoc*>(&wrapper)) return error_correcting_codes(*ecoc, members, g);
    throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " multiclass strategy of " + model.model_name() +
                        " has no ONNX form here (ovr, ovo and ecoc export)");
}

}  // namespace kestrel
