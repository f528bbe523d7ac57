// libFuzzer target: kestrel::fuzz::table_cache (see fuzz_entries.hpp; run with scripts/fuzz.sh table_cache).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    kestrel::fuzz::table_cache(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
