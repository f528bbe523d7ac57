#pragma once
// The problems of a prediction request that concern one of its settings (the label
// column, the group column, the pass-through columns, the row limit). The library words
// them by the setting's name; a front end that spells its settings otherwise (a command
// line's flags) gives its own wording, and the errors keep their types and exit codes.
#include <functional>
#include <string>

namespace kestrel {

enum class PredictIssueKind {
    missing_label_column,     // metrics asked for, the rows have no label (DataError)
    unrecorded_label_column,  // a warning: the model file does not say which column its label was
    group_column_of_libsvm,   // a group column asked of a LIBSVM file (UsageError)
    libsvm_columns_to_copy,   // pass-through columns asked of a LIBSVM file (UsageError)
    too_many_rows,            // more data rows than the row limit (DataError)
};

struct PredictIssue {
    PredictIssueKind kind{};
    std::string source;  // the data file, or for unrecorded_label_column the model file
    // missing_label_column: why there is no label ("the data file has no column 'y' (the
    // model's label column)"); unrecorded_label_column: what is scored against ("the
    // first column", "column 'y'"); group_column_of_libsvm: the group column;
    // too_many_rows: the limit.
    std::string subject;
};

// A front end's wording of an issue: the whole message (error text or warning).
using PredictIssueWording = std::function<std::string(const PredictIssue&)>;

// The library's wording, by setting names (PredictRequest's fields).
std::string neutral_predict_issue_text(const PredictIssue& issue);

// The message of `issue` in `wording`, or in the library's when none is given.
std::string predict_issue_text(const PredictIssueWording& wording, const PredictIssue& issue);

// Throws the issue's error (DataError or UsageError, by kind) with predict_issue_text.
[[noreturn]] void throw_predict_issue(const PredictIssueWording& wording, const PredictIssue& issue);

}  // namespace kestrel
