#pragma once
// A writer of the protobuf wire format (developers.google.com/protocol-buffers/docs/encoding):
// enough of it to write ONNX files without the protobuf library. A message is the
// concatenation of its fields; each field is a key (field number << 3 | wire type) then
// a varint (wire type 0), a little-endian 64-bit word (1), a length and the bytes (2:
// strings, nested messages, packed repeated numbers) or a little-endian 32-bit word (5).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kestrel {

class ProtoWriter {
public:
    // A field of wire type 0 (int32, int64, uint64, bool, enum). Negative numbers take ten
    // bytes, as their 64-bit two's complement (protobuf's int64 and int32 encoding).
    void add_varint(int field, std::int64_t value);
    void add_float(int field, float value);    // wire type 5
    void add_double(int field, double value);  // wire type 1
    // A string, bytes, or a nested message already written (wire type 2).
    void add_bytes(int field, std::string_view bytes);
    void add_message(int field, const ProtoWriter& message) { add_bytes(field, message.bytes()); }
    // Packed repeated numbers: one length-delimited field holding the values back to back
    // (protobuf 3's default for repeated scalars, and what ONNX's parsers read).
    void add_packed_varints(int field, std::span<const std::int64_t> values);
    void add_packed_floats(int field, std::span<const float> values);
    void add_packed_doubles(int field, std::span<const double> values);

    const std::string& bytes() const { return bytes_; }
    std::string take() { return std::move(bytes_); }

private:
    void put_key(int field, int wire_type);
    void put_varint(std::uint64_t v);
    void put_fixed32(std::uint32_t v);
    void put_fixed64(std::uint64_t v);

    std::string bytes_;
};

}  // namespace kestrel
