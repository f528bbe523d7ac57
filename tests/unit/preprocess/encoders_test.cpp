// Imputation and one-hot encoding against scikit-learn 1.2.1 (Debian 12's
// python3-sklearn): the reference figures come from make_encoder_references.py beside
// this file, run on the same fixture.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/preprocess/encoders.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_encoders_test {

using namespace kestrel;

namespace {

const char* kTable =
    "colour,size,weight,label\n"
    "red,S,1.5,1.0\n"
    "blue,M,NA,2.0\n"
    "red,L,2.5,1.5\n"
    "green,M,3.0,3.5\n"
    "NA,S,4.0,2.5\n"
    "blue,S,2.0,0.5\n"
    "red,M,7.0,4.0\n";

Table read_table_text(const std::string& text, ReadOptions o = {}) {
    o.missing = MissingPolicy::keep;
    return read_table_from_buffer(text, "t.csv", o);
}

std::vector<Index> roles_of(const Table& t) {
    std::vector<Index> r;
    for (const auto& c : t.categories) r.push_back(static_cast<Index>(c.size()));
    return r;
}

double fill_of(const std::string& spec, const Table& t, Index column) {
    auto step = make_impute_step(spec);
    step->fit(t.X, roles_of(t));
    return step->to_json().at("fill").at(static_cast<std::size_t>(column)).get<double>();
}

}  // namespace

TEST_SUITE("preprocess") {

TEST_CASE("impute: mean, median, most_frequent and constant as SimpleImputer; categories take the most frequent") {
    const Table t = read_table_text(kTable);
    // SimpleImputer(strategy=...).fit(weight).statistics_: 3.33333333, 2.75, 1.5.
    CHECK(fill_of("impute:mean", t, 2) == doctest::Approx(10.0 / 3).epsilon(1e-15));
    CHECK(fill_of("impute:median", t, 2) == 2.75);
    CHECK(fill_of("impute:most_frequent", t, 2) == 1.5);
    CHECK(fill_of("impute:constant=-7", t, 2) == -7);
    // colour: SimpleImputer(most_frequent) gives 'red' (code 2 of blue, green, red),
    // whatever the numeric strategy.
    CHECK(fill_of("impute:mean", t, 0) == 2);
    CHECK(fill_of("impute:constant=-7", t, 0) == 2);

    auto with_indicator = make_impute_step("impute:median,indicator");
    with_indicator->fit(t.X, roles_of(t));
    const Features out = with_indicator->transform(t.X);
    REQUIRE(out.cols() == 5);  // colour and weight had missing cells
    CHECK(out.dense_ref()(1, 2) == 2.75);
    CHECK(out.dense_ref()(1, 4) == 1);
    CHECK(out.dense_ref()(4, 3) == 1);
    CHECK(out.dense_ref()(0, 3) == 0);
    CHECK(with_indicator->output_names({"colour", "size", "weight"}) ==
          std::vector<std::string>{"colour", "size", "weight", "missing(colour)", "missing(weight)"});
    CHECK_THROWS_AS(make_impute_step("impute:mode"), UsageError);
}

TEST_CASE("onehot: min_frequency and max_categories fold rare categories as OneHotEncoder's infrequent column") {
    const Table t = read_table_text(kTable);
    const std::vector<Index> roles = roles_of(t);
    // colour: blue x2, green x1, red x3 (codes 0, 1, 2); size: L x1, M x3, S x3.
    auto min_freq = make_onehot_step("onehot:min_frequency=2");
    min_freq->fit(t.X, roles);
    // OneHotEncoder(min_frequency=2): colour blue, red, infrequent (green); size M, S,
    // infrequent (L); so L -> [0, 0, 1] and M -> [1, 0, 0].
    set_category_names(*min_freq, t.categories);
    CHECK(min_freq->output_names({"colour", "size", "weight"}) ==
          std::vector<std::string>{"colour=blue", "colour=red", "colour=infrequent", "size=M", "size=S",
                                   "size=infrequent", "weight"});
    const DenseMatrix m(min_freq->transform(t.X).dense_ref());
    CHECK(m(2, 3) == 0);  // row 3: size L
    CHECK(m(2, 5) == 1);
    CHECK(m(1, 3) == 1);  // row 2: size M
    CHECK(m(3, 2) == 1);  // row 4: colour green, infrequent
    CHECK(m(4, 0) + m(4, 1) + m(4, 2) == 0);  // a missing colour is an all-zero row

    // OneHotEncoder(max_categories=2): one frequent category per column. colour keeps
    // red; of size's M and S (3 each) the later, S, stays: L -> [0, 1], M -> [0, 1], S -> [1, 0].
    auto max_cat = make_onehot_step("onehot:max_categories=2");
    max_cat->fit(t.X, roles);
    const DenseMatrix c(max_cat->transform(t.X).dense_ref());
    REQUIRE(c.cols() == 2 + 2 + 1);
    CHECK(c(0, 0) == 1);  // red
    CHECK(c(1, 1) == 1);  // blue: infrequent
    CHECK(c(2, 2) == 0);  // L
    CHECK(c(2, 3) == 1);
    CHECK(c(1, 3) == 1);  // M
    CHECK(c(0, 2) == 1);  // S
}

TEST_CASE("ridge on a raw table equals scikit-learn's impute + OneHotEncoder + Ridge pipeline") {
    const Dataset d = make_dataset(read_table_text(kTable), Task::regression);
    REQUIRE(d.category_counts == std::vector<Index>{3, 3, 0});
    ModelSpec spec;
    spec.model = "ridge";
    spec.params = {{"alpha", 1.0}};
    Context ctx;
    const Model m = Model::train(spec, d, ctx);
    CHECK(m.prepared_feature_names() == std::vector<std::string>{"colour=blue", "colour=green", "colour=red", "size=L",
                                                                 "size=M", "size=S", "weight"});
    // ColumnTransformer([median imputer on weight, most_frequent imputer + OneHotEncoder
    // on colour and size]) + Ridge(alpha=1): coef_ and intercept_ in our column order.
    const std::vector<double> coef{-0.42685226, 0.50421196, -0.0773597, -0.14677685, 0.40456898, -0.25779213, 0.43218741};
    const Eigen::MatrixXd w = m.estimator().linear_weights();
    REQUIRE(w.cols() == 7);
    for (Index j = 0; j < 7; ++j) CHECK(w(0, j) == doctest::Approx(coef[static_cast<std::size_t>(j)]).epsilon(1e-6));
    // Prediction on raw rows with unknown categories (purple, XL) and a missing weight:
    // sklearn (handle_unknown='ignore') gives 1.72116812 and 1.57745999.
    ReadOptions o = m.align_options(ReadOptions{});
    const Table test = read_table_from_buffer("colour,size,weight\npurple,S,NA\nred,XL,2.0\n", "test.csv", o);
    const Vector p = m.predict(test.X);
    CHECK(p[0] == doctest::Approx(1.72116812).epsilon(1e-6));
    CHECK(p[1] == doctest::Approx(1.57745999).epsilon(1e-6));

    // Save and load: the categories and steps come back, predictions are identical.
    const Model back = Model::from_json(m.to_json(), "m.json");
    CHECK(back.categories() == m.categories());
    CHECK(back.predict(test.X) == p);
    CHECK(m.to_json()["version"] == 4);  // categories, and ridge's feature_mean
}

TEST_CASE("ridge with --encode ordinal equals scikit-learn's impute + OrdinalEncoder + Ridge pipeline") {
    const Dataset d = make_dataset(read_table_text(kTable), Task::regression);
    ModelSpec spec;
    spec.model = "ridge";
    spec.params = {{"alpha", 1.0}};
    spec.encode = "ordinal";
    const Model m = Model::train(spec, d, Context{});
    CHECK(m.prepared_feature_names() == std::vector<std::string>{"colour", "size", "weight"});
    // OrdinalEncoder(handle_unknown='use_encoded_value', unknown_value=-1) after the
    // most_frequent imputer on colour and size, median on weight; Ridge(alpha=1).
    const std::vector<double> coef{0.0181908, -0.222948, 0.52531894};
    const Eigen::MatrixXd w = m.estimator().linear_weights();
    REQUIRE(w.cols() == 3);
    for (Index j = 0; j < 3; ++j) CHECK(w(0, j) == doctest::Approx(coef[static_cast<std::size_t>(j)]).epsilon(1e-6));
    // Unknown categories (purple, XL) are the code -1: sklearn predicts 1.67937014, 2.00879733.
    const Table test = read_table_from_buffer("colour,size,weight\npurple,S,NA\nred,XL,2.0\n", "test.csv",
                                              m.align_options(ReadOptions{}));
    const Vector p = m.predict(test.X);
    CHECK(p[0] == doctest::Approx(1.67937014).epsilon(1e-6));
    CHECK(p[1] == doctest::Approx(2.00879733).epsilon(1e-6));
}

TEST_CASE("logistic on a raw table equals scikit-learn's impute + OneHotEncoder + LogisticRegression pipeline") {
    // make_encoder_references.py, last block: C = 1, newton-cg to tol 1e-14; binary (yes against
    // the rest) and multinomial. Columns: colour=blue, green, red, size=L, M, S, weight.
    const std::string labelled =
        "colour,size,weight,label\n"
        "red,S,1.5,no\nblue,M,NA,yes\nred,L,2.5,no\ngreen,M,3.0,yes\nNA,S,4.0,maybe\nblue,S,2.0,no\n"
        "red,M,7.0,yes\ngreen,L,5.5,maybe\nblue,L,1.0,no\nred,S,6.0,maybe\ngreen,S,NA,yes\nblue,M,3.5,maybe\n";
    struct Case {
        std::string table;
        std::vector<std::string> classes;                 // scikit-learn's order (sorted)
        std::vector<std::vector<double>> coef;            // per class (one row for binary)
        std::vector<std::vector<double>> proba;           // the two test rows, per class
    };
    std::string binary = labelled;
    for (std::size_t at = 0; (at = binary.find(",maybe", at)) != std::string::npos;) binary.replace(at, 6, ",no");
    const std::vector<Case> cases{
        {binary,
         {"no", "yes"},
         {{-0.3488286074, 0.5844076668, -0.2355790584, -0.6280746786, 0.8708825341, -0.2428078546, 0.1771669422}},
         {{0.7422539067, 0.2577460933}, {0.7810757391, 0.2189242609}}},
        {labelled,
         {"maybe", "no", "yes"},
         {{0.4117001848, -0.1006032119, -0.3110969748, 0.1787575637, -0.2952314628, 0.1164738972, 0.6867651833},
          {-0.0272956231, -0.3196543164, 0.3469499411, 0.3035180582, -0.3869937322, 0.0834756757, -0.9984447911},
          {-0.3844045618, 0.4202575283, -0.0358529663, -0.4822756219, 0.6822251951, -0.1999495729, 0.3116796078}},
         {{0.3666448741, 0.2897718503, 0.3435832756}, {0.0599833378, 0.7776873522, 0.16232931}}},
    };
    for (const Case& c : cases) {
        CAPTURE(c.classes.size());
        const Dataset d = make_dataset(read_table_text(c.table), Task::classification);
        ModelSpec spec;
        spec.model = "logistic";
        spec.params = {{"C", 1.0}, {"tol", 1e-12}};
        const Model m = Model::train(spec, d, Context{});
        REQUIRE(m.prepared_feature_names().size() == 7);
        const auto class_at = [&](const std::string& name) {
            const auto it = std::find(m.classes().begin(), m.classes().end(), name);
            REQUIRE(it != m.classes().end());
            return static_cast<Index>(it - m.classes().begin());
        };
        const Eigen::MatrixXd w = m.estimator().linear_weights();
        REQUIRE(w.cols() == 7);
        for (std::size_t k = 0; k < c.coef.size(); ++k) {
            // Binary: one row, for the second class (yes); multinomial: one row per class.
            const Index row = c.coef.size() == 1 ? 0 : class_at(c.classes[k]);
            for (Index j = 0; j < 7; ++j)
                CHECK(w(row, j) == doctest::Approx(c.coef[k][static_cast<std::size_t>(j)]).epsilon(1e-6));
        }
        // Unknown categories (purple, XL) and a missing weight at predict time.
        const Table test = read_table_from_buffer("colour,size,weight\npurple,S,NA\nred,XL,2.0\n", "test.csv",
                                                  m.align_options(ReadOptions{}));
        const Matrix P = m.predict_proba(test.X);
        for (Index r = 0; r < 2; ++r)
            for (std::size_t k = 0; k < c.classes.size(); ++k)
                CHECK(P(r, class_at(c.classes[k])) ==
                      doctest::Approx(c.proba[static_cast<std::size_t>(r)][k]).epsilon(1e-6));
    }
}

}  // TEST_SUITE

}  // namespace unit_preprocess_encoders_test
}  // namespace
