#pragma once
// What a metric sees: truths, predictions and, where the model has them, scores.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct Predictions {
    Task task = Task::regression;
    Eigen::VectorXd y_true;   // class index or value
    Eigen::VectorXd y_pred;   // class index or value
    Eigen::VectorXd weights;  // empty = unit (unused by the default metrics)
    Eigen::VectorXd qid;      // each row's query (learning to rank: ndcg, map, mrr); empty = none
    // Classification only. Either may be empty. decision: n x 1 (binary) or n x k;
    // proba: n x k rows summing to 1.
    Eigen::MatrixXd decision;
    Eigen::MatrixXd proba;
    std::vector<std::string> classes;  // k names; y_true may hold indices >= the model's classes
    std::string model;                 // name of the model that made them, for messages (may be empty)

    Index n_classes() const { return static_cast<Index>(classes.size()); }
    // Scores for ranking metrics: proba when present, else decision values.
    bool has_scores() const { return proba.size() > 0 || decision.size() > 0; }

    // Concatenates out-of-fold predictions (classes must be equal, or one list a prefix
    // of the other: a class seen only in one test fold is appended at the end).
    void append(const Predictions& other);
};

}  // namespace kestrel
