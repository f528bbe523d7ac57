#pragma once
// Shared by the SVM tests: the reference data and estimators built from their ModelInfo.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "kestrel/core/model.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::svm_test {

inline Dataset load(const std::string& relative, Task task) {
    Table t = read_table(std::string(KESTREL_SHARED_DATA) + "/" + relative, ReadOptions{});
    return make_dataset(std::move(t), task);
}

template <class Model>
std::unique_ptr<Model> make(const ModelInfo& info, const Params& given) {
    std::unique_ptr<Estimator> e = info.factory();
    e->set_identity(info.name, info.spec.resolve(given, info.name));
    auto* typed = dynamic_cast<Model*>(e.get());
    REQUIRE(typed != nullptr);
    e.release();
    return std::unique_ptr<Model>(typed);
}

inline Context threads(int n) {
    Context c;
    c.threads = n;
    return c;
}

}  // namespace kestrel::svm_test
