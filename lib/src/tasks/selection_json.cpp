#include "kestrel/tasks/selection_json.hpp"

#include "kestrel/tasks/selection_refit.hpp"

namespace kestrel {

Json feature_names_json(const std::vector<Index>& features, const std::vector<std::string>& names) {
    Json out = Json::array();
    for (Index j : features) out.push_back(names[static_cast<std::size_t>(j)]);
    return out;
}

Json sequential_selection_json(const SelectionResult& r, const std::string& model, const Dataset& data,
                               const SelectionOptions& opts, std::uint64_t seed) {
    const auto names = selection_feature_names(data);
    Json j = {{"method", opts.forward ? "forward" : "backward"},
              {"model", model},
              {"metric", r.metric},
              {"rows", data.rows()},
              {"features", data.cols()},
              {"k", opts.cv.k},
              {"seed", seed},
              {"stop", r.stop.text()}};
    j["trajectory"] = Json::array();
    for (const auto& s : r.trajectory) {
        const std::string change =
            s.changed < 0 ? "" : (opts.forward ? "+" : "-") + names[static_cast<std::size_t>(s.changed)];
        j["trajectory"].push_back({{"change", change},
                                   {"features", feature_names_json(s.features, names)},
                                   {"score", s.score},
                                   {"error", s.error}});
    }
    j["selected"] = feature_names_json(r.selected, names);
    return j;
}

Json l1_selection_json(const L1SelectionResult& r, const Dataset& data, const SelectionOptions& opts,
                       std::uint64_t seed) {
    const auto names = selection_feature_names(data);
    Json j = {{"method", "l1"},          {"model", r.model}, {"metric", r.metric}, {"rows", data.rows()},
              {"features", data.cols()}, {"k", opts.cv.k},   {"seed", seed},       {"strength", r.strength_name}};
    j["path"] = Json::array();
    for (const auto& p : r.path)
        j["path"].push_back({{r.strength_name, p.strength},
                             {"nonzero", feature_names_json(p.nonzero, names)},
                             {"score", p.score},
                             {"error", p.error}});
    j["chosen"] = r.chosen;
    j["entry_order"] = feature_names_json(r.entry_order, names);
    j["selected"] = feature_names_json(r.selected, names);
    return j;
}

}  // namespace kestrel
