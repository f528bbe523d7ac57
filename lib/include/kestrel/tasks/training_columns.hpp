#pragma once
// The weights and query (group) columns of a training table: a feature column taken out
// of a read table to serve as the rows' sample weights, or as their query ids for learning
// to rank. The column is a header name (CSV with a header), a 0-based field index (CSV
// without a header, counted as the label column is counted) or a 1-based feature index
// (LIBSVM). Messages name the option by its library name (weights_col, group_col).
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

// Removes options.weights_column from t.X (and t.feature_names) and returns its values; a
// missing column or a negative / non-finite weight is a DataError, an unknown name a
// UsageError. `first_row`: the data rows before t's first (t a piece of a file read in
// pieces), so that a message names the row's number in the file.
Vector take_weights_column(Table& t, const TrainingDataOptions& options, Index first_row = 0);

// options.group_column taken out of the features as each row's query id (RawLabels::qid;
// a column of words gives its category codes). DataError "file:line: ..." when a query's
// rows are not contiguous or an id is not a number; QueryIdCheck::caller leaves that check
// to the caller (t a piece of a file read in pieces: the rows of a query may span pieces,
// so the ids of every piece are checked together, with check_query_ids). Nothing when no
// group column is given. Returns whether the column held words (its ids are then t's own
// category codes, which a piece of a file numbers apart from the others).
enum class QueryIdCheck { here, caller };
bool take_group_column(Table& t, const TrainingDataOptions& options, QueryIdCheck check = QueryIdCheck::here);

// UsageError naming the weights column when spec's model cannot learn from sample weights.
void check_model_takes_weights(const ModelSpec& spec);

}  // namespace kestrel
