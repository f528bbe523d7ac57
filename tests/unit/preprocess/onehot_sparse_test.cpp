// Sparse one-hot rows for a wide encoding: a model that takes sparse rows gets them
// when fewer than 30% of the encoded cells are stored (scikit-learn's ColumnTransformer
// sparse_threshold=0.3), and predicts as it does from the same encoding in dense rows.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <sstream>

#include "kestrel/core/context.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/preprocess/encoders.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_onehot_sparse_test {

using namespace kestrel;

namespace {

// 20 cities and 8 kinds: per row 2 numeric cells and 2 ones out of 30 columns (13%).
// x2 is 0 in some rows: a numeric zero must stay a stored cell.
std::string wide_table(int first, int rows, bool labelled) {
    std::ostringstream s;
    s << "city,kind,x1,x2" << (labelled ? ",y,cls" : "") << "\n";
    for (int i = first; i < first + rows; ++i) {
        const int city = (i * 7) % 20, kind = (i * 3) % 8;
        const double x1 = 5 + 3 * std::sin(i), x2 = (i % 11) * 0.5 - 2;
        // A city never seen in training in one test row: an all-zero block.
        s << (!labelled && i == first + 1 ? std::string("c99") : "c" + std::to_string(city)) << ",k" << kind << "," << x1 << "," << x2;
        if (labelled) {
            const double y = x1 - 2 * x2 + 0.3 * city - 0.5 * kind + std::cos(3 * i);
            s << "," << y << "," << (y > 6 ? "yes" : "no");
        }
        s << "\n";
    }
    return s.str();
}

Dataset training_set(const char* label, Task task) {
    ReadOptions o;
    o.label_col = label;
    o.ignore_columns = {std::string(label) == "y" ? "cls" : "y"};
    return make_dataset(read_table_from_buffer(wide_table(0, 120, true), "wide.csv", o), task);
}

Features test_rows(const Model& m) {
    return read_table_from_buffer(wide_table(200, 40, false), "test.csv", m.align_options(ReadOptions{})).X;
}

// The same model fitted on the dense encoding made by hand: one-hot without the
// sparse option, then the standard scaler over the numeric columns.
struct DenseReference {
    std::unique_ptr<Transformer> encode = make_onehot_step("onehot");
    std::unique_ptr<Transformer> scale = make_transformer("standard");
    std::optional<Model> model;

    DenseReference(const ModelSpec& spec, const Dataset& d) {
        encode->fit(d.X, d.category_counts);
        const Features e = encode->transform(d.X);
        scale->fit(e, encode->output_roles(d.category_counts, e.cols()));
        Dataset dense = d;
        dense.X = scale->transform(e);
        dense.category_counts.clear();
        dense.categories.clear();
        ModelSpec plain = spec;
        plain.preprocessing.clear();
        model.emplace(Model::train(plain, dense, Context{}));
    }
    Features prepare(const Features& X) const { return scale->transform(encode->transform(X)); }
};

ModelSpec scaled(const std::string& model, Params params = {}) {
    ModelSpec spec;
    spec.model = model;
    spec.params = params.is_null() ? Params::object() : std::move(params);
    spec.preprocessing = {"standard"};
    return spec;
}

}  // namespace

TEST_SUITE("preprocess") {

TEST_CASE("onehot: sparse rows only below 30% stored cells, and only when asked for") {
    const Dataset d = training_set("y", Task::regression);
    auto sparse = make_onehot_step("onehot:sparse");
    sparse->fit(d.X, d.category_counts);
    const Features s = sparse->transform(d.X);
    REQUIRE(s.is_sparse());
    REQUIRE(s.cols() == 20 + 8 + 2);
    // Every numeric cell is stored, x2's zeros included; one entry per known category.
    CHECK(s.sparse_ref().nonZeros() == 120 * 4);
    CHECK(sparse->to_json().at("sparse") == true);
    auto dense = make_onehot_step("onehot");
    dense->fit(d.X, d.category_counts);
    CHECK_FALSE(dense->transform(d.X).is_sparse());
    CHECK_FALSE(dense->to_json().contains("sparse"));
    CHECK(s.to_dense() == dense->transform(d.X).dense_ref());
    // max_categories=2: 2 columns per category column + 2 numeric, 4 of 6 stored: dense.
    auto narrow = make_onehot_step("onehot:max_categories=2,sparse");
    narrow->fit(d.X, d.category_counts);
    CHECK_FALSE(narrow->transform(d.X).is_sparse());
    // A fitted step keeps its choice through a model file.
    const auto back = transformer_from_json(sparse->to_json());
    CHECK(back->transform(d.X).is_sparse());
}

TEST_CASE("onehot sparse rows: the scaler centres the numeric columns only, as on dense rows") {
    const Dataset d = training_set("y", Task::regression);
    const Model m = Model::train(scaled("ridge"), d, Context{});
    const Json steps = m.to_json().at("preprocessing");
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].at("sparse") == true);
    const DenseReference ref(scaled("ridge"), d);
    // The same bits as the scaler fitted on the dense encoding: mean and scale of x1
    // and x2, 0 and 1 for the 0/1 columns.
    CHECK(steps[1].at("mean") == ref.scale->to_json().at("mean"));
    CHECK(steps[1].at("scale") == ref.scale->to_json().at("scale"));
    const std::vector<double> mean = steps[1].at("mean").get<std::vector<double>>();
    CHECK(mean[28] != 0);  // x1, after the 20 + 8 one-hot columns
    for (int j = 0; j < 28; ++j) CHECK(mean[static_cast<std::size_t>(j)] == 0);
    const Features p = m.prepared(test_rows(m));
    REQUIRE(p.is_sparse());
    CHECK(p.to_dense() == ref.prepare(test_rows(m)).dense_ref());
}

TEST_CASE("onehot sparse rows: regression predictions equal the dense encoding's, and survive save/load") {
    const Dataset d = training_set("y", Task::regression);
    for (const auto& [model, params] : std::vector<std::pair<std::string, Params>>{
             {"ridge", Params{{"alpha", 1.0}}}, {"lasso", Params{{"lambda", 0.01}}}, {"knn", Params{{"n_neighbors", 3}}}}) {
        CAPTURE(model);
        const ModelSpec spec = scaled(model, params);
        const Model m = Model::train(spec, d, Context{});
        const DenseReference ref(spec, d);
        const Features X = test_rows(m);
        const Vector p = m.predict(X), q = ref.model->predict(ref.prepare(X));
        for (Index i = 0; i < p.size(); ++i) CHECK(p[i] == doctest::Approx(q[i]).epsilon(1e-9));
        const Model back = Model::from_json(m.to_json(), "m.json");
        CHECK(back.predict(X) == p);
    }
}

TEST_CASE("onehot sparse rows: classifiers predict the same classes as from the dense encoding") {
    const Dataset d = training_set("cls", Task::classification);
    for (const auto& [model, params] : std::vector<std::pair<std::string, Params>>{
             {"logistic", Params{{"C", 1.0}}}, {"linear_svm", Params()}, {"svc", Params()}, {"knn", Params{{"n_neighbors", 5}}}}) {
        CAPTURE(model);
        const ModelSpec spec = scaled(model, params);
        const Model m = Model::train(spec, d, Context{});
        REQUIRE(m.prepared(test_rows(m)).is_sparse());
        const DenseReference ref(spec, d);
        const Features X = test_rows(m);
        CHECK(m.predict(X) == ref.model->predict(ref.prepare(X)));
        if (m.estimator().has_decision_function()) {
            const Matrix a = m.decision_function(X), b = ref.model->decision_function(ref.prepare(X));
            for (Index i = 0; i < a.size(); ++i) CHECK(a(i) == doctest::Approx(b(i)).epsilon(1e-7));
        }
        const Model back = Model::from_json(m.to_json(), "m.json");
        CHECK(back.predict(X) == m.predict(X));
    }
}

}  // TEST_SUITE

}  // namespace unit_preprocess_onehot_sparse_test
}  // namespace
