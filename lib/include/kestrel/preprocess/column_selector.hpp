#pragma once
// The preprocessing step "select_columns": keeps a fixed list of input columns, in
// the given order. kestrel-select stores its chosen features this way, so a saved
// model reads the same files as before and kestrel-predict applies the selection.
// Its spec text is "select_columns:i,j,..." (0-based input column indices).
#include <memory>
#include <string>
#include <vector>

#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {

// The columns `cols` of X, in that order (dense stays dense, sparse stays sparse).
Features select_columns(const Features& X, const std::vector<Index>& cols);

// "select_columns:0,3,5" for these indices.
std::string column_selector_spec(const std::vector<Index>& cols);

// The column indices of a spec text "select_columns:i,j,..." (none for "select_columns");
// UsageError on a malformed list.
std::vector<Index> column_selector_columns(const std::string& spec);

// The step for a spec text "select_columns" (empty, filled by from_json) or
// "select_columns:i,j,..."; UsageError on a malformed list.
std::unique_ptr<Transformer> make_column_selector(const std::string& spec);

}  // namespace kestrel
