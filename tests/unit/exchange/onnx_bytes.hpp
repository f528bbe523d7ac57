#pragma once
// What the ONNX export tests look for in a written file's bytes, without a protobuf reader.
#include <cstring>
#include <string>
#include <vector>

namespace kestrel::test {

// Whether the file has a node of this operator: NodeProto's op_type (field 4) as written.
inline bool has_op(const std::string& file, const std::string& op) {
    return file.find(std::string{'\x22', static_cast<char>(op.size())} + op) != std::string::npos;
}

// Whether the file holds these doubles one after the other (a packed double tensor).
inline bool has_doubles(const std::string& file, const std::vector<double>& values) {
    std::string bytes(values.size() * sizeof(double), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return file.find(bytes) != std::string::npos;
}

}  // namespace kestrel::test
