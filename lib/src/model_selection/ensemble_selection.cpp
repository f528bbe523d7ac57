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
                throw UsageError("ensemble selection: candidates differ in fold " + std::to_string(f + 1) + "/" +
                                 std::to_string(folds) + "'s rows");
            if (p.task == Task::classification &&
                (p.proba.rows() != p.y_true.size() || p.proba.cols() != first.proba.cols() || p.proba.cols() < 2))
                throw UsageError("ensemble selection: candidate " + std::to_string(c + 1) + " (" + p.model +
                                 ") gives no probabilities on fold " + std::to_string(f + 1) + "/" + std::to_string(folds));
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

namespace {

// The rounds of greedy selection on every fold but `skip` (none when it is past the last):
// how many times each candidate was picked, and the pick of each round.
std::vector<int> pick_counts(const std::vector<std::vector<Predictions>>& oof, const std::string& metric, int rounds,
                             std::size_t skip, std::vector<std::size_t>* picks) {
    const bool greater = metric_info(metric).greater_is_better;
    const std::size_t n_folds = oof.front().size();
    Matrix column;
    // Per fold, the sum of the picked candidates' scores so far.
    std::vector<Matrix> sums(n_folds);
    for (std::size_t f = 0; f < n_folds; ++f) {
        const Matrix& p = averaged_part(oof[0][f], column);
        sums[f] = Matrix::Zero(p.rows(), p.cols());
    }
    const double used_folds = static_cast<double>(n_folds - (skip < n_folds ? 1 : 0));
    std::vector<int> counts(oof.size(), 0);
    for (int r = 0; r < rounds; ++r) {
        std::size_t chosen = 0;
        double chosen_score = 0;
        for (std::size_t c = 0; c < oof.size(); ++c) {
            double total = 0;
            for (std::size_t f = 0; f < n_folds; ++f) {
                if (f == skip) continue;
                const Matrix trial = sums[f] + averaged_part(oof[c][f], column);
                total += compute_metric(metric, averaged_predictions(oof[c][f], trial, r + 1.0));
            }
            const double mean = total / used_folds;
            // Strictly better replaces: on a tie the earlier (better ranked) candidate stays.
            if (c == 0 || detail::better_score(mean, chosen_score, greater)) {
                chosen = c;
                chosen_score = mean;
            }
        }
        for (std::size_t f = 0; f < n_folds; ++f)
            if (f != skip) sums[f] += averaged_part(oof[chosen][f], column);
        ++counts[chosen];
        if (picks) picks->push_back(chosen);
    }
    return counts;
}

// The weighted average of the picked candidates' predictions on fold f, scored.
double fold_score(const std::vector<std::vector<Predictions>>& oof, const std::vector<int>& counts, int rounds,
                  std::size_t f, const std::string& metric) {
    std::vector<const Predictions*> parts;
    std::vector<double> weights;
    for (std::size_t c = 0; c < oof.size(); ++c) {
        if (counts[c] == 0) continue;
        parts.push_back(&oof[c][f]);
        weights.push_back(counts[c] / static_cast<double>(rounds));
    }
    return compute_metric(metric, weighted_average(parts, weights));
}

}  // namespace

EnsembleSelection select_ensemble(const std::vector<std::vector<Predictions>>& oof, const std::string& metric,
                                  int rounds) {
    if (rounds < 1) throw UsageError("ensemble selection: the rounds must be at least 1");
    check_candidates(oof);
    EnsembleSelection s;
    const std::vector<int> counts = pick_counts(oof, metric, rounds, oof.front().size(), &s.picks);
    for (std::size_t c = 0; c < oof.size(); ++c) {
        if (counts[c] == 0) continue;
        s.members.push_back(c);
        s.weights.push_back(counts[c] / static_cast<double>(rounds));
    }
    // The score of the weights as saved (sum of w_m P_m), which is what the model predicts.
    for (std::size_t f = 0; f < oof.front().size(); ++f) s.fold_scores.push_back(fold_score(oof, counts, rounds, f, metric));
    s.score = summarize(s.fold_scores);
    return s;
}

std::vector<double> held_out_ensemble_scores(const std::vector<std::vector<Predictions>>& oof, const std::string& metric,
                                             int rounds) {
    if (rounds < 1) throw UsageError("ensemble selection: the rounds must be at least 1");
    check_candidates(oof);
    const std::size_t n_folds = oof.front().size();
    if (n_folds < 2) throw UsageError("ensemble selection: a held-out check needs at least 2 folds");
    std::vector<double> scores;
    for (std::size_t f = 0; f < n_folds; ++f)
        scores.push_back(fold_score(oof, pick_counts(oof, metric, rounds, f, nullptr), rounds, f, metric));
    return scores;
}

std::vector<double> held_out_best_scores(const std::vector<std::vector<double>>& fold_scores, bool greater) {
    if (fold_scores.empty() || fold_scores.front().size() < 2)
        throw UsageError("held-out best: needs candidates and at least 2 folds");
    const std::size_t n_folds = fold_scores.front().size();
    std::vector<double> scores;
    for (std::size_t f = 0; f < n_folds; ++f) {
        std::size_t best = 0;
        double best_mean = 0;
        for (std::size_t c = 0; c < fold_scores.size(); ++c) {
            if (fold_scores[c].size() != n_folds) throw UsageError("held-out best: candidates differ in their folds");
            double total = 0;
            for (std::size_t g = 0; g < n_folds; ++g)
                if (g != f) total += fold_scores[c][g];
            const double mean = total / static_cast<double>(n_folds - 1);
            if (c == 0 || detail::better_score(mean, best_mean, greater)) {
                best = c;
                best_mean = mean;
            }
        }
        scores.push_back(fold_scores[best][f]);
    }
    return scores;
}

}  // namespace kestrel
