#include "kestrel/tasks/search_refit.hpp"

#include "kestrel/tasks/provenance.hpp"

namespace kestrel {

Json nested_search_json(const NestedSearchResult& r) {
    Json j = {{"metric", r.metric}, {"mean", r.score.mean}, {"std", r.score.std}, {"outer", Json::array()}};
    for (const auto& o : r.outer) {
        Json point = Json::object();
        for (const auto& [name, value] : o.best_point) point[name] = value;
        j["outer"].push_back({{"fold", o.index + 1}, {"params", point}, {"inner_score", o.inner_score},
                              {"test_score", o.test_score}});
    }
    return j;
}

Json search_json(const GridSearchResult& r) {
    Json j = Json::object();
    j["search"] = r.kind;
    j["fitted_points"] = r.fitted_points;
    for (const auto& round : r.rounds)
        j["rounds"].push_back(
            {{"iteration", round.iteration}, {"n_resources", round.n_resources}, {"n_candidates", round.n_candidates}});
    j["points"] = Json::array();
    for (const auto& p : r.points) {
        Json point = Json::object();
        for (const auto& [name, value] : p.point) point[name] = value;
        Json entry = {{"rank", p.rank},
                      {"params", point},
                      {"mean", p.score.mean},
                      {"std", p.score.std},
                      {"fold_scores", p.fold_scores},
                      {"mean_fit_seconds", p.fit_seconds},
                      {"iteration", p.iteration},
                      {"n_resources", p.n_resources},
                      {"resumed", p.resumed}};
        if (!p.fold_rounds.empty()) entry["fold_rounds"] = p.fold_rounds;  // early stopping per fold
        j["points"].push_back(std::move(entry));
    }
    j["best"] = j["points"][0];
    return j;
}

Model refit_best_point(const GridSearchResult& r, const Dataset& data, const SearchRecord& record, const Context& ctx) {
    Model m = Model::train(r.best().spec, data, ctx);
    stamp_provenance(m, {record.data_file, -1, ctx.seed, ""});
    Json search = {{"metric", record.metric},
                   {"search", r.kind},
                   {"cv", record.cv},
                   {"cv_mean", r.best().score.mean},
                   {"cv_std", r.best().score.std}};
    if (record.nested) search["nested"] = nested_search_json(*record.nested);
    m.provenance()["gridsearch"] = std::move(search);
    return m;
}

}  // namespace kestrel
