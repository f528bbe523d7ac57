#pragma once
// A gbdt estimator made and fitted directly (no registry, no pipeline), for the gbdt tests.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/core/context.hpp"

namespace kestrel::gbdt_test {

// A dataset of X and y; k > 0 names its classes c0, c1, ...
inline Dataset make_data(DenseMatrix X, Vector y, Task task, Index k = 0) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = task;
    for (Index c = 0; c < k; ++c) d.classes.push_back("c" + std::to_string(c));
    return d;
}

// The rows of numbers of a CSV file, after its header.
inline std::vector<std::vector<double>> csv_rows_at(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::vector<double> r;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ',')) r.push_back(std::stod(cell));
        rows.push_back(r);
    }
    return rows;
}

// The same, of a CSV file of tests/unit/boosting/data (the recorded XGBoost references).
inline std::vector<std::vector<double>> csv_rows(const std::string& name) {
    return csv_rows_at(std::string(KESTREL_SOURCE_DIR) + "/tests/unit/boosting/data/" + name);
}

inline std::unique_ptr<Gbdt> make_gbdt(const Params& given) {
    const ModelInfo info = gbdt_model_info();
    std::unique_ptr<Estimator> e = info.factory();
    e->set_identity(info, info.spec.resolve(given, info.name));
    auto* g = dynamic_cast<Gbdt*>(e.release());
    REQUIRE(g != nullptr);
    return std::unique_ptr<Gbdt>(g);
}

inline std::unique_ptr<Gbdt> fit_gbdt(const Dataset& d, const Params& given, int threads = 1,
                                      std::uint64_t seed = 1) {
    auto g = make_gbdt(given);
    Context ctx;
    ctx.threads = threads;
    ctx.seed = seed;
    g->fit(d, ctx);
    return g;
}

}  // namespace kestrel::gbdt_test
