// kestrel-train -m gbdt -p loss=poisson on a small count file, then kestrel-predict: the
// predictions are means e^F (positive, averaging near the counts'), a negative count is a
// data error (exit 2) naming its row (docs/models/gbdt.md, "Losses").
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "cli/run_tool.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_objectives_cli_test {

using namespace kestrel;
using namespace kestrel::test;

namespace {

// label = a count with mean exp(0.2 + 0.6 x0), x0 and x1 uniform in [−1, 1].
std::string counts_csv(int n, bool negative_row) {
    Rng rng(19);
    std::ostringstream s;
    s << "label,x0,x1\n";
    for (int i = 0; i < n; ++i) {
        const double x0 = 2 * rng.uniform() - 1, x1 = 2 * rng.uniform() - 1;
        const double limit = std::exp(-std::exp(0.2 + 0.6 * x0));
        double prod = rng.uniform();
        int k = 0;
        while (prod > limit) prod *= rng.uniform(), ++k;
        s << (negative_row && i == 4 ? -1 : k) << ',' << x0 << ',' << x1 << '\n';
    }
    return s.str();
}

}  // namespace

TEST_SUITE("cli.objectives") {
    TEST_CASE("gbdt loss=poisson: train on counts, predict positive means") {
        ScratchDir dir("objectives");
        const auto data = dir.file("counts.csv", counts_csv(300, false));
        const auto model = dir / "poisson.json";
        const auto t = run_tool("kestrel-train -q -m gbdt -p loss=poisson -p n_estimators=30 --task regression '" +
                                data + "' -o '" + model + "'");
        REQUIRE(t.exit_code == 0);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + data + "'");
        REQUIRE(p.exit_code == 0);
        std::istringstream in(p.out);
        std::string line;
        std::getline(in, line);  // header
        double sum = 0;
        int rows = 0;
        while (std::getline(in, line)) {
            const double v = std::stod(line);
            CHECK(v > 0);
            sum += v;
            ++rows;
        }
        REQUIRE(rows == 300);
        std::istringstream labels(counts_csv(300, false));
        std::getline(labels, line);
        double total = 0;
        while (std::getline(labels, line)) total += std::stod(line.substr(0, line.find(',')));
        // The log link's Newton steps from log(mean y) keep the mean prediction near the mean count.
        CHECK(sum / rows == doctest::Approx(total / 300).epsilon(0.05));

        const auto bad = dir.file("bad.csv", counts_csv(300, true));
        const auto b = run_tool("kestrel-train -q -m gbdt -p loss=poisson --task regression '" + bad + "' -o '" +
                                (dir / "bad.json") + "'");
        CHECK(b.exit_code == 2);
        CHECK(b.err.find("gbdt: loss=poisson needs y >= 0; row 5 has y = -1") != std::string::npos);
    }
}

}  // namespace cli_objectives_cli_test
}  // namespace
