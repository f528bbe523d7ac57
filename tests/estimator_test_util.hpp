#pragma once
// Shared by the unit tests of every model family: reading the reference data, building
// an estimator from its ModelInfo as the registry would (without the registry), and a
// Context with a given thread count and seed.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::test {

// A file of ../shared/data (KESTREL_SHARED_DATA), e.g. "iris/train.csv".
inline Dataset load(const std::string& relative, Task task) {
    // Appended in place: GCC 12 warns falsely (-Warray-bounds) on the inlined a + "/" + b.
    std::string path = KESTREL_SHARED_DATA;
    path += '/';
    path += relative;
    Table t = read_table(path, ReadOptions{});
    return make_dataset(std::move(t), task);
}

template <class Model>
std::unique_ptr<Model> make(const ModelInfo& info, const Params& given) {
    std::unique_ptr<Estimator> e = info.factory();
    e->set_identity(info, info.spec.resolve(given, info.name));
    auto* typed = dynamic_cast<Model*>(e.get());
    REQUIRE(typed != nullptr);
    e.release();
    return std::unique_ptr<Model>(typed);
}

inline Context threads(int n, std::uint64_t seed = 1) {
    Context c;
    c.threads = n;
    c.seed = seed;
    return c;
}

}  // namespace kestrel::test
