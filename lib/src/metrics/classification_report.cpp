// The classification report: sklearn's classification_report table plus the confusion
// matrix and the ranking metrics, as text for people and JSON for tools.
// Text is appended piecewise: GCC 12 warns falsely (-Wstringop-overflow) on
// "literal" + std::string&&, and the build may treat warnings as errors.
#include <algorithm>
#include <string>
#include <vector>

#include "kestrel/metrics/classification.hpp"
#include "metrics_internal.hpp"

namespace kestrel {
namespace {

using metrics_internal::fixed4;

void append_padded(std::string& out, const std::string& s, std::size_t width) {
    if (s.size() < width) out.append(width - s.size(), ' ');
    out += s;
}

// One row in sklearn's layout: name right-aligned to `width`, then 9-wide columns.
void append_score_row(std::string& out, const std::string& name, std::size_t width, const ClassScores& s) {
    append_padded(out, name, width);
    out += ' ';
    for (double v : {s.precision, s.recall, s.f1}) {
        out += ' ';
        append_padded(out, fixed4(v), 9);
    }
    out += ' ';
    append_padded(out, std::to_string(s.support), 9);
    out += '\n';
}

void append_confusion(std::string& out, const std::vector<std::string>& classes, const CountMatrix& cm) {
    const std::string corner = "true \\ pred";
    std::size_t label_width = corner.size(), cell_width = 1;
    for (const std::string& c : classes) {
        label_width = std::max(label_width, c.size());
        cell_width = std::max(cell_width, c.size());
    }
    for (Index i = 0; i < cm.size(); ++i) cell_width = std::max(cell_width, std::to_string(cm.data()[i]).size());
    append_padded(out, corner, label_width);
    for (const std::string& c : classes) {
        out += "  ";
        append_padded(out, c, cell_width);
    }
    out += '\n';
    for (Index r = 0; r < cm.rows(); ++r) {
        append_padded(out, classes[static_cast<std::size_t>(r)], label_width);
        for (Index c = 0; c < cm.cols(); ++c) {
            out += "  ";
            append_padded(out, std::to_string(cm(r, c)), cell_width);
        }
        out += '\n';
    }
}

Json scores_json(const ClassScores& s) {
    return Json{{"precision", s.precision}, {"recall", s.recall}, {"f1", s.f1}, {"support", s.support}};
}

}  // namespace

ClassificationReport classification_report(const Predictions& p) {
    metrics_internal::check_task(p, Task::classification, "the classification report");
    const Index k = metrics_internal::covered_classes(p);
    const CountMatrix full = confusion_matrix(p.y_true, p.y_pred, k);
    const std::vector<ClassScores> all_scores = per_class_scores(full);

    std::vector<Index> shown;  // present in y_true or y_pred, as sklearn's labels=None
    for (Index c = 0; c < k; ++c)
        if (full.row(c).sum() > 0 || full.col(c).sum() > 0) shown.push_back(c);

    ClassificationReport r;
    r.n = p.y_true.size();
    for (Index c : shown) {
        // An index beyond the class list means a caller built inconsistent Predictions;
        // name it by its index rather than fail in the middle of a report.
        r.classes.push_back(c < p.n_classes() ? p.classes[static_cast<std::size_t>(c)] : std::to_string(c));
        r.per_class.push_back(all_scores[static_cast<std::size_t>(c)]);
    }
    const auto m = static_cast<Index>(shown.size());
    r.confusion = CountMatrix(m, m);
    for (Index i = 0; i < m; ++i)
        for (Index j = 0; j < m; ++j) r.confusion(i, j) = full(shown[i], shown[j]);
    r.macro = averaged_scores(full, Average::macro);
    r.micro = averaged_scores(full, Average::micro);
    r.weighted = averaged_scores(full, Average::weighted);
    r.accuracy = accuracy(p.y_true, p.y_pred);
    r.balanced_accuracy = balanced_accuracy(p.y_true, p.y_pred, k);
    r.roc_auc = roc_auc(p);
    r.average_precision = average_precision(p);
    r.log_loss = log_loss(p);
    r.brier_score = brier_score(p);
    if ((r.roc_auc || r.average_precision) && k == 2)
        r.positive_class = p.n_classes() > 1 ? p.classes[1] : std::string("1");
    return r;
}

std::string ClassificationReport::to_text() const {
    std::size_t width = std::string("weighted avg").size();
    for (const std::string& c : classes) width = std::max(width, c.size());
    std::string out;
    append_padded(out, "", width);
    out += ' ';
    for (const char* h : {"precision", "recall", "f1-score", "support"}) {
        out += ' ';
        append_padded(out, h, 9);
    }
    out += "\n\n";
    for (std::size_t c = 0; c < classes.size(); ++c) append_score_row(out, classes[c], width, per_class[c]);
    out += '\n';
    append_padded(out, "accuracy", width);
    out.append(1 + 2 * 10, ' ');
    out += ' ';
    append_padded(out, fixed4(accuracy), 9);
    out += ' ';
    append_padded(out, std::to_string(n), 9);
    out += '\n';
    append_score_row(out, "macro avg", width, macro);
    append_score_row(out, "weighted avg", width, weighted);

    out += "\nbalanced accuracy   ";
    out += fixed4(balanced_accuracy);
    out += "\n\nconfusion matrix (rows: true class, columns: predicted class)\n";
    append_confusion(out, classes, confusion);

    std::string how = "   (one-vs-rest macro)\n";
    if (!positive_class.empty()) {
        how = "   (positive class ";
        how += positive_class;
        how += ")\n";
    }
    if (roc_auc || average_precision || log_loss) out += '\n';
    const auto line = [&out](const char* label, double v, const std::string& suffix) {
        out += label;
        out += fixed4(v);
        out += suffix;
    };
    if (roc_auc) line("ROC AUC             ", *roc_auc, how);
    if (average_precision) line("average precision   ", *average_precision, how);
    if (log_loss) line("log loss            ", *log_loss, "\n");
    if (brier_score) line("Brier score         ", *brier_score, "\n");
    return out;
}

Json ClassificationReport::to_json() const {
    Json j = Json::object();
    j["n"] = n;
    j["classes"] = classes;
    j["accuracy"] = accuracy;
    j["balanced_accuracy"] = balanced_accuracy;
    Json per = Json::array();
    for (std::size_t c = 0; c < classes.size(); ++c) {
        Json row = scores_json(per_class[c]);
        row["class"] = classes[c];
        per.push_back(std::move(row));
    }
    j["per_class"] = std::move(per);
    j["macro"] = scores_json(macro);
    j["micro"] = scores_json(micro);
    j["weighted"] = scores_json(weighted);
    Json cm = Json::array();
    for (Index r = 0; r < confusion.rows(); ++r) {
        Json row = Json::array();
        for (Index c = 0; c < confusion.cols(); ++c) row.push_back(confusion(r, c));
        cm.push_back(std::move(row));
    }
    j["confusion_matrix"] = std::move(cm);
    if (roc_auc) j["roc_auc"] = *roc_auc;
    if (average_precision) j["average_precision"] = *average_precision;
    if (log_loss) j["log_loss"] = *log_loss;
    if (brier_score) j["brier_score"] = *brier_score;
    if (!positive_class.empty()) j["positive_class"] = positive_class;
    return j;
}

}  // namespace kestrel
