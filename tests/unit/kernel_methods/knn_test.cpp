#include "kestrel/kernel_methods/knn.hpp"
#include "kestrel/pipeline/registry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"
#include "knn_references.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernel_methods_knn_test {

using namespace kestrel;

namespace {

// A CSV of numbers with a header line.
DenseMatrix read_numbers(const std::string& rel) {
    std::ifstream in(test::repo_path("tests/unit/kernel_methods/data/" + rel));
    REQUIRE(in);
    std::string line;
    std::getline(in, line);
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::vector<double> r;
        std::stringstream ss(line);
        std::string f;
        while (std::getline(ss, f, ',')) r.push_back(std::stod(f));
        rows.push_back(r);
    }
    DenseMatrix m(static_cast<Index>(rows.size()), static_cast<Index>(rows[0].size()));
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j) m(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    return m;
}

struct Fixture {
    Dataset classes, targets;
    DenseMatrix query;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        const DenseMatrix raw = read_numbers("knn_train.csv");
        Fixture fx;
        fx.classes.task = Task::classification;
        fx.classes.X = DenseMatrix(raw.rightCols(raw.cols() - 2));
        fx.classes.y = raw.col(0);
        fx.classes.classes = {"0", "1", "2"};
        fx.targets.task = Task::regression;
        fx.targets.X = fx.classes.X;
        fx.targets.y = raw.col(1);
        fx.query = read_numbers("knn_query.csv");
        return fx;
    }();
    return f;
}

std::unique_ptr<Knn> fit_knn(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto e = registry().create("knn", given);
    auto* knn = dynamic_cast<Knn*>(e.get());
    REQUIRE(knn != nullptr);
    e.release();
    std::unique_ptr<Knn> m(knn);
    m->fit(d, ctx);
    return m;
}

Dataset knn_random_data(Index n, Index d, std::uint64_t seed, double grid = 0) {
    Rng rng(seed);
    Dataset ds;
    ds.task = Task::classification;
    DenseMatrix X(n, d);
    ds.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) {
            const double v = rng.normal();
            // On a coarse grid, many distances tie exactly.
            X(i, j) = grid > 0 ? std::round(v / grid) * grid : v;
        }
        ds.y[i] = static_cast<double>(i % 3);
    }
    ds.X = X;
    ds.classes = {"a", "b", "c"};
    return ds;
}

// The reference: every distance in full, sorted by (distance, row).
Neighbors naive(const DenseView& T, const DenseView& Q, Index k, const std::string& metric, const Kernel* kern) {
    Neighbors out;
    out.k = k;
    const Features tf{DenseMatrix(T)}, qf{DenseMatrix(Q)};
    const KernelRows tr(tf), qr(qf);
    for (Index i = 0; i < Q.rows(); ++i) {
        std::vector<std::pair<double, Index>> all;
        for (Index j = 0; j < T.rows(); ++j) {
            double v = 0;
            if (metric == "euclidean") {
                for (Index c = 0; c < T.cols(); ++c) v += (Q(i, c) - T(j, c)) * (Q(i, c) - T(j, c));
                v = std::sqrt(v);
            } else if (metric == "manhattan") {
                for (Index c = 0; c < T.cols(); ++c) v += std::abs(Q(i, c) - T(j, c));
            } else if (metric == "cosine") {
                double dot = 0, a = 0, b = 0;
                for (Index c = 0; c < T.cols(); ++c) {
                    dot += Q(i, c) * T(j, c);
                    a += Q(i, c) * Q(i, c);
                    b += T(j, c) * T(j, c);
                }
                v = std::clamp(1.0 - dot / (std::sqrt(a) * std::sqrt(b)), 0.0, 2.0);
            } else {
                v = std::sqrt(std::max(0.0, (*kern)(qr, i, qr, i) - 2 * (*kern)(qr, i, tr, j) + (*kern)(tr, j, tr, j)));
            }
            all.emplace_back(v, j);
        }
        std::sort(all.begin(), all.end());
        for (Index t = 0; t < k; ++t) {
            out.index.push_back(all[static_cast<std::size_t>(t)].second);
            out.distance.push_back(all[static_cast<std::size_t>(t)].first);
        }
    }
    return out;
}

void check_same(const Neighbors& a, const Neighbors& b) {
    REQUIRE(a.index.size() == b.index.size());
    CHECK(a.index == b.index);
    CHECK(a.distance == b.distance);
}

}  // namespace

TEST_SUITE("kernel_methods") {
    TEST_CASE("knn: brute force, k-d tree and a full sort agree on random data, every metric") {
        for (double grid : {0.0, 0.5}) {
            CAPTURE(grid);
            const Dataset train = knn_random_data(400, 5, 3, grid);
            const DenseMatrix Q(knn_random_data(70, 5, 4, grid).X.dense_ref());
            for (const std::string metric : {"euclidean", "manhattan", "cosine", "kernel"}) {
                CAPTURE(metric);
                const Index k = 7;
                const auto brute = fit_knn(
                    train,
                    Params{
                        {"metric", metric}, {"algorithm", "brute"}, {"n_neighbors", k}, {"kernel", "rbf(gamma=0.4)"}});
                CHECK_FALSE(brute->index().uses_kd_tree());
                const Neighbors nb = brute->kneighbors(Q);
                const Kernel kern(KernelSpec::parse("rbf(gamma=0.4)"));
                const Neighbors ref = naive(train.X.dense_ref(), Q, k, metric, &kern);
                CHECK(nb.index == ref.index);
                for (std::size_t t = 0; t < ref.distance.size(); ++t)
                    CHECK(nb.distance[t] == doctest::Approx(ref.distance[t]).epsilon(1e-12));
                if (metric == "euclidean" || metric == "manhattan") {
                    const auto tree = fit_knn(
                        train,
                        Params{{"metric", metric}, {"algorithm", "kd_tree"}, {"n_neighbors", k}, {"leaf_size", 4}});
                    CHECK(tree->index().uses_kd_tree());
                    check_same(tree->kneighbors(Q), nb);  // bit for bit, ties included
                }
                // Sparse training rows and queries: the same neighbours and distances.
                Dataset sparse = train;
                sparse.X = Features(SparseMatrix(train.X.dense_ref().sparseView()));
                const auto sp =
                    fit_knn(sparse, Params{{"metric", metric}, {"n_neighbors", k}, {"kernel", "rbf(gamma=0.4)"}});
                const Neighbors ns = sp->kneighbors(Features(SparseMatrix(Q.sparseView())));
                if (metric == "kernel") {
                    CHECK(ns.index == nb.index);
                } else {
                    check_same(ns, nb);
                }
            }
        }
    }

    TEST_CASE("knn: wide rows (the matrix-product screen) match a full sort") {
        const Dataset train = knn_random_data(120, 300, 21);
        const DenseMatrix Q(knn_random_data(10, 300, 22).X.dense_ref());
        for (const std::string metric : {"euclidean", "cosine"}) {
            CAPTURE(metric);
            const auto m = fit_knn(train, Params{{"metric", metric}, {"n_neighbors", 6}});
            const Neighbors nb = m->kneighbors(Q);
            const Kernel unused(KernelSpec::parse("rbf(gamma=0.4)"));
            const Neighbors ref = naive(train.X.dense_ref(), Q, 6, metric, &unused);
            CHECK(nb.index == ref.index);
            for (std::size_t t = 0; t < ref.distance.size(); ++t)
                CHECK(nb.distance[t] == doctest::Approx(ref.distance[t]).epsilon(1e-12));
        }
    }

    TEST_CASE("knn: agrees with scikit-learn's KNeighborsClassifier/Regressor on a fixture") {
        const Fixture& fx = fixture();
        for (const auto& ref : knn_reference::references()) {
            CAPTURE(ref.metric);
            const Params p{{"metric", ref.metric},
                           {"kernel", std::string(ref.kernel).empty() ? "rbf" : ref.kernel},
                           {"weights", "distance"}};
            for (const std::string algorithm : {"brute", "auto"}) {
                CAPTURE(algorithm);
                Params pa = p;
                pa["algorithm"] = algorithm;
                const auto m = fit_knn(fx.classes, pa);
                const Neighbors nb = m->kneighbors(fx.query);
                REQUIRE(nb.index.size() == ref.indices.size());
                for (std::size_t t = 0; t < ref.indices.size(); ++t) {
                    CHECK(nb.index[t] == ref.indices[t]);
                    CHECK(nb.distance[t] == doctest::Approx(ref.distances[t]).epsilon(1e-10));
                }
                const Matrix proba = m->predict_proba(fx.query);
                for (Index i = 0; i < proba.rows(); ++i)
                    for (Index c = 0; c < 3; ++c)
                        CHECK(proba(i, c) ==
                              doctest::Approx(ref.proba[static_cast<std::size_t>(i * 3 + c)]).epsilon(1e-10));
                const Vector pred = m->predict(fx.query);
                for (Index i = 0; i < pred.size(); ++i) CHECK(pred[i] == ref.predict[static_cast<std::size_t>(i)]);
            }
            if (ref.regress_uniform.empty()) continue;
            for (const std::string w : {"uniform", "distance"}) {
                Params pr = p;
                pr["weights"] = w;
                const Vector pred = fit_knn(fx.targets, pr)->predict(fx.query);
                const auto& want = w == "uniform" ? ref.regress_uniform : ref.regress_distance;
                for (Index i = 0; i < pred.size(); ++i)
                    CHECK(pred[i] == doctest::Approx(want[static_cast<std::size_t>(i)]).epsilon(1e-10));
            }
        }
    }

    TEST_CASE("knn: ties go to the lower training row, vote ties to the lower class") {
        // 1-D rows at -2, 2, -1, 1, 0.5 (classes b, a, b, a, c); the query 0 is at distance 1 from
        // rows 2 and 3, 2 from rows 0 and 1.
        Dataset d;
        d.task = Task::classification;
        DenseMatrix X(5, 1);
        X << -2, 2, -1, 1, 0.5;
        d.X = X;
        d.y = (Vector(5) << 1, 0, 1, 0, 2).finished();
        d.classes = {"a", "b", "c"};
        DenseMatrix q(1, 1);
        q << 0;
        for (const std::string algorithm : {"brute", "kd_tree"}) {
            CAPTURE(algorithm);
            const auto m = fit_knn(d, Params{{"n_neighbors", 3}, {"algorithm", algorithm}, {"leaf_size", 1}});
            const Neighbors nb = m->kneighbors(q);
            CHECK(nb.index == std::vector<Index>{4, 2, 3});
            // k = 3: one vote each for c, b, a: the lowest class index wins (scikit-learn's mode).
            CHECK(m->predict(q)[0] == 0);
            const auto m5 = fit_knn(d, Params{{"n_neighbors", 5}, {"algorithm", algorithm}, {"leaf_size", 1}});
            CHECK(m5->kneighbors(q).index == std::vector<Index>{4, 2, 3, 0, 1});
            const auto m2 = fit_knn(d, Params{{"n_neighbors", 4}, {"algorithm", algorithm}, {"leaf_size", 1}});
            // Rows 4, 2, 3, 0: b has 2 votes, a and c 1.
            CHECK(m2->predict(q)[0] == 1);
        }
        // Duplicated training rows: the lower row first.
        DenseMatrix X2(4, 2);
        X2 << 1, 1, 0, 0, 1, 1, 0, 0;
        d.X = X2;
        d.y = (Vector(4) << 0, 1, 2, 0).finished();
        DenseMatrix q2(1, 2);
        q2 << 0.9, 0.9;
        for (const std::string algorithm : {"brute", "kd_tree"})
            CHECK(fit_knn(d, Params{{"n_neighbors", 3}, {"algorithm", algorithm}})->kneighbors(q2).index ==
                  std::vector<Index>{0, 2, 1});
    }

    TEST_CASE("knn: distance weights with a zero distance give all the weight to the exact matches") {
        const Fixture& fx = fixture();
        const DenseMatrix q = fx.classes.X.dense_ref().topRows(3);
        const auto c = fit_knn(fx.classes, Params{{"weights", "distance"}});
        const Matrix proba = c->predict_proba(q);
        for (Index i = 0; i < 3; ++i) {
            const auto cls = static_cast<Index>(fx.classes.y[i]);
            CHECK(proba(i, cls) == 1.0);
            CHECK(proba.row(i).sum() == 1.0);
        }
        const auto r = fit_knn(fx.targets, Params{{"weights", "distance"}});
        const Vector pred = r->predict(q);
        for (Index i = 0; i < 3; ++i) CHECK(pred[i] == fx.targets.y[i]);
    }

    TEST_CASE("knn: save -> load gives identical predictions (dense, sparse, kernel)") {
        const Fixture& fx = fixture();
        Dataset sparse = fx.classes;
        sparse.X = Features(SparseMatrix(fx.classes.X.dense_ref().sparseView()));
        const std::vector<std::pair<const Dataset*, Params>> cases = {
            {&fx.classes, Params{{"weights", "distance"}}},
            {&fx.targets, Params{{"metric", "manhattan"}, {"algorithm", "kd_tree"}}},
            {&sparse, Params{{"metric", "cosine"}}},
            {&fx.classes, Params{{"metric", "kernel"}, {"kernel", "0.5*rbf+0.5*laplacian(gamma=0.1)"}}},
        };
        for (const auto& [data, params] : cases) {
            CAPTURE(params.dump());
            ModelSpec spec;
            spec.model = "knn";
            spec.params = params;
            const Model m = Model::train(spec, *data, Context{});
            const std::string saved = m.to_json().dump();
            const Model back = Model::from_json(Json::parse(saved), "mem");
            CHECK(back.to_json().dump() == saved);
            CHECK(m.predict(fx.query) == back.predict(fx.query));
            if (data->task == Task::classification) CHECK(m.predict_proba(fx.query) == back.predict_proba(fx.query));
        }
    }

    TEST_CASE("knn: neighbours do not depend on the thread count") {
        const Dataset train = knn_random_data(1500, 6, 9);
        const DenseMatrix Q(knn_random_data(300, 6, 10).X.dense_ref());
        Dataset sparse = train;
        sparse.X = Features(SparseMatrix(train.X.dense_ref().sparseView()));
        for (const std::string metric : {"euclidean", "manhattan", "cosine", "kernel"}) {
            for (const std::string algorithm : {"brute", "auto"}) {
                CAPTURE(metric);
                CAPTURE(algorithm);
                const Params p{{"metric", metric}, {"algorithm", algorithm}, {"n_neighbors", 9}};
                const auto m = fit_knn(train, p);
                const Neighbors one = m->index().query(Q, 9, 1);
                check_same(m->index().query(Q, 9, 2), one);
                check_same(m->index().query(Q, 9, 3), one);
                const auto s = fit_knn(sparse, p);
                const Neighbors sone = s->index().query(Q, 9, 1);
                check_same(s->index().query(Q, 9, 2), sone);
            }
        }
    }

    TEST_CASE("knn: bad parameters are clear errors") {
        const Fixture& fx = fixture();
        CHECK_THROWS_AS(fit_knn(fx.classes, Params{{"n_neighbors", 61}}), ParamError);
        CHECK_THROWS_AS(registry().create("knn", Params{{"n_neighbors", 0}}), ParamError);
        CHECK_THROWS_AS(fit_knn(fx.classes, Params{{"metric", "cosine"}, {"algorithm", "kd_tree"}}), ParamError);
        CHECK_THROWS_AS(fit_knn(fx.classes, Params{{"metric", "kernel"}, {"kernel", "-1*rbf"}}), ParamError);
        CHECK_THROWS_AS(fit_knn(fx.classes, Params{{"metric", "kernel"}, {"kernel", "precomputed"}}), ParamError);
        CHECK_NOTHROW(fit_knn(fx.classes, Params{{"n_neighbors", 60}}));
    }

}  // TEST_SUITE

}  // namespace unit_kernel_methods_knn_test
}  // namespace
