#pragma once
// A gbdt estimator made and fitted directly (no registry, no pipeline), for the gbdt tests.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/core/context.hpp"

namespace kestrel::gbdt_test {

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
