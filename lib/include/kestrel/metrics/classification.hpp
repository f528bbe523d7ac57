#pragma once
// Classification metrics, defined as in scikit-learn (a class with no predicted
// samples has precision 0, as sklearn's zero_division=0; empty classes in both truth
// and prediction are left out of macro averages only when absent from both).
#include <optional>
#include <string>
#include <vector>

#include "kestrel/metrics/predictions.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

using CountMatrix = Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic>;

// rows = true class, columns = predicted class (k x k).
CountMatrix confusion_matrix(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred, Index k);

double accuracy(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred);
double balanced_accuracy(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred, Index k);

struct ClassScores {
    double precision = 0, recall = 0, f1 = 0;
    long long support = 0;
};

// Averages over the classes present in y_true or y_pred (sklearn's labels=None); the
// support of an average is the total count.
enum class Average { macro, micro, weighted };
ClassScores averaged_scores(const CountMatrix& cm, Average avg);
std::vector<ClassScores> per_class_scores(const CountMatrix& cm);

// Binary ROC AUC and average precision from scores for the positive class (ties as
// sklearn: ROC by the trapezoid over distinct thresholds; AP as sum (R_n - R_n-1) P_n).
double roc_auc_binary(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score);
double average_precision_binary(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score);
// Binary (two classes): the scores of class 1 (proba column 1, else the decision values).
// Multiclass: one-vs-rest macro over the classes present in y_true; a class without a
// score column (seen only in the test data) gets a constant score, so AUC 0.5 for it.
// nullopt when the predictions carry no scores or y_true has a single class.
std::optional<double> roc_auc(const Predictions& p);
std::optional<double> average_precision(const Predictions& p);
// Mean negative log-likelihood of the true class, as sklearn 1.2's log_loss: probabilities
// clipped to [eps, 1-eps] with eps = kLogLossEps, then each row renormalised. A class the
// model never saw has probability 0 (clipped to eps).
inline constexpr double kLogLossEps = 2.220446049250313e-16;  // sklearn 1.2 eps="auto": np.finfo(float64).eps
std::optional<double> log_loss(const Predictions& p);
// Brier score (brier.cpp), lower is better. Two classes: scikit-learn 1.2's
// brier_score_loss, the mean of (P(classes[1]) - [y = classes[1]])^2. More classes: the
// mean over rows of sum_k (p_k - [y = k])^2 (Brier's original definition, twice the binary
// form on two classes); a class the model never saw has probability 0. nullopt without
// probabilities.
std::optional<double> brier_score(const Predictions& p);

// Covers the classes present in y_true or y_pred (as sklearn's classification_report with
// labels=None): `classes`, `per_class` and `confusion` are restricted to them.
struct ClassificationReport {
    std::vector<std::string> classes;
    std::vector<ClassScores> per_class;
    ClassScores macro, micro, weighted;
    double accuracy = 0, balanced_accuracy = 0;
    CountMatrix confusion;
    std::optional<double> roc_auc, average_precision, log_loss, brier_score;
    std::string positive_class;  // binary ranking metrics: the positive class; empty = one-vs-rest macro
    long long n = 0;

    std::string to_text() const;  // the readable table
    Json to_json() const;
};
ClassificationReport classification_report(const Predictions& p);

}  // namespace kestrel
