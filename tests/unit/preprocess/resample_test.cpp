#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/preprocess/resample.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_resample_test {

using namespace kestrel;

namespace {

// 60 rows: class c0 has 40, c1 15, c2 5.
Dataset imbalanced() {
    Dataset d = test::blobs(60, 3, 3);
    for (Index i = 0; i < d.rows(); ++i) d.y[i] = i < 40 ? 0 : i < 55 ? 1 : 2;
    return d;
}

std::map<int, Index> counts(const Vector& y) {
    std::map<int, Index> c;
    for (Index i = 0; i < y.size(); ++i) ++c[static_cast<int>(y[i])];
    return c;
}

bool is_row_of(const DenseView& X, const Vector& y, const Eigen::RowVectorXd& row, double label) {
    for (Index i = 0; i < X.rows(); ++i)
        if (y[i] == label && X.row(i) == row) return true;
    return false;
}

}  // namespace

TEST_SUITE("preprocess") {
    TEST_CASE("resample: parsing and its errors name --resample") {
        CHECK(parse_resample("under").kind == ResampleSpec::Kind::under);
        CHECK(parse_resample("over").jitter == 0);
        CHECK(parse_resample("over:0.1").jitter == 0.1);
        CHECK(parse_resample("smote").neighbours == 5);
        CHECK(parse_resample("smote:3").neighbours == 3);
        for (const char* bad : {"sideways", "under:2", "over:x", "over:-1", "smote:0", "smote:2.5", ""}) {
            CAPTURE(bad);
            try {
                parse_resample(bad);
                FAIL("expected UsageError");
            } catch (const UsageError& e) {
                CHECK(cli::command_message(e).find("--resample") != std::string::npos);
            }
        }
    }

    TEST_CASE("resample under / over: class counts, rows drawn from the class, seeded") {
        const Dataset d = imbalanced();
        const Dataset u = resample(d, parse_resample("under"), 3);
        CHECK(counts(u.y) == std::map<int, Index>{{0, 5}, {1, 5}, {2, 5}});
        for (Index i = 0; i < u.rows(); ++i) CHECK(is_row_of(d.X.dense_ref(), d.y, u.X.dense_ref().row(i), u.y[i]));

        const Dataset o = resample(d, parse_resample("over"), 3);
        CHECK(counts(o.y) == std::map<int, Index>{{0, 40}, {1, 40}, {2, 40}});
        CHECK(o.X.dense_ref().topRows(60) == d.X.dense_ref());  // the originals first, unchanged
        for (Index i = 60; i < o.rows(); ++i) CHECK(is_row_of(d.X.dense_ref(), d.y, o.X.dense_ref().row(i), o.y[i]));
        CHECK(resample(d, parse_resample("over"), 3).X.dense_ref() == o.X.dense_ref());

        const Dataset j = resample(d, parse_resample("over:0.05"), 3);
        CHECK(counts(j.y) == counts(o.y));
        for (Index i = 60; i < j.rows(); ++i) {
            CHECK_FALSE(is_row_of(d.X.dense_ref(), d.y, j.X.dense_ref().row(i), j.y[i]));
            // Jitter sd is 0.05 of the feature sd (about 1.7 here): copies stay within 6 sd of noise.
            double nearest = 1e300;
            for (Index r = 0; r < d.rows(); ++r)
                if (d.y[r] == j.y[i])
                    nearest =
                        std::min(nearest, (d.X.dense_ref().row(r) - j.X.dense_ref().row(i)).cwiseAbs().maxCoeff());
            CHECK(nearest < 6 * 0.05 * 2.0);
        }
        Dataset weighted = d;
        weighted.weights = Vector::LinSpaced(60, 1, 60);
        const Dataset w = resample(weighted, parse_resample("under"), 3);
        for (Index i = 0; i < w.rows(); ++i) CHECK(is_row_of(d.X.dense_ref(), d.y, w.X.dense_ref().row(i), w.y[i]));
        CHECK(w.weights.size() == w.rows());
    }

    TEST_CASE("smote: every synthetic point lies on a segment to one of its k nearest same-class neighbours") {
        const Dataset d = imbalanced();
        const int k = 3;
        const Dataset s = resample(d, parse_resample("smote:3"), 9);
        CHECK(counts(s.y) == std::map<int, Index>{{0, 40}, {1, 40}, {2, 40}});
        const DenseView X = d.X.dense_ref();
        for (Index i = 60; i < s.rows(); ++i) {
            const Eigen::RowVectorXd p = s.X.dense_ref().row(i);
            bool on_segment = false;
            for (Index a = 0; a < d.rows() && !on_segment; ++a) {
                if (d.y[a] != s.y[i]) continue;
                // a's k nearest neighbours of the same class.
                std::vector<std::pair<double, Index>> dist;
                for (Index b = 0; b < d.rows(); ++b)
                    if (b != a && d.y[b] == d.y[a]) dist.emplace_back((X.row(a) - X.row(b)).squaredNorm(), b);
                std::sort(dist.begin(), dist.end());
                for (int n = 0; n < k && !on_segment; ++n) {
                    const Eigen::RowVectorXd v = X.row(dist[static_cast<std::size_t>(n)].second) - X.row(a);
                    const double u = (p - X.row(a)).dot(v) / v.squaredNorm();
                    on_segment = u >= 0 && u <= 1 && (p - X.row(a) - u * v).norm() < 1e-9;
                }
            }
            CHECK(on_segment);
        }
    }

    TEST_CASE("resample in the Model pipeline: training rows only, test fold untouched; regression refused") {
        const Dataset d = imbalanced();
        const auto folds = make_folds(d, 5, 1, 1);
        ModelSpec spec;
        spec.model = "logistic";
        spec.resample = "under";
        spec.preprocessing = {"standard"};
        for (const Fold& f : folds) {
            const Dataset train = d.subset(f.train);
            const auto c = counts(train.y);
            Model m = Model::train(spec, train, Context{});
            // Every class cut to the training fold's minority count; the fold itself as given.
            CHECK(m.provenance()["resampled_rows"] == 3 * c.at(2));
            CHECK(m.provenance()["rows"] == static_cast<Index>(f.train.size()));
            const Predictions p = fit_and_predict(spec, d, f, Context{});
            CHECK(p.y_true.size() == static_cast<Index>(f.test.size()));
            for (std::size_t i = 0; i < f.test.size(); ++i) CHECK(p.y_true[static_cast<Index>(i)] == d.y[f.test[i]]);
        }
        CvOptions o;
        o.k = 5;
        const CvResult r = cross_validate(spec, d, o, Context{});
        CHECK(r.out_of_fold.y_true == d.y);

        ModelSpec reg;
        reg.model = "ridge";
        reg.resample = "over";
        try {
            Model::train(reg, test::linear_regression(30, 2), Context{});
            FAIL("expected UsageError");
        } catch (const UsageError& e) {
            CHECK(cli::command_message(e).find("--resample") != std::string::npos);
        }
    }

    TEST_CASE("resample refuses rows in query groups, before any work in the Model pipeline") {
        // Classes with query ids (a --task classification file with qid:N): over and smote
        // would add rows of query 0 after query 5's, under would leave queries torn.
        Dataset d = imbalanced();
        d.qid.resize(d.rows());
        for (Index i = 0; i < d.rows(); ++i) d.qid[i] = static_cast<double>(i / 10);
        for (const char* method : {"under", "over", "smote:3"}) {
            CAPTURE(method);
            try {
                (void)resample(d, parse_resample(method), 3);
                FAIL("expected UsageError");
            } catch (const UsageError& e) {
                CHECK(cli::command_message(e) ==
                      "--resample draws single rows, which would break the data's query groups (qid:N, "
                      "--group-col) apart; it does not apply to rows in queries");
            }
            ModelSpec spec;
            spec.model = "gbdt";
            spec.resample = method;
            try {
                Model::train(spec, d, Context{});
                FAIL("expected UsageError");
            } catch (const UsageError& e) {
                CHECK(cli::command_message(e).rfind(std::string("--resample ") + method + " draws single rows", 0) == 0);
            }
        }
        d.qid.resize(0);  // the same rows without groups resample as before
        CHECK(resample(d, parse_resample("under"), 3).rows() == 15);
    }
}

}  // namespace unit_preprocess_resample_test
}  // namespace
