// Precision, recall and F1 per class and averaged, as scikit-learn 1.2's
// precision_recall_fscore_support with zero_division=0 and labels=None.
#include <vector>

#include "kestrel/metrics/classification.hpp"

namespace kestrel {
namespace {

double ratio_or_zero(long long num, long long den) {
    return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

// sklearn 1.2 forms F1 from precision and recall (not from counts, as 1.3 does), which
// can differ in the last bit; keep its order of operations.
double f1_of(double precision, double recall) {
    const double denom = precision + recall;
    return denom == 0.0 ? 0.0 : 2.0 * precision * recall / denom;
}

ClassScores scores_from_counts(long long tp, long long predicted, long long actual) {
    ClassScores s;
    s.precision = ratio_or_zero(tp, predicted);
    s.recall = ratio_or_zero(tp, actual);
    s.f1 = f1_of(s.precision, s.recall);
    s.support = actual;
    return s;
}

}  // namespace

std::vector<ClassScores> per_class_scores(const CountMatrix& cm) {
    std::vector<ClassScores> out;
    out.reserve(static_cast<std::size_t>(cm.rows()));
    for (Index c = 0; c < cm.rows(); ++c) out.push_back(scores_from_counts(cm(c, c), cm.col(c).sum(), cm.row(c).sum()));
    return out;
}

ClassScores averaged_scores(const CountMatrix& cm, Average avg) {
    const long long total = cm.sum();
    ClassScores out;
    out.support = total;
    if (avg == Average::micro) {
        // Summed over every class, predicted and actual totals are both n.
        const ClassScores s = scores_from_counts(cm.trace(), total, total);
        out.precision = s.precision;
        out.recall = s.recall;
        out.f1 = s.f1;
        return out;
    }
    const std::vector<ClassScores> per = per_class_scores(cm);
    double weight_sum = 0;
    for (Index c = 0; c < cm.rows(); ++c) {
        // Only the classes present in y_true or y_pred take part (sklearn's labels=None).
        if (cm.row(c).sum() == 0 && cm.col(c).sum() == 0) continue;
        const double w = avg == Average::weighted ? static_cast<double>(per[c].support) : 1.0;
        out.precision += w * per[c].precision;
        out.recall += w * per[c].recall;
        out.f1 += w * per[c].f1;
        weight_sum += w;
    }
    // No labelled sample at all (weighted over zero support): sklearn's zero_division 0.
    if (weight_sum == 0) return ClassScores{0, 0, 0, total};
    out.precision /= weight_sum;
    out.recall /= weight_sum;
    out.f1 /= weight_sum;
    return out;
}

}  // namespace kestrel
