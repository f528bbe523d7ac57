#include "kestrel/model_selection/ensemble_selection.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "search_run.hpp"

namespace kestrel {

namespace {

// What is averaged: probabilities of a classifier, predictions of a regressor.
const Matrix& averaged_part(const Predictions& p, Matrix& regression_column) {
    if (p.task == Task::classification) return p.proba;
    regression_column = p.y_pred;
    return regression_column;
}

// A Predictions whose scores are `sum` / `count` (probabilities or predictions).
Predictions averaged_predictions(const Predictions& like, const Matrix& sum, double count) {
    Predictions out;
    out.task = like.task;
    out.y_true = like.y_true;
    out.weights = like.weights;
    out.classes = like.classes;
    out.model = kEnsembleModel;
    if (like.task == Task::classification) {
        out.proba = sum / count;
        out.y_pred = scores_to_classes(out.proba);
    } else {
        out.y_pred = sum.col(0) / count;
    }
    return out;
}

void check_candidates(const std::vector<std::vector<Predictions>>& oof) {
    if (oof.empty()) throw UsageError("ensemble selection: no candidates");
    const std::size_t folds = oof.front().size();
    if (folds == 0) throw UsageError("ensemble selection: no folds");
    for (std::size_t c = 0; c < oof.size(); ++c) {
        if (oof[c].size() != folds) throw UsageError("ensemble selection: candidates differ in their folds");
        for (std::size_t f = 0; f < folds; ++f) {
            const Predictions& p = oof[c][f];
            const Predictions& first = oof[0][f];
            if (p.task != first.task || p.y_true.size() != first.y_true.size() || p.y_true != first.y_true)
                throw UsageError("ensemble selection: candidates differ in fold " + std::to_string(f + 1) + "'s rows");
            if (p.task == Task::classification &&
                (p.proba.rows() != p.y_true.size() || p.proba.cols() != first.proba.cols() || p.proba.cols() < 2))
                throw UsageError("ensemble selection: candidate " + std::to_string(c + 1) + " (" + p.model +
                                 ") gives no probabilities on fold " + std::to_string(f + 1));
            if (p.task != Task::classification && p.y_pred.size() != p.y_true.size())
                throw UsageError("ensemble selection: candidate " + std::to_string(c + 1) + " lacks predictions");
        }
    }
}

}  // namespace

Predictions weighted_average(const std::vector<const Predictions*>& parts, const std::vector<double>& weights) {
    if (parts.empty() || parts.size() != weights.size()) throw InternalError("weighted_average: parts and weights differ");
    Matrix column;
    Matrix sum = Matrix::Zero(averaged_part(*parts[0], column).rows(), averaged_part(*parts[0], column).cols());
    for (std::size_t i = 0; i < parts.size(); ++i) sum += weights[i] * averaged_part(*parts[i], column);
    return averaged_predictions(*parts[0], sum, 1.0);
}

EnsembleSelection select_ensemble(const std::vector<std::vector<Predictions>>& oof, const std::string& metric,
                                  int rounds) {
    if (rounds < 1) throw UsageError("ensemble selection: the rounds must be at least 1");
    check_candidates(oof);
    const bool greater = metric_info(metric).greater_is_better;
    const std::size_t n_folds = oof.front().size();
    Matrix column;
    // Per fold, the sum of the picked candidates' scores so far.
    std::vector<Matrix> sums(n_folds);
    for (std::size_t f = 0; f < n_folds; ++f) {
        const Matrix& p = averaged_part(oof[0][f], column);
        sums[f] = Matrix::Zero(p.rows(), p.cols());
    }
    EnsembleSelection s;
    std::vector<int> counts(oof.size(), 0);
    for (int r = 0; r < rounds; ++r) {
        std::size_t chosen = 0;
        double chosen_score = 0;
        for (std::size_t c = 0; c < oof.size(); ++c) {
            double total = 0;
            for (std::size_t f = 0; f < n_folds; ++f) {
                const Matrix trial = sums[f] + averaged_part(oof[c][f], column);
                total += compute_metric(metric, averaged_predictions(oof[c][f], trial, r + 1.0));
            }
            const double mean = total / static_cast<double>(n_folds);
            // Strictly better replaces: on a tie the earlier (better ranked) candidate stays.
            if (c == 0 || detail::better_score(mean, chosen_score, greater)) {
                chosen = c;
                chosen_score = mean;
            }
        }
        for (std::size_t f = 0; f < n_folds; ++f) sums[f] += averaged_part(oof[chosen][f], column);
        ++counts[chosen];
        s.picks.push_back(chosen);
    }
    for (std::size_t c = 0; c < oof.size(); ++c) {
        if (counts[c] == 0) continue;
        s.members.push_back(c);
        s.weights.push_back(counts[c] / static_cast<double>(rounds));
    }
    // The score of the weights as saved (sum of w_m P_m), which is what the model predicts.
    for (std::size_t f = 0; f < n_folds; ++f) {
        std::vector<const Predictions*> parts;
        for (std::size_t m : s.members) parts.push_back(&oof[m][f]);
        s.fold_scores.push_back(compute_metric(metric, weighted_average(parts, s.weights)));
    }
    s.score = summarize(s.fold_scores);
    return s;
}

}  // namespace kestrel
