// A multiclass wrapper's combination of its members' scores (multiclass_wrapper.cpp), the
// members' scores [N, members] built by the exporter of their family: one-vs-rest gives them
// as the class scores (the label their argmax), one-vs-one its votes and decision values.
#include "kestrel/exchange/export.hpp"
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

}  // namespace

OnnxScores onnx_multiclass_scores(const Model& model, const MulticlassWrapper& wrapper, const std::string& members,
                                  OnnxGraphBuilder& g) {
    if (model.estimator().has_predict_proba())
        throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " wrapper's probabilities of " +
                            model.model_name() + " have no ONNX form here");
    const auto k = static_cast<Index>(model.classes().size());
    if (wrapper.strategy_name() == "ovr") return OnnxScores{members, false};  // the label: their argmax
    if (wrapper.strategy_name() == "ovo") return one_vs_one(k, members, g);
    throw ExportRefused("ONNX export: the " + wrapper.strategy_name() + " multiclass strategy of " + model.model_name() +
                        " has no ONNX form here (ovr and ovo export)");
}

}  // namespace kestrel
