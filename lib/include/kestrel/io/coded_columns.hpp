#pragma once
// Categorical columns given as integer codes with their names, as in-memory tables keep
// them (a pandas Categorical, an R factor, Arrow's dictionary arrays), made what the
// readers make of a text column: codes into the byte-wise sorted names (CategoryLists).
// So a model trained on coded rows is the model trained on the same table read from its
// CSV file, and rows scored against a model are coded in the model's order by name.
#include <string>
#include <vector>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

// Declares column `column` of `table` (dense rows) categorical: its cells are codes
// 0..names.size()-1 into `names`; a negative code or NaN is a missing cell (NaN). The
// names are sorted byte-wise and the codes follow them. DataError on a cell that is not
// a whole code in range (naming its row and column) and on a repeated or empty list of
// names; UsageError on a column past the table's or sparse rows.
void set_coded_column(Table& table, Index column, std::vector<std::string> names);

// The rows of `table` with each categorical column re-coded into `model`'s category list
// of that column by name: a name the model never saw becomes kUnknownCategory, as the
// readers code it at predict time. DataError naming the column when a column is
// categorical in one and numeric in the other. The rows unchanged when neither has
// categories.
Features coded_for_model(const Table& table, const CategoryLists& model);

}  // namespace kestrel
