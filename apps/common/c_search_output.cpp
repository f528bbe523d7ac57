#include "common/c_search_output.hpp"

#include <cstdio>

namespace kestrel::cli {

std::string c_search_text(const Json& c) {
    const bool accuracy = c.value("metric", "") == "accuracy";
    std::string out = "C=auto: " + std::to_string(c.value("folds", 0)) + "-fold CV " +
                      (accuracy ? "accuracy" : "mean squared error") + " along a doubling C path (" +
                      c.value("stopped", "") + ")\n";
    char line[128];
    const double best = c.value("best_C", 0.0);
    for (const auto& step : c.at("path")) {
        const double C = step.at("C").get<double>();
        std::snprintf(line, sizeof line, "  C = %-12.6g %s = %.4f%s\n", C, accuracy ? "accuracy" : "mse",
                      step.at("score").get<double>(), C == best ? "  <- chosen" : "");
        out += line;
    }
    return out;
}

}  // namespace kestrel::cli
