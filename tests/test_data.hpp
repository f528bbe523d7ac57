#pragma once
// Paths of the bundled and shared datasets, for tests.
#include <string>

namespace kestrel::test {

inline std::string repo_path(const std::string& rel) { return std::string(KESTREL_SOURCE_DIR) + "/" + rel; }
inline std::string shared_data(const std::string& rel) { return std::string(KESTREL_SHARED_DATA) + "/" + rel; }
inline std::string bin(const std::string& tool) { return std::string(KESTREL_BIN_DIR) + "/" + tool; }

}  // namespace kestrel::test
