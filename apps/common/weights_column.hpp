#pragma once
// --weights-col COLUMN, --group-col COLUMN: a feature column taken out of a read table
// to serve as the rows' sample weights, or their query groups. COLUMN is a header name (CSV with a header), a 0-based file
// column index (CSV without a header, counted as --label-col counts) or a 1-based
// feature index (LIBSVM).
#include "common/cli.hpp"

namespace kestrel::cli {

// Removes the column from t.X (and t.feature_names) and returns its values; a missing
// column or a negative / non-finite weight is a DataError, an unknown name a UsageError.
Vector take_weights_column(Table& t, const DataFlags& data);

// --group-col COLUMN (named as --weights-col names its column): the column taken out of
// the features as each row's query id (RawLabels::qid; a column of words gives its
// category codes). DataError "file:line: ..." when a query's rows are not contiguous.
// Nothing when the flag is not given.
void take_group_column(Table& t, const DataFlags& data);

// UsageError naming --weights-col when the model cannot learn from sample weights.
void check_model_takes_weights(const ModelSpec& spec);

}  // namespace kestrel::cli
