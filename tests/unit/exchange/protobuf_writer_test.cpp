// The protobuf wire writer against bytes computed by hand from the encoding rules
// (developers.google.com/protocol-buffers/docs/encoding), and an ONNX tensor against the
// bytes of python3-onnx 1.12's SerializeToString for the same message.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/exchange/onnx_proto.hpp"
#include "kestrel/exchange/protobuf_writer.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_exchange_protobuf_writer_test {

using namespace kestrel;

namespace {

std::vector<int> bytes_of(const std::string& s) {
    std::vector<int> out;
    for (char c : s) out.push_back(static_cast<unsigned char>(c));
    return out;
}

}  // namespace

TEST_SUITE("exchange") {
    TEST_CASE("protobuf varints: the encoding guide's 150 and 300, zero, and a negative int64 in ten bytes") {
        ProtoWriter w;
        w.add_varint(1, 150);  // key 0x08, then 0x96 0x01
        CHECK(bytes_of(w.bytes()) == std::vector<int>{0x08, 0x96, 0x01});
        ProtoWriter w300;
        w300.add_varint(2, 300);  // key (2 << 3) | 0 = 0x10; 300 = 0b10_0101100 -> 0xac 0x02
        CHECK(bytes_of(w300.bytes()) == std::vector<int>{0x10, 0xac, 0x02});
        ProtoWriter zero;
        zero.add_varint(3, 0);
        CHECK(bytes_of(zero.bytes()) == std::vector<int>{0x18, 0x00});
        ProtoWriter negative;
        negative.add_varint(1, -1);  // 2^64 - 1: nine 0xff then 0x01
        CHECK(bytes_of(negative.bytes()) ==
              std::vector<int>{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
    }

    TEST_CASE("protobuf length-delimited fields: the guide's string \"testing\" and a nested message") {
        ProtoWriter w;
        w.add_bytes(2, "testing");  // key 0x12, length 7
        CHECK(bytes_of(w.bytes()) == std::vector<int>{0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67});
        ProtoWriter inner;
        inner.add_varint(1, 150);
        ProtoWriter outer;
        outer.add_message(3, inner);  // the guide's Test3: 1a 03 08 96 01
        CHECK(bytes_of(outer.bytes()) == std::vector<int>{0x1a, 0x03, 0x08, 0x96, 0x01});
        ProtoWriter empty;
        empty.add_bytes(1, "");
        CHECK(bytes_of(empty.bytes()) == std::vector<int>{0x0a, 0x00});
    }

    TEST_CASE("protobuf packed repeated fields: the guide's 3, 270, 86942; floats and doubles little-endian") {
        ProtoWriter w;
        const std::vector<std::int64_t> v{3, 270, 86942};
        w.add_packed_varints(4, v);  // 22 06 03 8e 02 9e a7 05
        CHECK(bytes_of(w.bytes()) == std::vector<int>{0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05});
        ProtoWriter f;
        const std::vector<float> floats{1.0f, -2.5f};  // 0x3f800000, 0xc0200000
        f.add_packed_floats(1, floats);
        CHECK(bytes_of(f.bytes()) == std::vector<int>{0x0a, 0x08, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0});
        ProtoWriter d;
        const std::vector<double> doubles{0.5};  // 0x3fe0000000000000
        d.add_packed_doubles(10, doubles);
        CHECK(bytes_of(d.bytes()) == std::vector<int>{0x52, 0x08, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f});
        ProtoWriter single;
        single.add_float(2, 1.0f);  // wire type 5: key 0x15
        single.add_double(3, 0.5);  // wire type 1: key 0x19
        CHECK(bytes_of(single.bytes()) ==
              std::vector<int>{0x15, 0x00, 0x00, 0x80, 0x3f, 0x19, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f});
    }

    TEST_CASE("an ONNX model with one Identity node: python3-onnx 1.12's bytes for the same message") {
        // onnx.helper.make_model(make_graph([make_node('Identity', ['x'], ['y'], name='n')], 'g',
        //   [make_tensor_value_info('x', TensorProto.FLOAT, ['N', 1])],
        //   [make_tensor_value_info('y', TensorProto.FLOAT, ['N', 1])]),
        //   opset_imports=[make_opsetid('', 15)], ir_version=8, producer_name='p', producer_version='1')
        // with its field order: ir_version, producer_name, producer_version, graph, opset_import.
        OnnxModel m{.ir_version = 8, .opsets = {{"", 15}}, .producer_name = "p", .producer_version = "1"};
        m.graph.name = "g";
        m.graph.nodes.push_back(OnnxNode{.op_type = "Identity", .name = "n", .inputs = {"x"}, .outputs = {"y"}});
        m.graph.inputs.push_back({.name = "x", .type = OnnxType::float32, .dims = {-1, 1}});
        m.graph.outputs.push_back({.name = "y", .type = OnnxType::float32, .dims = {-1, 1}});
        const std::vector<int> expected{
            0x08, 0x08, 0x12, 0x01, 0x70, 0x1a, 0x01, 0x31, 0x3a, 0x44, 0x0a, 0x13, 0x0a, 0x01, 0x78, 0x12,
            0x01, 0x79, 0x1a, 0x01, 0x6e, 0x22, 0x08, 0x49, 0x64, 0x65, 0x6e, 0x74, 0x69, 0x74, 0x79, 0x12,
            0x01, 0x67, 0x5a, 0x14, 0x0a, 0x01, 0x78, 0x12, 0x0f, 0x0a, 0x0d, 0x08, 0x01, 0x12, 0x09, 0x0a,
            0x03, 0x12, 0x01, 0x4e, 0x0a, 0x02, 0x08, 0x01, 0x62, 0x14, 0x0a, 0x01, 0x79, 0x12, 0x0f, 0x0a,
            0x0d, 0x08, 0x01, 0x12, 0x09, 0x0a, 0x03, 0x12, 0x01, 0x4e, 0x0a, 0x02, 0x08, 0x01, 0x42, 0x04,
            0x0a, 0x00, 0x10, 0x0f};
        CHECK(bytes_of(serialize(m)) == expected);
    }
}

}  // namespace unit_exchange_protobuf_writer_test
}  // namespace
