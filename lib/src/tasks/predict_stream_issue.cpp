#include "kestrel/tasks/predict_stream_issue.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

std::string neutral_predict_issue_text(const PredictIssue& issue) {
    switch (issue.kind) {
        case PredictIssueKind::missing_label_column:
            return issue.source + ": cannot score the predictions: " + issue.subject +
                   "; the label column setting names the column to score against";
        case PredictIssueKind::unrecorded_label_column:
            return issue.source +
                   " does not record its label column (a model file older than format version 6, or trained on a "
                   "LIBSVM file): scoring against " +
                   issue.subject + "; the label column setting names another column to score against";
        case PredictIssueKind::group_column_of_libsvm:
            return "group column " + issue.subject + " names a CSV column; " + issue.source +
                   " is a LIBSVM file, whose rows give qid:N";
        case PredictIssueKind::libsvm_columns_to_copy:
            return issue.source +
                   ": LIBSVM rows have no columns to copy; the pass-through column 'line' is each row's line number";
        case PredictIssueKind::too_many_rows:
            return issue.source + ": more than the row limit (max_rows) of " + issue.subject + " data rows";
    }
    throw InternalError("an unknown kind of prediction issue");
}

std::string predict_issue_text(const PredictIssueWording& wording, const PredictIssue& issue) {
    return wording ? wording(issue) : neutral_predict_issue_text(issue);
}

void throw_predict_issue(const PredictIssueWording& wording, const PredictIssue& issue) {
    const std::string text = predict_issue_text(wording, issue);
    switch (issue.kind) {
        case PredictIssueKind::group_column_of_libsvm:
        case PredictIssueKind::libsvm_columns_to_copy:
            throw UsageError(text);
        case PredictIssueKind::missing_label_column:
        case PredictIssueKind::too_many_rows:
        case PredictIssueKind::unrecorded_label_column:
            break;
    }
    throw DataError(text);
}

}  // namespace kestrel
