#include "common/auto_ensemble.hpp"

#include <sstream>

#include "kestrel/core/number_text.hpp"
#include "kestrel/io/table_format.hpp"

namespace kestrel::cli {

std::string auto_point_text(const GridPoint& point) {
    if (point.empty()) return "defaults";
    std::string s;
    for (const auto& [name, value] : point) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s;
}

Json auto_point_json(const GridPoint& point) {
    Json params = Json::object();
    for (const auto& [name, value] : point) params[name] = value;
    return params;
}

namespace {

std::string verdict(const AutoEnsemble& e, const std::string& metric) {
    if (e.members.empty()) return "no ensemble: " + e.note;
    const std::string kept = e.kept ? "kept" : "not kept";
    // Six decimals: the two often agree to the leaderboard's four.
    if (e.held_out_scores.empty())
        return kept + ": cv " + metric + " " + format_fixed(e.score.mean, 6) + (e.kept ? " beats " : " does not beat ") +
               "the best single model's " + format_fixed(e.best_single, 6);
    const std::string confirmed =
        e.against_confirmed ? " and the confirmed winner's " + format_fixed(e.confirmed_single, 6) + " on its fresh splits" : "";
    return kept + ": on folds its selection did not see, cv " + metric + " " + format_fixed(e.held_out.mean, 6) +
           (e.kept ? " beats " : " does not beat ") + "the best single model's " + format_fixed(e.held_out_single.mean, 6) +
           confirmed + " (on the folds it was selected on: " + format_fixed(e.score.mean, 6) + " against " +
           format_fixed(e.best_single, 6) + ")";
}

}  // namespace

Json ensemble_json(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    Json j = {{"rounds", e.rounds}, {"pool", e.pool}, {"best_single_mean", e.best_single}, {"kept", e.kept}};
    if (e.members.empty()) {
        j["note"] = e.note;
        return j;
    }
    j["members"] = Json::array();
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        j["members"].push_back({{"rank", e.members[i] + 1},
                                {"model", c.model},
                                {"params", auto_point_json(c.point)},
                                {"mean", c.score.mean},
                                {"weight", e.weights[i]}});
    }
    j["mean"] = e.score.mean;
    j["std"] = e.score.std;
    j["fold_scores"] = e.fold_scores;
    if (!e.held_out_scores.empty()) {
        j["held_out_mean"] = e.held_out.mean;
        j["held_out_std"] = e.held_out.std;
        j["held_out_fold_scores"] = e.held_out_scores;
        j["held_out_single_mean"] = e.held_out_single.mean;
        j["held_out_single_std"] = e.held_out_single.std;
        j["held_out_single_fold_scores"] = e.held_out_single_scores;
        if (e.against_confirmed) j["confirmed_single_mean"] = e.confirmed_single;
    }
    return j;
}

std::string ensemble_markdown(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::ostringstream os;
    os << "\n## Ensemble\n\nEnsemble selection (" << e.rounds << " rounds over the best " << e.pool
       << " candidates that can join), " << verdict(e, r.metric) << ".";
    if (e.members.empty()) return os.str() + "\n";
    os << " Its score reuses the out-of-fold predictions it was selected on, so it is optimistic "
          "(docs/auto.md).\n\n| leaderboard rank | model | parameters | cv mean | weight |\n|---:|---|---|---:|---:|\n";
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        os << "| " << e.members[i] + 1 << " | " << c.model << " | " << auto_point_text(c.point) << " | "
           << format_fixed(c.score.mean, 4) << " | " << format_fixed(e.weights[i], 2) << " |\n";
    }
    os << "\nEnsemble cv " << r.metric << ": " << format_fixed(e.score.mean, 4) << " +/- " << format_fixed(e.score.std, 4)
       << ".";
    if (!e.held_out_scores.empty()) {
        os << " Held out (each fold scored by a selection made on the other folds): " << format_fixed(e.held_out.mean, 4)
           << " +/- " << format_fixed(e.held_out.std, 4) << ", against " << format_fixed(e.held_out_single.mean, 4)
           << " +/- " << format_fixed(e.held_out_single.std, 4) << " for the single model chosen the same way";
        if (e.against_confirmed)
            os << ", and " << format_fixed(e.confirmed_single, 4) << " for the confirmed winner on its fresh splits";
        os << ".";
    }
    os << "\n";
    return os.str();
}

std::string ensemble_text(const AutoResult& r) {
    const AutoEnsemble& e = *r.ensemble;
    std::string s = "\nensemble (" + std::to_string(e.rounds) + " rounds, pool of " + std::to_string(e.pool) +
                    "): " + verdict(e, r.metric) + "\n";
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        s += "  " + format_fixed(e.weights[i], 2) + "  rank " + std::to_string(e.members[i] + 1) + " " + c.model + " " +
             auto_point_text(c.point) + "\n";
    }
    return s;
}

bool auto_input_is_libsvm(const std::string& path, const DataFlags& data) {
    ReadOptions forced;
    forced.format = file_format_from_string(data.format);
    // Standard input is read once: every member is refit on that reading (automatic here).
    return peek_file_format(path, forced) == FileFormat::libsvm;
}

Model refit_ensemble(const AutoResult& r, const Dataset& data, const Context& ctx) {
    const AutoEnsemble& e = *r.ensemble;
    std::vector<EnsembleMember> members;
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = r.leaderboard[e.members[i]];
        Model m = Model::train(c.refit_spec, data, ctx);
        m.provenance()["auto"] = {{"rank", e.members[i] + 1},
                                  {"params", auto_point_json(c.refit_point)},
                                  {"cv_mean", c.score.mean},
                                  {"cv_std", c.score.std}};
        members.push_back({std::move(m), e.weights[i]});
    }
    return Model::ensemble(std::move(members), data, ctx);
}

}  // namespace kestrel::cli
