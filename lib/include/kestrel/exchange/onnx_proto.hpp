#pragma once
// The ONNX messages kestrel writes (onnx/onnx.proto, IR version 8), as plain structs and
// their protobuf serialisation: ModelProto, GraphProto, NodeProto, AttributeProto,
// TensorProto, ValueInfoProto with its TypeProto, OperatorSetIdProto. Only the fields an
// exported model needs are here; the field numbers are onnx.proto's.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kestrel {

// TensorProto.DataType.
enum class OnnxType : int { float32 = 1, int64 = 7, string = 8, boolean = 9, float64 = 11 };

// A constant tensor (an initializer, or a node's tensor attribute). The values sit in the
// vector of its type.
struct OnnxTensor {
    std::string name{};
    OnnxType type = OnnxType::float32;
    std::vector<std::int64_t> dims{};
    std::vector<float> floats{};
    std::vector<double> doubles{};
    std::vector<std::int64_t> int64s{};
    std::vector<std::string> strings{};
};

struct OnnxGraph;

struct OnnxAttribute {
    // AttributeProto.AttributeType.
    enum class Kind : int { f = 1, i = 2, s = 3, t = 4, g = 5, floats = 6, ints = 7, strings = 8 };
    std::string name{};
    Kind kind = Kind::i;
    float f = 0;
    std::int64_t i = 0;
    std::string s{};
    OnnxTensor t{};
    // A subgraph (Loop's body); shared, as OnnxGraph is not complete here.
    std::shared_ptr<const OnnxGraph> g{};
    std::vector<float> floats{};
    std::vector<std::int64_t> ints{};
    std::vector<std::string> strings{};

    static OnnxAttribute of_int(std::string name, std::int64_t v);
    static OnnxAttribute of_float(std::string name, float v);
    static OnnxAttribute of_string(std::string name, std::string v);
    static OnnxAttribute of_tensor(std::string name, OnnxTensor v);
    static OnnxAttribute of_graph(std::string name, OnnxGraph v);
    static OnnxAttribute of_ints(std::string name, std::vector<std::int64_t> v);
    static OnnxAttribute of_floats(std::string name, std::vector<float> v);
    static OnnxAttribute of_strings(std::string name, std::vector<std::string> v);
};

struct OnnxNode {
    std::string op_type{};
    std::string domain{};  // "" for the default domain, "ai.onnx.ml"
    std::string name{};
    std::vector<std::string> inputs{};
    std::vector<std::string> outputs{};
    std::vector<OnnxAttribute> attributes{};
};

// A graph input or output: a tensor of `type` whose dims are given (-1: the symbolic batch
// dimension "N"), or with map_key set, ZipMap's sequence of maps from map_key to `type`.
struct OnnxValueInfo {
    std::string name{};
    OnnxType type = OnnxType::float32;
    std::vector<std::int64_t> dims{};
    bool sequence_of_maps = false;
    OnnxType map_key = OnnxType::int64;
};

struct OnnxGraph {
    std::string name{};
    std::vector<OnnxNode> nodes{};
    std::vector<OnnxTensor> initializers{};
    std::vector<OnnxValueInfo> inputs{};
    std::vector<OnnxValueInfo> outputs{};
};

struct OnnxModel {
    std::int64_t ir_version = 8;
    std::vector<std::pair<std::string, std::int64_t>> opsets{};  // domain ("" default), version
    std::string producer_name{};
    std::string producer_version{};
    std::string doc_string{};
    OnnxGraph graph{};
};

// The ModelProto's bytes: an .onnx file.
std::string serialize(const OnnxModel& model);

}  // namespace kestrel
