#include "kestrel/exchange/onnx_proto.hpp"

#include "kestrel/exchange/protobuf_writer.hpp"

namespace kestrel {
namespace {

// Field numbers of onnx.proto.
namespace tensor {
constexpr int kDims = 1, kDataType = 2, kFloatData = 4, kInt32Data = 5, kStringData = 6, kInt64Data = 7, kName = 8, kDoubleData = 10;
}
namespace attribute {
constexpr int kName = 1, kF = 2, kI = 3, kS = 4, kT = 5, kG = 6, kFloats = 7, kInts = 8, kStrings = 9, kType = 20;
}
namespace node {
constexpr int kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5, kDomain = 7;
}
namespace graph {
constexpr int kNode = 1, kName = 2, kInitializer = 5, kInput = 11, kOutput = 12;
}
namespace model {
constexpr int kIrVersion = 1, kProducerName = 2, kProducerVersion = 3, kDocString = 6, kGraph = 7, kOpsetImport = 8;
}
// TypeProto: tensor_type 1, sequence_type 4, map_type 5; Tensor: elem_type 1, shape 2;
// Sequence: elem_type 1; Map: key_type 1, value_type 2; TensorShapeProto: dim 1;
// Dimension: dim_value 1, dim_param 2; ValueInfoProto: name 1, type 2;
// OperatorSetIdProto: domain 1, version 2.

ProtoWriter tensor_proto(const OnnxTensor& t) {
    ProtoWriter w;
    if (!t.dims.empty()) w.add_packed_varints(tensor::kDims, t.dims);
    w.add_varint(tensor::kDataType, static_cast<int>(t.type));
    switch (t.type) {
        case OnnxType::float32: w.add_packed_floats(tensor::kFloatData, t.floats); break;
        case OnnxType::float64: w.add_packed_doubles(tensor::kDoubleData, t.doubles); break;
        case OnnxType::int64: w.add_packed_varints(tensor::kInt64Data, t.int64s); break;
        case OnnxType::boolean: w.add_packed_varints(tensor::kInt32Data, t.int64s); break;  // bool sits in int32_data
        case OnnxType::string:
            for (const auto& s : t.strings) w.add_bytes(tensor::kStringData, s);
            break;
    }
    if (!t.name.empty()) w.add_bytes(tensor::kName, t.name);
    return w;
}

ProtoWriter graph_proto(const OnnxGraph& g);  // a graph attribute holds one

ProtoWriter attribute_proto(const OnnxAttribute& a) {
    using K = OnnxAttribute::Kind;
    ProtoWriter w;
    w.add_bytes(attribute::kName, a.name);
    switch (a.kind) {
        case K::f: w.add_float(attribute::kF, a.f); break;
        case K::i: w.add_varint(attribute::kI, a.i); break;
        case K::s: w.add_bytes(attribute::kS, a.s); break;
        case K::t: w.add_message(attribute::kT, tensor_proto(a.t)); break;
        case K::g:
            w.add_message(attribute::kG, graph_proto(*a.g));
            break;
        case K::floats: w.add_packed_floats(attribute::kFloats, a.floats); break;
        case K::ints: w.add_packed_varints(attribute::kInts, a.ints); break;
        case K::strings:
            for (const auto& s : a.strings) w.add_bytes(attribute::kStrings, s);
            break;
    }
    w.add_varint(attribute::kType, static_cast<int>(a.kind));
    return w;
}

ProtoWriter node_proto(const OnnxNode& n) {
    ProtoWriter w;
    for (const auto& s : n.inputs) w.add_bytes(node::kInput, s);
    for (const auto& s : n.outputs) w.add_bytes(node::kOutput, s);
    if (!n.name.empty()) w.add_bytes(node::kName, n.name);
    w.add_bytes(node::kOpType, n.op_type);
    for (const auto& a : n.attributes) w.add_message(node::kAttribute, attribute_proto(a));
    if (!n.domain.empty()) w.add_bytes(node::kDomain, n.domain);
    return w;
}

ProtoWriter tensor_type_proto(OnnxType type, const std::vector<std::int64_t>* dims) {
    ProtoWriter tensor_type;
    tensor_type.add_varint(1, static_cast<int>(type));
    if (dims) {
        ProtoWriter shape;
        for (std::int64_t d : *dims) {
            ProtoWriter dim;
            if (d < 0) dim.add_bytes(2, "N");
            else dim.add_varint(1, d);
            shape.add_message(1, dim);
        }
        tensor_type.add_message(2, shape);
    }
    ProtoWriter type_proto;
    type_proto.add_message(1, tensor_type);
    return type_proto;
}

ProtoWriter value_info_proto(const OnnxValueInfo& v) {
    ProtoWriter type_proto;
    if (v.sequence_of_maps) {
        ProtoWriter map;
        map.add_varint(1, static_cast<int>(v.map_key));
        map.add_message(2, tensor_type_proto(v.type, nullptr));
        ProtoWriter map_type;
        map_type.add_message(5, map);
        ProtoWriter sequence;
        sequence.add_message(1, map_type);
        type_proto.add_message(4, sequence);
    } else {
        type_proto = tensor_type_proto(v.type, &v.dims);
    }
    ProtoWriter w;
    w.add_bytes(1, v.name);
    w.add_message(2, type_proto);
    return w;
}

ProtoWriter graph_proto(const OnnxGraph& g) {
    ProtoWriter w;
    for (const auto& n : g.nodes) w.add_message(graph::kNode, node_proto(n));
    w.add_bytes(graph::kName, g.name);
    for (const auto& t : g.initializers) w.add_message(graph::kInitializer, tensor_proto(t));
    for (const auto& v : g.inputs) w.add_message(graph::kInput, value_info_proto(v));
    for (const auto& v : g.outputs) w.add_message(graph::kOutput, value_info_proto(v));
    return w;
}

}  // namespace

OnnxAttribute OnnxAttribute::of_int(std::string name, std::int64_t v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::i};
    a.i = v;
    return a;
}
OnnxAttribute OnnxAttribute::of_float(std::string name, float v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::f};
    a.f = v;
    return a;
}
OnnxAttribute OnnxAttribute::of_string(std::string name, std::string v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::s};
    a.s = std::move(v);
    return a;
}
OnnxAttribute OnnxAttribute::of_tensor(std::string name, OnnxTensor v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::t};
    a.t = std::move(v);
    return a;
}
OnnxAttribute OnnxAttribute::of_graph(std::string name, OnnxGraph v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::g};
    a.g = std::make_shared<const OnnxGraph>(std::move(v));
    return a;
}
OnnxAttribute OnnxAttribute::of_ints(std::string name, std::vector<std::int64_t> v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::ints};
    a.ints = std::move(v);
    return a;
}
OnnxAttribute OnnxAttribute::of_floats(std::string name, std::vector<float> v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::floats};
    a.floats = std::move(v);
    return a;
}
OnnxAttribute OnnxAttribute::of_strings(std::string name, std::vector<std::string> v) {
    OnnxAttribute a{.name = std::move(name), .kind = Kind::strings};
    a.strings = std::move(v);
    return a;
}

std::string serialize(const OnnxModel& m) {
    ProtoWriter w;
    w.add_varint(model::kIrVersion, m.ir_version);
    w.add_bytes(model::kProducerName, m.producer_name);
    w.add_bytes(model::kProducerVersion, m.producer_version);
    if (!m.doc_string.empty()) w.add_bytes(model::kDocString, m.doc_string);
    w.add_message(model::kGraph, graph_proto(m.graph));
    for (const auto& [domain, version] : m.opsets) {
        ProtoWriter o;
        o.add_bytes(1, domain);  // the default domain as an empty string, as onnx's own writer
        o.add_varint(2, version);
        w.add_message(model::kOpsetImport, o);
    }
    return w.take();
}

}  // namespace kestrel
