// --dump-tree and --explain name category sets by the categories the model file keeps
// (Model::prepared_categories into Estimator::ReportNames), for tree and gbdt.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "kestrel/pipeline/model.hpp"
#include "estimator_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_report_category_names_test {

using namespace kestrel;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One categorical column "colour" of 6 categories, 20 rows each; category c has kOnes[c]
// rows of class "yes". By P(yes): blue 2/20, green 4/20, red 1/20 are the low three, so
// the best depth-1 split sends {blue, green, red} one way: [53 no, 7 yes] against [7, 53].
const int kOnes[6] = {18, 2, 16, 4, 19, 1};
Dataset colours() {
    Dataset d;
    DenseMatrix X(120, 1);
    Vector y(120);
    for (Index i = 0; i < 120; ++i) {
        const int c = static_cast<int>(i / 20), r = static_cast<int>(i % 20);
        X(i, 0) = c;
        y[i] = r < kOnes[c] ? 1.0 : 0.0;
    }
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = Task::classification;
    d.classes = {"no", "yes"};
    d.feature_names = {"colour"};
    d.category_counts = {6};
    d.categories = {{"amber", "blue", "cyan", "green", "pink", "red"}};  // byte-wise sorted, as the reader keeps them
    return d;
}

Model train(const std::string& name, const Dataset& d, Params p) {
    ModelSpec spec;
    spec.model = name;
    spec.params = std::move(p);
    return Model::train(spec, d, test::threads(1));
}

std::string explain(const Model& m, double colour) {
    const CategoryLists categories = m.prepared_categories();
    const std::vector<std::string> names = m.prepared_feature_names();
    const double row[1] = {colour};
    return m.estimator().explain_row(row, {names, m.classes(), &categories});
}

}  // namespace

TEST_SUITE("report category names") {
    TEST_CASE("report names: a tree dump and explain name the category set and where missing goes") {
        const Model m = train("tree", colours(), {{"max_depth", 1}, {"cat_smooth", 0.0}});
        REQUIRE(m.prepared_categories() == colours().categories);
        // Gini of [53, 7]: 1 - (53² + 7²)/60² = 742/3600 = 0.206111. The children weigh the
        // same, so missing values go left (the larger child, ties left).
        CHECK(m.report("tree") ==
              "|--- colour in {blue, green, red} or missing\n"
              "|   |--- class: no [53, 7] (samples=60, impurity=0.206111)\n"
              "|--- colour not in {blue, green, red}\n"
              "|   |--- class: yes [7, 53] (samples=60, impurity=0.206111)\n");
        CHECK(explain(m, 3) ==
              "  colour = green in {blue, green, red} -> left\n"
              "  leaf 1: class: no [53, 7] (samples=60, impurity=0.206111)\n");
        CHECK(explain(m, 0) ==
              "  colour = amber not in {blue, green, red} -> right\n"
              "  leaf 2: class: yes [7, 53] (samples=60, impurity=0.206111)\n");
        CHECK(explain(m, kNaN).rfind("  colour = missing (missing goes left) -> left\n", 0) == 0);
        CHECK(explain(m, kUnknownCategory).rfind("  colour = unknown (missing goes left) -> left\n", 0) == 0);
    }

    TEST_CASE("report names: without names the codes are printed, as before") {
        const Model m = train("tree", colours(), {{"max_depth", 1}, {"cat_smooth", 0.0}});
        const std::vector<std::string> features{"colour"};
        CHECK(m.estimator().report("tree", {features, m.classes()}).rfind("|--- colour in {1, 3, 5} or missing\n", 0) ==
              0);
    }

    TEST_CASE("report names: a forest names the sets in every tree") {
        const Model m = train("forest", colours(), {{"n_estimators", 3}, {"max_depth", 1}, {"cat_smooth", 0.0}});
        const std::string text = m.report("tree");
        CHECK(text.find("{1") == std::string::npos);
        CHECK(text.find("colour in {") != std::string::npos);
    }

    TEST_CASE("report names: a gbdt dump names the category set") {
        // Three categories (one against the rest, max_cat_to_onehot = 4): y = 5 for "c" only.
        Dataset d;
        DenseMatrix X(300, 1);
        Vector y(300);
        for (Index i = 0; i < 300; ++i) {
            X(i, 0) = static_cast<double>(i % 3);
            y[i] = i % 3 == 2 ? 5.0 : 0.0;
        }
        d.X = Features(std::move(X));
        d.y = std::move(y);
        d.task = Task::regression;
        d.feature_names = {"grade"};
        d.category_counts = {3};
        d.categories = {{"a", "b", "c"}};
        const Model m = train("gbdt", d, {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0}});
        // base score 5/3; leaves 5 - 5/3 = 3.33333 for "c" and 0 - 5/3 = -1.66667 for the rest.
        const std::string text = m.report("tree");
        CHECK(text.rfind("round 1:\n|--- grade in {c}", 0) == 0);
        CHECK(text.find("|   |--- value: 3.33333 (samples=100") != std::string::npos);
        CHECK(text.find("|--- grade not in {c}\n|   |--- value: -1.66667 (samples=200") != std::string::npos);
    }
}

}  // namespace unit_tree_report_category_names_test
}  // namespace
