#include "kestrel/linear/c_search.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/common/splits.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

double score_of(const Dataset& data, const Vector& predicted, bool classification) {
    const Index n = data.rows();
    double s = 0;
    for (Index i = 0; i < n; ++i) {
        if (classification)
            s += predicted[i] == data.y[i] ? 1.0 : 0.0;
        else
            s += (predicted[i] - data.y[i]) * (predicted[i] - data.y[i]);
    }
    return s / static_cast<double>(std::max<Index>(n, 1));
}

}  // namespace

double c_search_start(const Features& X, double extra, double factor) {
    double max_sq = 0;
    const Index n = X.rows();
    if (X.is_sparse()) {
        const SparseMatrix& S = X.sparse_ref();
        for (Index i = 0; i < n; ++i) max_sq = std::max(max_sq, S.row(i).squaredNorm());
    } else {
        max_sq = X.dense_ref().rowwise().squaredNorm().maxCoeff();
    }
    max_sq += extra;
    if (!(max_sq > 0) || n == 0) return 1.0;
    return std::pow(2.0, std::floor(std::log2(1.0 / (factor * static_cast<double>(n) * max_sq))));
}

CSearchResult search_c(const Dataset& data, const CSearchOptions& o, const CFoldFit& fit, const CFoldPredict& predict) {
    const bool classification = data.task == Task::classification;
    const int k = static_cast<int>(std::min<Index>(o.folds, data.rows()));
    if (k < 2)
        throw DataError("C=auto: cross-validation needs at least 2 rows, the data has " + std::to_string(data.rows()));
    const std::vector<Fold> folds =
        classification ? stratified_kfold(data.y, data.n_classes(), k, o.seed) : kfold(data.rows(), k, o.seed);
    std::vector<Dataset> train, test;
    for (const Fold& f : folds) {
        train.push_back(data.subset(f.train));
        test.push_back(data.subset(f.test));
    }
    std::vector<Vector> warm(folds.size());
    CSearchResult r;
    r.metric = classification ? "accuracy" : "mse";
    r.folds = k;
    double C = o.start_C > 0 ? o.start_C : 1.0;
    int unchanged_w = 0, not_better = 0;
    r.stopped = "reached max_C";
    while (C <= o.max_C * (1 + 1e-12)) {
        double total = 0;
        bool w_changed = false;
        for (std::size_t f = 0; f < folds.size(); ++f) {
            Vector w = fit(train[f], C, warm[f]);
            if (warm[f].size() != w.size() || (w - warm[f]).norm() > 1e-15) w_changed = true;
            // A fold whose class is missing from its training rows cannot predict it: scored as it is.
            const Vector predicted = predict(test[f].X, w);
            total += score_of(test[f], predicted, classification) * static_cast<double>(test[f].rows());
            warm[f] = std::move(w);
        }
        const double score = total / static_cast<double>(data.rows());
        r.path.push_back({C, score});
        const bool better = r.path.size() == 1 || (classification ? score > r.best_score : score < r.best_score);
        if (better) {
            r.best_C = C;
            r.best_score = score;
            not_better = 0;
        } else {
            ++not_better;
        }
        unchanged_w = w_changed || r.path.size() == 1 ? 0 : unchanged_w + 1;
        if (unchanged_w >= 3) {
            r.stopped = "the solutions stopped changing";
            break;
        }
        if (not_better >= o.patience) {
            r.stopped = "the CV score stopped improving";
            break;
        }
        C *= 2;
    }
    return r;
}

ChosenC choose_c(const RealOrWord& C, const Dataset& data, const Context& ctx, const CSearchStart& start,
                 const CQuietFoldFit& fit, const CFoldPredict& predict) {
    if (!C.is("auto")) return {.C = C.value, .search = Json()};
    Context quiet = ctx;
    quiet.warn = nullptr;  // LIBLINEAR is silent inside its search too
    CSearchOptions so;
    so.start_C = c_search_start(data.X, start.extra, start.factor);
    so.seed = start.seed;
    const CSearchResult r = search_c(
        data, so, [&](const Dataset& train, double c, const Vector& warm) { return fit(train, c, warm, quiet); },
        predict);
    return {.C = r.best_C, .search = c_search_json(r)};
}

Json c_search_json(const CSearchResult& r) {
    Json path = Json::array();
    for (const auto& s : r.path) path.push_back({{"C", s.C}, {"score", s.score}});
    return Json{{"metric", r.metric},         {"folds", r.folds},     {"best_C", r.best_C},
                {"best_score", r.best_score}, {"stopped", r.stopped}, {"path", path}};
}

ParamDef c_param(double def, std::string help, std::string anchor) {
    ParamDef d = real_param("C", def,
                            std::move(help) +
                                "; auto = chosen by warm-started cross-validation along a doubling "
                                "C path (LIBLINEAR -C)");
    d.range(0.0, std::nullopt).open_below().also({"auto"}).like(std::move(anchor) + "; LIBLINEAR -C for auto");
    return d;
}

std::vector<std::string> c_search_reports(const RealOrWord& C) {
    if (C.is("auto")) return {"c_search"};
    return {};
}

}  // namespace kestrel
