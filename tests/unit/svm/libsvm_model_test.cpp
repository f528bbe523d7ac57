#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/svm/libsvm_model.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_libsvm_model_test {

using namespace kestrel;

namespace {

const std::string kModels = std::string(KESTREL_SOURCE_DIR) + "/tests/fixtures/libsvm-models/";

struct Case {
    std::string model, data;
    std::vector<std::string> libsvm_labels;  // LIBSVM's class order (first appearance); empty: one decision
    std::vector<double> predictions;         // svm-predict's labels (classifiers, one-class); empty: regression
    std::vector<std::vector<double>> decision;  // svm_predict_values, first 6 test rows
};

// References: tests/fixtures/libsvm-models/make_references.py (LIBSVM 3.24, Debian
// libsvm-tools and python3-libsvm 3.24+ds-6; the models come from the svm-train calls in
// the README there). Classifier decision values are per LIBSVM pair, in its label order.
const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {"heart_c_svc.model",
         "heart_scale/test.libsvm",
         {"0", "1"},
         {0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1},
         {{1.6174873179046567},
          {1.2030803817066511},
          {1.4754012227563482},
          {-1.0756667849849331},
          {0.38346207498634549},
          {1.2913261248836794}}},
        {"iris_c_svc.model",
         "iris/test.scaled.libsvm",
         {"0", "2", "1"},
         {0, 2, 1, 1, 0, 1, 0, 0, 2, 1, 2, 2, 2, 1, 0, 0, 0, 1, 1, 2, 0, 2, 1, 2, 2, 2, 1, 0, 2, 0},
         {{1.1733226127954515, 1.1925561736406325, -1.939574817653499},
          {-1.0279423051367176, -1.3909767913518565, 0.18426264972285866},
          {-0.0049896384030252497, -0.73673037883293202, -1.5886903616669168},
          {-0.045517361715061329, -0.81467158994693034, -1.563547446889483},
          {1.2016703239613382, 1.2868709268865184, -1.9384283176919359},
          {-0.82681641007345419, -1.1334406037025311, -0.46263554580014732}}},
        {"iris_c_svc_prob.model",
         "iris/test.scaled.libsvm",
         {"0", "2", "1"},
         {0, 2, 1, 1, 0, 1, 0, 0, 2, 1, 2, 2, 2, 1, 0, 0, 0, 1, 1, 2, 0, 2, 1, 2, 2, 2, 1, 0, 2, 0},
         {{1.2053448050505993, 1.3276573124169977, -2.1566038637946501},
          {-1.1283521121357205, -1.4274213565791283, 0.30537751903026178},
          {-0.099885308971171344, -0.74182910343674902, -1.6632684203418377},
          {-0.12849286704787374, -0.82561089421798561, -1.6464422160649193},
          {1.2284928704181148, 1.4116222276298591, -2.1783681118864311},
          {-0.89695686465198576, -1.1659849282075079, -0.55565275823498428}}},
        {"iris_nu_svc_poly.model",
         "iris/test.scaled.libsvm",
         {"0", "2", "1"},
         {0, 2, 1, 1, 0, 1, 0, 0, 2, 1, 2, 2, 2, 1, 0, 0, 0, 1, 1, 2, 0, 2, 1, 2, 2, 1, 1, 0, 2, 0},
         {{1.1948662313954426, 1.2348155558214844, -4.0397641382373131},
          {-0.85379250069829848, -1.3147936132267288, 0.23020418276963195},
          {-0.11175906505899413, -0.64279319122712664, -2.012391084294066},
          {-0.15172845271141444, -0.70808517594316567, -1.9962119216580423},
          {1.24213959409879, 1.330273972829856, -4.0769438463282563},
          {-0.6977315742647634, -1.1283234357181202, -0.68958946630462226}}},
        {"heart_one_class_sigmoid.model",
         "heart_scale/test.libsvm",
         {},
         {1, 1, 1, -1, 1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, 1, 1, -1, -1, 1, 1, 1, -1, 1, 1, 1, 1, -1, -1, 1, 1, 1, 1, 1, 1, 1, -1, -1, 1, 1},
         {{0.13192582617381832},
          {1.3839532122666438},
          {0.96683753736876143},
          {-0.10560032253504281},
          {1.3249984536056427},
          {0.27024380053893848}}},
        {"diabetes_svr.model",
         "diabetes/test.scaled.libsvm",
         {},
         {},
         {{150.73605344357298},
          {160.96036481154636},
          {147.22858976107653},
          {239.70424988348975},
          {127.53191834102671},
          {115.70374452916776}}},
        {"diabetes_nu_svr_linear.model",
         "diabetes/test.scaled.libsvm",
         {},
         {},
         {{158.7760007319209},
          {182.96840768946791},
          {155.09415105094126},
          {286.92212100542292},
          {135.64471940484867},
          {114.35887640484076}}},
    };
    return c;
}

Features widen(const Features& X, Index n) { return X.cols() < n ? X.with_cols(n) : X; }

// LIBSVM's pair index of label positions (a, b), a < b.
Index pair_index(Index a, Index b, Index k) { return a * (2 * k - a - 1) / 2 + (b - a - 1); }

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = std::string(KESTREL_BIN_DIR) + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// A small valid binary model (labels in the order 1, -1, as svm-train writes them for a
// file starting with +1) to corrupt line by line.
const std::string kSmallModel =
    "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 3\nrho 0.25\nlabel 1 -1\nnr_sv 2 1\nSV\n"
    "1 1:0.5 2:-1 \n0.5 2:1 \n-1.5 1:-0.5 3:2 \n";

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("libsvm model files: kestrel predicts as svm-predict and decision values match to 1e-6") {
    for (const Case& c : cases()) {
        CAPTURE(c.model);
        Model m = Model::load(kModels + c.model);
        CHECK(m.provenance().at("converted_from") == "LIBSVM model file");
        const Table table = read_table(std::string(KESTREL_SHARED_DATA) + "/" + c.data, m.align_options(ReadOptions{}));
        const Features X = widen(table.X, m.n_features());
        const Vector pred = m.predict(table.X);
        if (!c.libsvm_labels.empty()) {
            const auto k = static_cast<Index>(c.libsvm_labels.size());
            REQUIRE(static_cast<Index>(m.classes().size()) == k);
            // kestrel's classes are sorted numerically whatever LIBSVM's order.
            for (Index s = 1; s < k; ++s) CHECK(std::stod(m.classes()[s - 1]) < std::stod(m.classes()[s]));
            REQUIRE(pred.size() == static_cast<Index>(c.predictions.size()));
            for (Index r = 0; r < pred.size(); ++r)
                CHECK(std::stod(m.classes()[static_cast<std::size_t>(pred[r])]) == c.predictions[static_cast<std::size_t>(r)]);
            const auto* svc = dynamic_cast<const Svc*>(&m.estimator());
            REQUIRE(svc != nullptr);
            const Eigen::MatrixXd pw = svc->pairwise_decision(X);
            std::vector<Index> pos(static_cast<std::size_t>(k));  // LIBSVM position of kestrel class s
            for (Index s = 0; s < k; ++s)
                for (Index L = 0; L < k; ++L)
                    if (c.libsvm_labels[static_cast<std::size_t>(L)] == m.classes()[static_cast<std::size_t>(s)])
                        pos[static_cast<std::size_t>(s)] = L;
            for (std::size_t r = 0; r < c.decision.size(); ++r) {
                Index q = 0;
                for (Index s = 0; s < k; ++s)
                    for (Index t = s + 1; t < k; ++t, ++q) {
                        const Index a = pos[static_cast<std::size_t>(s)], b = pos[static_cast<std::size_t>(t)];
                        const double ref = a < b ? c.decision[r][static_cast<std::size_t>(pair_index(a, b, k))]
                                                 : -c.decision[r][static_cast<std::size_t>(pair_index(b, a, k))];
                        CHECK(std::abs(pw(static_cast<Index>(r), q) - ref) < 1e-6);
                    }
            }
        } else {
            const Matrix d = m.decision_function(table.X);
            for (std::size_t r = 0; r < c.decision.size(); ++r)
                CHECK(std::abs(d(static_cast<Index>(r), 0) - c.decision[r][0]) < 1e-6 * std::max(1.0, std::abs(c.decision[r][0])));
            if (c.predictions.empty()) {
                for (std::size_t r = 0; r < c.decision.size(); ++r) CHECK(pred[static_cast<Index>(r)] == d(static_cast<Index>(r), 0));
            } else {
                for (Index r = 0; r < pred.size(); ++r) CHECK(pred[r] == c.predictions[static_cast<std::size_t>(r)]);
            }
        }
    }
}

TEST_CASE("libsvm model files: probA/probB give svm-predict -b 1's probabilities") {
    // svm-predict -b 1 iris/test.scaled.libsvm iris_c_svc_prob.model (columns "labels 0 2 1"
    // reordered to kestrel's 0, 1, 2; printed with 6 digits). LIBSVM's coupling iterates to
    // 0.005/k only, and kestrel couples the classes in another order, hence 2e-3.
    const std::vector<std::vector<double>> ref = {{0.976146, 0.014646, 0.00920769},  {0.0118534, 0.271077, 0.717069},
                                                  {0.074992, 0.904039, 0.0209686},   {0.0580556, 0.924517, 0.0174276},
                                                  {0.980163, 0.0112922, 0.00854436}, {0.0167991, 0.838986, 0.144215}};
    const Model m = Model::load(kModels + "iris_c_svc_prob.model");
    REQUIRE(m.has_predict_proba());
    const Table t = read_table(std::string(KESTREL_SHARED_DATA) + "/iris/test.scaled.libsvm", m.align_options(ReadOptions{}));
    const Matrix p = m.predict_proba(t.X);
    for (std::size_t r = 0; r < ref.size(); ++r) {
        CHECK(p.row(static_cast<Index>(r)).sum() == doctest::Approx(1.0));
        for (std::size_t c = 0; c < 3; ++c) CHECK(std::abs(p(static_cast<Index>(r), static_cast<Index>(c)) - ref[r][c]) < 2e-3);
    }
    CHECK_FALSE(Model::load(kModels + "iris_c_svc.model").has_predict_proba());
}

TEST_CASE("libsvm model files: a model read from LIBSVM saves as a kestrel model and reloads") {
    const Model m = Model::load(kModels + "iris_nu_svc_poly.model");
    CHECK(m.model_name() == "nu_svc");
    CHECK(m.params().at("kernel") == "poly(gamma=0.5,degree=2,coef0=1)");
    const std::string path = std::string(KESTREL_BIN_DIR) + "/libsvm_roundtrip.json";
    m.save(path);
    const Model back = Model::load(path);
    const Table t = read_table(std::string(KESTREL_SHARED_DATA) + "/iris/test.scaled.libsvm", m.align_options(ReadOptions{}));
    CHECK(back.decision_function(t.X) == m.decision_function(t.X));
}

TEST_CASE("libsvm model files: labels given in any order map to kestrel's classes with the right sign") {
    // Hand-computed: rbf(gamma=0.5), SVs a=(0.5,-1,0) coef 1, b=(0,1,0) coef 0.5 (label 1),
    // c=(-0.5,0,2) coef -1.5 (label -1). At x = 0: K = exp(-0.5*1.25), exp(-0.5), exp(-0.5*4.25).
    const std::string path = write_temp("small_libsvm.model", kSmallModel);
    const Model m = Model::load(path);
    REQUIRE(m.classes() == std::vector<std::string>{"-1", "1"});
    const double f = std::exp(-0.625) + 0.5 * std::exp(-0.5) - 1.5 * std::exp(-2.125) - 0.25;  // LIBSVM: favours label 1
    const Features X(DenseMatrix(DenseMatrix::Zero(1, 3)));
    const auto& svc = dynamic_cast<const Svc&>(m.estimator());
    // kestrel's pair (-1, 1): positive favours "-1", so LIBSVM's value negated.
    CHECK(svc.pairwise_decision(X)(0, 0) == doctest::Approx(-f).epsilon(1e-14));
    // The binary decision function is positive for classes[1] = "1", as LIBSVM's value.
    CHECK(m.decision_function(X)(0, 0) == doctest::Approx(f).epsilon(1e-14));
    CHECK(m.predict(X)[0] == (f > 0 ? 1.0 : 0.0));
    CHECK(svc.model().n_sv == std::vector<Index>{1, 2});
}

TEST_CASE("libsvm model files: malformed files are ModelFileErrors naming file:line") {
    CHECK(looks_like_libsvm_model("\n  svm_type c_svc\n"));
    CHECK_FALSE(looks_like_libsvm_model("{\"format\": \"kestrel-model\"}"));
    CHECK_FALSE(looks_like_libsvm_model("svm_types"));
    struct Bad {
        std::string from, to, message;
    };
    const std::vector<Bad> bad = {
        {"svm_type c_svc", "svm_type d_svc", ":1: LIBSVM model: unknown svm_type 'd_svc'"},
        {"kernel_type rbf", "kernel_type radial", "unknown kernel_type 'radial'"},
        {"kernel_type rbf", "kernel_type precomputed", "precomputed-kernel models are not supported"},
        {"gamma 0.5", "gamma abc", ":3: LIBSVM model: expected a finite number for gamma, found 'abc'"},
        {"gamma 0.5\n", "", "kernel_type rbf needs a gamma line"},
        {"rho 0.25", "rho 0.25 0.5", ":6: LIBSVM model: rho has 2 values, expected 1"},
        {"nr_sv 2 1", "nr_sv 2 2", ":8: LIBSVM model: nr_sv adds up to more than total_sv 3"},
        {"label 1 -1", "label 1 1", "label repeats a class"},
        {"nr_class 2", "nr_class 1", "a classifier needs nr_class >= 2"},
        {"nr_class 2", "nr_clas 2", ":4: LIBSVM model: unknown header keyword 'nr_clas'"},
        {"SV\n", "", ":9: LIBSVM model: unknown header keyword '1' (a support vector before the SV line?)"},
        {"SV\n1 1:0.5 2:-1 \n0.5 2:1 \n-1.5 1:-0.5 3:2 \n", "", "no SV line"},
        {"gamma 0.5", "gamma -0.5", ":3: LIBSVM model: gamma must not be negative"},
        {"0.5 2:1 ", "0.5 2:1 1:3", ":11: LIBSVM model: feature indices must be strictly increasing"},
        {"0.5 2:1 ", "0.5 2=1", ":11: LIBSVM model: malformed feature '2=1'"},
        {"0.5 2:1 ", "0.5 0:1", "feature index 0 (indices are 1-based)"},
        {"0.5 2:1 ", "0.5 2:x", ":11: LIBSVM model: expected a finite number for a feature value, found 'x'"},
        {"-1.5 1:-0.5 3:2 \n", "", "the file ends after 2 of 3 support vectors"},
        {"-1.5 1:-0.5 3:2 \n", "-1.5 1:-0.5 3:2\n1 1:1\n", ":13: LIBSVM model: text after the 3 support vectors"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.message);
        std::string text = kSmallModel;
        const auto at = text.find(b.from);
        REQUIRE(at != std::string::npos);
        text.replace(at, b.from.size(), b.to);
        const std::string path = write_temp("bad_libsvm.model", text);
        try {
            (void)Model::load(path);
            FAIL("no error");
        } catch (const ModelFileError& e) {
            CHECK(std::string(e.what()).find(path) == 0);
            CHECK(std::string(e.what()).find(b.message) != std::string::npos);
            CHECK(e.code() == ExitCode::bad_input);
        }
    }
}

}  // TEST_SUITE

}  // namespace unit_svm_libsvm_model_test
}  // namespace
