#pragma once
// Builds an OnnxGraph node by node: each node's outputs get fresh names, constants become
// initializers. The exporters of the pipeline steps and of the models share it.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kestrel/exchange/onnx_proto.hpp"

namespace kestrel {

inline constexpr const char* kOnnxMlDomain = "ai.onnx.ml";

class OnnxGraphBuilder {
public:
    OnnxGraphBuilder() = default;
    // A builder of a subgraph of `parent` (a Loop's body): its names are fresh in the whole
    // model (the checker wants each name assigned once across the scopes) and its constants
    // are the outermost graph's initializers, which the subgraph reads by outer scope.
    explicit OnnxGraphBuilder(OnnxGraphBuilder& parent) : root_(parent.root_) {}
    // root_ points at the outermost builder: no copies.
    OnnxGraphBuilder(const OnnxGraphBuilder&) = delete;
    OnnxGraphBuilder& operator=(const OnnxGraphBuilder&) = delete;

    // Adds a node with one output and returns the output's name (`hint` plus a number).
    std::string add(const std::string& op_type, std::vector<std::string> inputs,
                    std::vector<OnnxAttribute> attributes = {}, const std::string& domain = "",
                    const std::string& hint = "");
    // The same with `outputs` outputs.
    std::vector<std::string> add_outputs(const std::string& op_type, std::vector<std::string> inputs, int outputs,
                                         std::vector<OnnxAttribute> attributes = {}, const std::string& domain = "");
    // Adds a node whose outputs are named by the caller (the graph's outputs).
    void add_named(const std::string& op_type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                   std::vector<OnnxAttribute> attributes = {}, const std::string& domain = "");

    // Constants (initializers) of the given shape; returns their names.
    std::string doubles(std::vector<double> values, std::vector<std::int64_t> dims);
    std::string int64s(std::vector<std::int64_t> values, std::vector<std::int64_t> dims);
    std::string strings(std::vector<std::string> values, std::vector<std::int64_t> dims);
    // A bool scalar (rank 0: Loop's condition).
    std::string boolean_scalar(bool v);
    // A double [1] (broadcast against any shape).
    std::string double_scalar(double v) { return doubles({v}, {1}); }
    // A double row vector [1, n] (broadcast against [N, n]).
    std::string double_row(std::vector<double> values) {
        const auto n = static_cast<std::int64_t>(values.size());
        return doubles(std::move(values), {1, n});
    }

    // An input's name is never generated for a node's output.
    void add_input(OnnxValueInfo v) {
        root_->taken_.insert(v.name);
        graph_.inputs.push_back(std::move(v));
    }
    void add_output(OnnxValueInfo v) { graph_.outputs.push_back(std::move(v)); }
    OnnxGraph take(std::string name) {
        graph_.name = std::move(name);
        return std::move(graph_);
    }

    // A name no other value of the model has (`hint` plus a number): a subgraph's inputs.
    std::string fresh(const std::string& hint);

private:
    OnnxGraph graph_;
    OnnxGraphBuilder* root_ = this;  // whose counter, names and initializers these are
    int counter_ = 0;
    std::set<std::string> taken_;
};

}  // namespace kestrel
