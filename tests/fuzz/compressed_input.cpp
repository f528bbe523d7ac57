// libFuzzer target: kestrel::fuzz::compressed_input (see fuzz_entries.hpp; run with scripts/fuzz.sh compressed_input).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    kestrel::fuzz::compressed_input(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
