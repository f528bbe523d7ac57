#include "kestrel/exchange/onnx_graph.hpp"

namespace kestrel {

std::string OnnxGraphBuilder::fresh(const std::string& hint) {
    std::string name;
    do name = (hint.empty() ? std::string("t") : hint) + "_" + std::to_string(root_->counter_++);
    while (root_->taken_.count(name));
    return name;
}

std::string OnnxGraphBuilder::add(const std::string& op_type, std::vector<std::string> inputs,
                                  std::vector<OnnxAttribute> attributes, const std::string& domain,
                                  const std::string& hint) {
    std::string out = fresh(hint.empty() ? op_type : hint);
    add_named(op_type, std::move(inputs), {out}, std::move(attributes), domain);
    return out;
}

std::vector<std::string> OnnxGraphBuilder::add_outputs(const std::string& op_type, std::vector<std::string> inputs,
                                                       int outputs, std::vector<OnnxAttribute> attributes,
                                                       const std::string& domain) {
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i) names.push_back(fresh(op_type));
    add_named(op_type, std::move(inputs), names, std::move(attributes), domain);
    return names;
}

void OnnxGraphBuilder::add_named(const std::string& op_type, std::vector<std::string> inputs,
                                 std::vector<std::string> outputs, std::vector<OnnxAttribute> attributes,
                                 const std::string& domain) {
    OnnxNode n{.op_type = op_type, .domain = domain, .name = fresh("node_" + op_type)};
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    n.attributes = std::move(attributes);
    graph_.nodes.push_back(std::move(n));
}

std::string OnnxGraphBuilder::doubles(std::vector<double> values, std::vector<std::int64_t> dims) {
    OnnxTensor t{.name = fresh("c"), .type = OnnxType::float64, .dims = std::move(dims)};
    t.doubles = std::move(values);
    root_->graph_.initializers.push_back(std::move(t));
    return root_->graph_.initializers.back().name;
}

std::string OnnxGraphBuilder::int64s(std::vector<std::int64_t> values, std::vector<std::int64_t> dims) {
    OnnxTensor t{.name = fresh("c"), .type = OnnxType::int64, .dims = std::move(dims)};
    t.int64s = std::move(values);
    root_->graph_.initializers.push_back(std::move(t));
    return root_->graph_.initializers.back().name;
}

std::string OnnxGraphBuilder::strings(std::vector<std::string> values, std::vector<std::int64_t> dims) {
    OnnxTensor t{.name = fresh("c"), .type = OnnxType::string, .dims = std::move(dims)};
    t.strings = std::move(values);
    root_->graph_.initializers.push_back(std::move(t));
    return root_->graph_.initializers.back().name;
}

std::string OnnxGraphBuilder::boolean_scalar(bool v) {
    OnnxTensor t{.name = fresh("c"), .type = OnnxType::boolean};
    t.int64s = {v ? 1 : 0};  // bool sits in int32_data
    root_->graph_.initializers.push_back(std::move(t));
    return root_->graph_.initializers.back().name;
}

}  // namespace kestrel
