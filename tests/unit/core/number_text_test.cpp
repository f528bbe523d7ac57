#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/number_text.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_number_text_test {

using namespace kestrel;

TEST_CASE("format_duration: three significant digits below a minute, clock units above") {
    // The raw floats: 0.000180114 s and 8.7188e-05 s.
    CHECK(format_duration(0.000180114) == "0.18 ms");
    CHECK(format_duration(8.7188e-05) == "0.09 ms");
    CHECK(format_duration(0) == "0.00 ms");
    CHECK(format_duration(-1) == "0.00 ms");
    CHECK(format_duration(0.0123456) == "12.3 ms");
    CHECK(format_duration(0.87249) == "872 ms");
    CHECK(format_duration(0.9996) == "1.00 s");  // not "1000 ms"
    CHECK(format_duration(2.4) == "2.40 s");
    CHECK(format_duration(12.34) == "12.3 s");
    CHECK(format_duration(59.96) == "1 min 0 s");  // not "60.0 s"
    CHECK(format_duration(192.4) == "3 min 12 s");
    CHECK(format_duration(3599.6) == "1 h 00 min");
    CHECK(format_duration(7500) == "2 h 05 min");
    CHECK(format_duration(std::nan("")) == "nan s");
    CHECK(format_duration(HUGE_VAL) == "inf s");
}

}  // namespace unit_core_number_text_test
}  // namespace
