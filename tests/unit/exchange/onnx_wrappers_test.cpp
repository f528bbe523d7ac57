// The ONNX graphs of error-correcting output codes and of the pairwise coupling of svc's
// probabilities (onnx_multiclass.cpp), of the one-class SVM (onnx_kernel_models.cpp) and of
// ensembles and stacks (onnx_export.cpp), and knn's kernel metric: the operators each writes,
// the code matrix, the coupling's constants, the members' weights, a stack's double thresholds
// and the kept rows' k(z, z) as bytes in the file, the outputs. The values themselves are checked against ONNX Runtime
// by tests/exchange/onnx_runtime_test.py.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/exchange/export.hpp"
#include "kestrel/exchange/onnx_export.hpp"
#include "kestrel/kernel_methods/knn.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/multiclass/ecoc.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/svm/svc.hpp"
#include "model_fixtures.hpp"
#include "unit/exchange/onnx_bytes.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_exchange_onnx_wrappers_test {

using namespace kestrel;

namespace {

Model trained(const std::string& model, const Params& params, const Dataset& data) {
    ModelSpec spec;
    spec.model = model;
    spec.params = params;
    return Model::train(spec, data, Context{});
}

std::string onnx_of(const Model& m) { return model_to_onnx(m, ExportOptions{}); }

using test::has_doubles;
using test::has_op;

}  // namespace

TEST_SUITE("exchange") {
    TEST_CASE("ONNX ecoc: the members' decision values decoded against each class's codeword") {
        for (const Index classes : {3, 2}) {
            const Model loss = trained("linear_svm", {{"multiclass", "ecoc"}}, test::blobs(40, 2, classes));
            const auto* ecoc = dynamic_cast<const Ecoc*>(&loss.estimator());
            REQUIRE(ecoc != nullptr);
            const std::string file = onnx_of(loss);
            for (const char* op : {"MatMul", "Unsqueeze", "Max", "Exp", "Log", "ReduceSum", "Neg", "ArgMax"})
                CHECK(has_op(file, op));
            CHECK_FALSE(has_op(file, "Sign"));
            std::vector<double> code;  // [1, k, bits]
            for (Index c = 0; c < ecoc->code().rows(); ++c)
                for (Index m = 0; m < ecoc->code().cols(); ++m) code.push_back(ecoc->code()(c, m));
            CHECK(has_doubles(file, code));
            const Model hamming =
                trained("linear_svm", {{"multiclass", "ecoc"}, {"decoding", "hamming"}}, test::blobs(40, 2, classes));
            const std::string h = onnx_of(hamming);
            CHECK(has_op(h, "Sign"));
            CHECK(has_op(h, "Div"));
        }
    }

    TEST_CASE("ONNX svc probability=1: the pairs' Platt sigmoids, coupled in a Loop from three classes up") {
        for (const Index classes : {3, 5}) {
            const Model m = trained("svc", {{"probability", true}}, test::blobs(60, 2, classes));
            const auto* svc = dynamic_cast<const Svc*>(&m.estimator());
            REQUIRE(svc != nullptr);
            const std::string file = onnx_of(m);
            for (const char* op : {"Loop", "Clip", "ReduceMax", "Less", "Not", "Where", "Expand", "Concat"})
                CHECK(has_op(file, op));
            // The Loop's body as a graph attribute: AttributeProto name "body", then field g (6).
            CHECK(file.find(std::string("\x0a\x04"
                                        "body\x32")) != std::string::npos);
            CHECK(has_doubles(file, {0.005 / static_cast<double>(classes)}));  // the stopping rule's eps
            CHECK(has_doubles(file, {1e-7}));                                  // LIBSVM's min_prob
            const Vector& a = svc->model().prob_a;
            CHECK(has_doubles(file, std::vector<double>(a.begin(), a.end())));  // each pair's sigmoid
        }
        // A wrapper of logistic members: one-vs-one couples their P(positive) in the same Loop,
        // one-vs-rest divides them by their sum.
        const Model ovo = trained("logistic", {{"multiclass", "ovo"}}, test::blobs(40, 2, 4));
        CHECK(has_op(onnx_of(ovo), "Loop"));
        CHECK(has_doubles(onnx_of(ovo), {0.005 / 4}));
        const std::string ovr = onnx_of(trained("logistic", {{"multiclass", "ovr"}}, test::blobs(40, 2, 4)));
        CHECK_FALSE(has_op(ovr, "Loop"));
        for (const char* op : {"Sigmoid", "Greater", "Div", "Where"}) CHECK(has_op(ovr, op));
        // Two classes: Platt's sigmoid alone. Calibrated: the decision values, no coupling.
        CHECK_FALSE(has_op(onnx_of(trained("svc", {{"probability", true}}, test::blobs(60, 2, 2))), "Loop"));
        ModelSpec spec;
        spec.model = "svc";
        spec.params = {{"probability", true}};
        spec.calibrate = "sigmoid";
        spec.calibrate_folds = 2;
        CHECK_FALSE(has_op(onnx_of(Model::train(spec, test::blobs(60, 2, 3), Context{})), "Loop"));
    }

    TEST_CASE("ONNX wrappers and adaboost over any family: each member's nodes as its family exports it alone") {
        const auto count_op = [](const std::string& file, const std::string& op) {
            const std::string node = std::string{'\x22', static_cast<char>(op.size())} + op;
            int n = 0;
            for (auto at = file.find(node); at != std::string::npos; at = file.find(node, at + 1)) ++n;
            return n;
        };
        const Dataset data = test::blobs(60, 2, 3);
        // One-vs-rest over gbdt: a tree ensemble per member, σ of each raw score, their sum.
        const std::string gbdt = onnx_of(trained("gbdt", {{"multiclass", "ovr"}, {"n_estimators", 5}}, data));
        CHECK(count_op(gbdt, "TreeEnsembleRegressor") == 3);
        for (const char* op : {"Sigmoid", "Concat", "Div", "Where", "ArgMax"}) CHECK(has_op(gbdt, op));
        CHECK_FALSE(has_op(gbdt, "Loop"));
        // One-vs-one over svc with probability=1: each pair's member its own kernel and Platt
        // sigmoid, their P(positive) coupled in the Loop, the label the members' votes.
        const Model svc = trained("svc", {{"multiclass", "ovo"}, {"probability", true}}, data);
        const auto* wrapper = dynamic_cast<const MulticlassWrapper*>(&svc.estimator());
        REQUIRE(wrapper != nullptr);
        REQUIRE(wrapper->fitted_members().size() == 3);
        const std::string pairs = onnx_of(svc);
        CHECK(count_op(pairs, "Loop") == 1);
        for (const auto& member : wrapper->fitted_members()) {
            const auto* binary = dynamic_cast<const Svc*>(member.get());
            REQUIRE(binary != nullptr);
            const Vector& a = binary->model().prob_a;
            CHECK(has_doubles(pairs, std::vector<double>(a.begin(), a.end())));
        }
        // ecoc over forest: the members' P(positive) − ½ as ecoc's logits, clipped at 1e-12.
        const std::string forest = onnx_of(trained("forest", {{"multiclass", "ecoc"}, {"n_estimators", 5}}, data));
        for (const char* op : {"TreeEnsembleRegressor", "Clip", "Log", "ReduceSum"}) CHECK(has_op(forest, op));
        CHECK(has_doubles(forest, {1e-12}));
        // knn one-vs-rest: a TopK per member.
        CHECK(count_op(onnx_of(trained("knn", {{"multiclass", "ovr"}}, data)), "TopK") == 3);
        // adaboost over svc: each learner's votes ranked (ArgMax), its α to that class.
        const Model ada = trained("adaboost", {{"base", "svc"}, {"n_estimators", 3}}, data);
        const auto* boost = dynamic_cast<const AdaBoost*>(&ada.estimator());
        REQUIRE(boost != nullptr);
        const std::string learners = onnx_of(ada);
        CHECK(count_op(learners, "ArgMax") == static_cast<int>(boost->learners().size()) + 1);  // + the label's
        for (const auto& round : boost->rounds()) CHECK(has_doubles(learners, {round.alpha}));
    }

    TEST_CASE("ONNX ensembles: the members' weighted probabilities; a stack's second layer on double columns") {
        const Dataset data = test::blobs(60, 2, 2);
        const Model logistic = trained("logistic", Params::object(), data);
        const Model tree = trained("tree", {{"max_depth", 3}}, data);
        const std::string average = onnx_of(Model::ensemble({{logistic, 0.25}, {tree, 0.75}}, data, Context{}));
        for (const char* op : {"MatMul", "Sigmoid", "TreeEnsembleRegressor", "Mul", "Add", "ArgMax"})
            CHECK(has_op(average, op));
        CHECK(has_doubles(average, {0.25}));
        CHECK(has_doubles(average, {0.75}));
        // A stack: each input's probabilities side by side, a gbdt on them. Its columns are
        // computed in double, so its thresholds stay the doubles they are, not floats chosen
        // for float32 inputs as the first layer's tree's are.
        Dataset z = data;
        DenseMatrix columns(data.rows(), 4);
        columns << logistic.predict_proba(data.X), tree.predict_proba(data.X);
        z.X = Features(std::move(columns));
        z.feature_names = {"l0", "l1", "t0", "t1"};
        const Model stacker = trained("gbdt", {{"n_estimators", 5}}, z);
        const std::string stack = onnx_of(Model::stacked({{{logistic, 1.0}}, {{tree, 1.0}}}, stacker, data, Context{}));
        const auto* gbdt = dynamic_cast<const Gbdt*>(&stacker.estimator());
        REQUIRE(gbdt != nullptr);
        int splits = 0;
        for (const Tree& t : gbdt->trees())
            for (int i = 0; i < t.size(); ++i)
                if (!t.node(i).is_leaf()) {
                    ++splits;
                    CHECK(has_doubles(stack, {t.node(i).threshold}));
                }
        CHECK(splits > 0);
    }

    TEST_CASE("ONNX knn metric=kernel: k(x, x) - 2 k(x, z) + k(z, z), the kept rows' k(z, z) from kestrel's Kernel") {
        const Model m =
            trained("knn", {{"metric", "kernel"}, {"kernel", "poly(degree=2,coef0=1)"}}, test::blobs(30, 2, 3));
        const auto* knn = dynamic_cast<const Knn*>(&m.estimator());
        REQUIRE(knn != nullptr);
        REQUIRE(knn->kernel().has_value());
        const Kernel kernel(*knn->kernel());
        const KernelRows rows(knn->index().train());
        std::vector<double> kzz;
        for (Index j = 0; j < rows.size(); ++j) kzz.push_back(kernel(rows, j, rows, j));
        const std::string file = onnx_of(m);
        CHECK(has_doubles(file, kzz));
        for (const char* op : {"MatMul", "Pow", "ReduceSum", "Max", "TopK", "Gather"}) CHECK(has_op(file, op));
        // The other metrics' files have no kernel.
        CHECK_FALSE(has_op(onnx_of(trained("knn", Params::object(), test::blobs(30, 2, 3))), "Pow"));
    }

    TEST_CASE("ONNX one_class: +1 where the decision value is above 0, else -1, and the value as scores") {
        const Model m = trained("one_class", Params::object(), test::linear_regression(40, 2));
        const std::string file = onnx_of(m);
        for (const char* op : {"MatMul", "Sub", "Greater", "Where"}) CHECK(has_op(file, op));
        CHECK(file.find("variable") != std::string::npos);
        CHECK(file.find("scores") != std::string::npos);
        CHECK(has_doubles(file, {1.0}));
        CHECK(has_doubles(file, {-1.0}));
    }
}

}  // namespace unit_exchange_onnx_wrappers_test
}  // namespace
