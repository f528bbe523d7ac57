#include "kestrel/exchange/protobuf_writer.hpp"

#include <bit>

namespace kestrel {
namespace {

constexpr int kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

}  // namespace

void ProtoWriter::put_key(int field, int wire_type) {
    put_varint((static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(wire_type));
}

void ProtoWriter::put_varint(std::uint64_t v) {
    while (v >= 0x80) {
        bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
}

void ProtoWriter::put_fixed32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ProtoWriter::put_fixed64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ProtoWriter::add_varint(int field, std::int64_t value) {
    put_key(field, kVarint);
    put_varint(static_cast<std::uint64_t>(value));
}

void ProtoWriter::add_float(int field, float value) {
    put_key(field, kFixed32);
    put_fixed32(std::bit_cast<std::uint32_t>(value));
}

void ProtoWriter::add_double(int field, double value) {
    put_key(field, kFixed64);
    put_fixed64(std::bit_cast<std::uint64_t>(value));
}

void ProtoWriter::add_bytes(int field, std::string_view bytes) {
    put_key(field, kLengthDelimited);
    put_varint(bytes.size());
    bytes_.append(bytes);
}

void ProtoWriter::add_packed_varints(int field, std::span<const std::int64_t> values) {
    ProtoWriter body;
    for (std::int64_t v : values) body.put_varint(static_cast<std::uint64_t>(v));
    add_bytes(field, body.bytes());
}

void ProtoWriter::add_packed_floats(int field, std::span<const float> values) {
    ProtoWriter body;
    for (float v : values) body.put_fixed32(std::bit_cast<std::uint32_t>(v));
    add_bytes(field, body.bytes());
}

void ProtoWriter::add_packed_doubles(int field, std::span<const double> values) {
    ProtoWriter body;
    for (double v : values) body.put_fixed64(std::bit_cast<std::uint64_t>(v));
    add_bytes(field, body.bytes());
}

}  // namespace kestrel
