// The multiclass wrappers refuse, before building their members, a class count whose
// members cannot be kept (MulticlassWrapper::check_member_memory).
#include <doctest/doctest.h>

#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_multiclass_member_memory_test {

using namespace kestrel;

namespace {

Model fit(const std::string& model, Params params, const Dataset& d) {
    ModelSpec spec;
    spec.model = model;
    spec.params = std::move(params);
    Context ctx;
    ctx.threads = 1;
    return Model::train(spec, d, ctx);
}

// A label column of ids: n rows, n classes, over `cols` sparse columns (one entry a row).
Dataset ids(Index n, Index cols) {
    std::vector<Eigen::Triplet<double, int>> entries;
    for (Index i = 0; i < n; ++i) entries.emplace_back(static_cast<int>(i), static_cast<int>(i * 7 % cols), 1.0);
    SparseMatrix X(n, cols);
    X.setFromTriplets(entries.begin(), entries.end());
    Dataset d;
    d.X = Features(std::move(X));
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        d.y[i] = static_cast<double>(i);
        d.classes.push_back("id" + std::to_string(i));
    }
    d.task = Task::classification;
    return d;
}

}  // namespace

TEST_SUITE("multiclass") {
    TEST_CASE("multiclass members: ovo over a 3000-class label is refused before the members are built") {
        // 3000·2999/2 = 4498500 linear_svm members of at least 256 + 8·(2000000 + 1) bytes each
        // (one weight row and intercept): about 65 TB, on no machine running this.
        const Dataset d = ids(3000, 2000000);
        CHECK_THROWS_WITH_AS(fit("linear_svm", {{"multiclass", "ovo"}}, d),
                             doctest::Contains("ovo over 3000 classes (4498500 members of linear_svm) needs about"),
                             DataError);
    }

    TEST_CASE("multiclass members: a class count that fits is not refused") {
        // 60 classes under ovo: 1770 members of a few hundred bytes each.
        const Model m = fit("linear_svm", {{"multiclass", "ovo"}}, ids(60, 50));
        CHECK(m.classes().size() == 60);
    }
}

}  // namespace unit_multiclass_member_memory_test
}  // namespace
