// Partial dependence / ICE (against scikit-learn 1.2.1), the SHAP summary (by hand from a
// linear model's weights), and permutation importance of a categorical input column,
// which moves as a whole whatever the model's encoding.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/rng.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/model_selection/shap_summary.hpp"
#include "kestrel/core/error.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_partial_dependence_test {

using namespace kestrel;

namespace {

Dataset fixture() {
    Table t = read_table(test::repo_path("tests/unit/model_selection/data/pdp_fixture.csv"), ReadOptions{});
    return make_dataset(std::move(t), Task::regression);
}

Model least_squares(const Dataset& d) {
    ModelSpec spec;
    spec.model = "least_squares";
    return Model::train(spec, d, Context{});
}

std::vector<double> column(const Dataset& d, Index j) {
    std::vector<double> v;
    for (Index i = 0; i < d.X.rows(); ++i) v.push_back(d.X.dense_ref()(i, j));
    return v;
}

}  // namespace

TEST_SUITE("model_selection.partial_dependence") {
    TEST_CASE("the grid is scikit-learn's: percentiles by mquantiles, or the distinct values") {
        // tests/unit/model_selection/make_pdp_references.py (scikit-learn 1.2.1, _grid_from_X).
        const Dataset d = fixture();
        const std::vector<double> a10 = {-5.8121100000000006, -4.5879488888888895, -3.363787777777778,
                                         -2.1396266666666666, -0.9154655555555555, 0.3086955555555555,
                                         1.5328566666666674,  2.7570177777777776,  3.9811788888888895,
                                         5.205340000000001};
        const std::vector<double> g = percentile_grid(column(d, 0), 10);
        REQUIRE(g.size() == a10.size());
        for (std::size_t i = 0; i < g.size(); ++i) CHECK(g[i] == doctest::Approx(a10[i]).epsilon(1e-12));
        const std::vector<double> b10 = percentile_grid(column(d, 1), 10);
        CHECK(b10.front() == doctest::Approx(-0.8613).epsilon(1e-12));
        CHECK(b10.back() == doctest::Approx(0.9018000000000002).epsilon(1e-12));
        // Fewer distinct values than the resolution: those values, sorted.
        CHECK(percentile_grid(column(d, 2), 10) == std::vector<double>{0, 1, 2, 3, 4});
        const std::vector<double> a100 = percentile_grid(column(d, 0), 100);
        CHECK(a100.size() == 40);
        CHECK(a100.front() == -6.865);
        CHECK(a100.back() == 6.087);
        CHECK(percentile_grid(column(d, 1), 100).size() == 35);  // b has 35 distinct values
        // Missing values are left out; no finite value at all is a data error.
        CHECK(percentile_grid({NAN, 2, 1, NAN}, 10) == std::vector<double>{1, 2});
        CHECK_THROWS_AS(percentile_grid({NAN, NAN}, 10), DataError);
        CHECK_THROWS_AS(percentile_grid({1, 2}, 1), UsageError);
    }

    TEST_CASE("mquantile is scipy's with alphap = betap = 0.4, by hand") {
        // n = 4, p = 0.5: m = 0.4 + 0.5 * 0.2 = 0.5, aleph = 2.5, k = 2, gamma = 0.5 -> (x2 + x3) / 2.
        CHECK(mquantile({1, 2, 4, 8}, 0.5) == 3.0);
        // p = 0.05: m = 0.41, aleph = 0.61 -> clipped to k = 1, gamma = 0 -> x1.
        CHECK(mquantile({1, 2, 4, 8}, 0.05) == 1.0);
        // p = 0.95: m = 0.59, aleph = 4.39, k = 3 (clipped to n - 1), gamma = 1 -> x4.
        CHECK(mquantile({1, 2, 4, 8}, 0.95) == 8.0);
        CHECK(mquantile({5}, 0.3) == 5.0);
    }

    TEST_CASE("partial dependence and ICE of a linear regression equal scikit-learn's") {
        // make_pdp_references.py: LinearRegression on the fixture, partial_dependence(kind="both",
        // grid_resolution=10) of column a; least_squares fits the same coefficients.
        const Dataset d = fixture();
        const Model m = least_squares(d);
        const auto grid = column_grid(m, d.X, 0, 10);
        const PartialDependence p = partial_dependence(m, d.X, 0, grid, 100, 1, 1);
        CHECK(p.response == "prediction");
        REQUIRE(p.average.rows() == 10);
        REQUIRE(p.average.cols() == 1);
        const double avg[] = {-10.545427255005189, -8.102925081088106, -5.660422907171022, -3.217920733253938,
                              -0.7754185593368541, 1.667083614580229,  4.109585788497315,  6.5520879624143955,
                              8.994590136331482,   11.437092310248564};
        const double row1[] = {-11.394502226827045, -8.95200005290996,  -6.509497878992878, -4.0669957050757946,
                               -1.624493531158711,  0.8180086427583723, 3.2605108166754575, 5.703012990592538,
                               8.145515164509623,   10.58801733842671};
        const double row40[] = {-11.601228850938599, -9.158726677021516, -6.716224503104433, -4.273722329187349,
                                -1.8312201552702652, 0.6112820186468179, 3.053784192563903,  5.496286366480984,
                                7.938788540398069,   10.381290714315154};
        REQUIRE(p.ice_rows.size() == 40);  // all rows: fewer than the cap
        for (Index g = 0; g < 10; ++g) {
            CHECK(p.average(g, 0) == doctest::Approx(avg[g]).epsilon(1e-9));
            CHECK(p.ice[0](0, g) == doctest::Approx(row1[g]).epsilon(1e-9));
            CHECK(p.ice[0](39, g) == doctest::Approx(row40[g]).epsilon(1e-9));
        }
        // Column c (five values): the grid is its values; partial_dependence's average.
        const auto gc = column_grid(m, d.X, 2, 100);
        CHECK(gc == std::vector<double>{0, 1, 2, 3, 4});
        const PartialDependence pc = partial_dependence(m, d.X, 2, gc, 0, 1, 2);
        const double avg_c[] = {-0.5623818586153307, -0.07977621165564885, 0.4028294353040325, 0.8854350822637134,
                                1.3680407292233951};
        for (Index g = 0; g < 5; ++g) CHECK(pc.average(g, 0) == doctest::Approx(avg_c[g]).epsilon(1e-9));
        CHECK(pc.ice_rows.empty());
        CHECK(pc.labels == std::vector<std::string>{"0", "1", "2", "3", "4"});
    }

    TEST_CASE("properties: a linear model's curve has its weight as slope; ICE averages to the PDP; threads") {
        const Dataset d = fixture();
        const Model m = least_squares(d);
        const auto grid = column_grid(m, d.X, 1, 7);
        const PartialDependence p = partial_dependence(m, d.X, 1, grid, 100, 3, 1);
        const double w = m.estimator().linear_weights()(0, 1);
        for (std::size_t g = 1; g < grid.size(); ++g)
            CHECK((p.average(static_cast<Index>(g), 0) - p.average(0, 0)) / (grid[g] - grid[0]) ==
                  doctest::Approx(w).epsilon(1e-9));
        for (Index g = 0; g < p.average.rows(); ++g) CHECK(p.ice[0].col(g).mean() == doctest::Approx(p.average(g, 0)));
        const PartialDependence q = partial_dependence(m, d.X, 1, grid, 100, 3, 2);
        CHECK(q.average == p.average);
        // The ICE cap keeps a seeded sample of rows, ascending, the same at any thread count.
        const PartialDependence s1 = partial_dependence(m, d.X, 1, grid, 5, 3, 1);
        const PartialDependence s2 = partial_dependence(m, d.X, 1, grid, 5, 3, 2);
        CHECK(s1.ice_rows.size() == 5);
        CHECK(std::is_sorted(s1.ice_rows.begin(), s1.ice_rows.end()));
        CHECK(s1.ice_rows == s2.ice_rows);
        CHECK(s1.ice[0] == s2.ice[0]);
        CHECK(s1.average == p.average);  // the average is over every row, whatever the cap
    }

    TEST_CASE("a classifier's partial dependence is each class's probability; a category's grid is its categories") {
        // Label = colour by hand: red -> a, green -> b, blue -> b; x is noise.
        std::string csv = "label,colour,x\n";
        const char* colours[] = {"red", "green", "blue"};
        for (int i = 0; i < 30; ++i)
            csv += std::string(i % 3 == 0 ? "a" : "b") + "," + colours[i % 3] + "," + std::to_string(i % 7) + "\n";
        Table t = read_table_from_buffer(csv, "colours.csv", ReadOptions{});
        const Dataset d = make_dataset(std::move(t), Task::classification);
        ModelSpec spec;
        spec.model = "tree";
        const Model m = Model::train(spec, d, Context{});
        const auto grid = column_grid(m, d.X, 0, 100);
        REQUIRE(grid.size() == 3);
        const PartialDependence p = partial_dependence(m, d.X, 0, grid, 0, 1, 1);
        CHECK(p.response == "proba");
        CHECK(p.outputs == m.classes());
        // Every row set to red is class a, to green or blue class b: probabilities 1 and 0.
        for (std::size_t g = 0; g < grid.size(); ++g) {
            const bool red = p.labels[g] == "red";
            const Index a = m.classes()[0] == "a" ? 0 : 1;
            CHECK(p.average(static_cast<Index>(g), a) == doctest::Approx(red ? 1.0 : 0.0));
            CHECK(p.average(static_cast<Index>(g), 1 - a) == doctest::Approx(red ? 0.0 : 1.0));
        }
    }

    TEST_CASE("the SHAP summary of a linear model is |w_j| times the mean absolute deviation, by hand") {
        const Dataset d = fixture();
        const Model m = least_squares(d);
        const ShapSummary s = shap_summary(m, d.X);
        REQUIRE(s.outputs.size() == 1);
        REQUIRE(s.features == std::vector<std::string>{"a", "b", "c"});
        for (Index j = 0; j < 3; ++j) {
            const auto v = column(d, j);
            const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
            double mad = 0;
            for (double x : v) mad += std::fabs(x - mean);
            mad /= static_cast<double>(v.size());
            CHECK(s.mean_abs(j, 0) ==
                  doctest::Approx(std::fabs(m.estimator().linear_weights()(0, j)) * mad).epsilon(1e-9));
        }
        // a (weight 2, spread 3) > b (weight 1, spread 0.5) and c (weight 0.5, spread ~1.2).
        CHECK(s.order.front() == 0);
        CHECK(std::is_sorted(s.order.begin(), s.order.end(), [&](Index x, Index y) { return s.total[x] > s.total[y]; }));
        // A model without contributions is refused.
        ModelSpec knn;
        knn.model = "knn";
        const Model k = Model::train(knn, d, Context{});
        CHECK_THROWS_AS(shap_summary(k, d.X), UsageError);
    }

    TEST_CASE("permutation importance shuffles a categorical input column as a whole") {
        // Label = colour (red -> a, else b), one-hot encoded for logistic: permuting the raw
        // column moves each row's category, never a single 0/1 column. The drop is
        // predicted by hand from the same shuffle.
        std::string csv = "label,colour,x\n";
        const char* colours[] = {"red", "green", "blue"};
        for (int i = 0; i < 30; ++i)
            csv += std::string(i % 3 == 0 ? "a" : "b") + "," + colours[i % 3] + "," + std::to_string(i % 7) + "\n";
        Table t = read_table_from_buffer(csv, "colours.csv", ReadOptions{});
        const Dataset d = make_dataset(std::move(t), Task::classification);
        ModelSpec spec;
        spec.model = "logistic";
        spec.params = {{"C", 100.0}};
        const Model m = Model::train(spec, d, Context{});
        const PermutationImportance p = permutation_importance(m, d.X, d.y, "accuracy", 3, 11, 1);
        REQUIRE(p.mean.size() == 2);  // one per input column, not per one-hot column
        CHECK(p.baseline == 1.0);
        Rng rng(derive_seed(11, 0));
        std::vector<Index> perm(30);
        for (int r = 0; r < 3; ++r) {
            std::iota(perm.begin(), perm.end(), 0);
            rng.shuffle(perm);
            // A row keeps its label when its new colour is on the same side of red.
            int same = 0;
            for (Index i = 0; i < 30; ++i) same += (perm[static_cast<std::size_t>(i)] % 3 == 0) == (i % 3 == 0);
            CHECK(p.drops(0, r) == doctest::Approx(1.0 - same / 30.0));
        }
        CHECK(p.drops(0, 0) > 0);
        CHECK(permutation_importance(m, d.X, d.y, "accuracy", 3, 11, 2).drops == p.drops);
    }
}

}  // namespace unit_model_selection_partial_dependence_test
}  // namespace
