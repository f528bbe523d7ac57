#pragma once
// The steps that make a raw table (categorical columns, missing cells) fit for models
// that take neither: imputation (scikit-learn's SimpleImputer, with its
// MissingIndicator) and one-hot encoding (scikit-learn's OneHotEncoder with
// handle_unknown='infrequent_if_exist'-style rare-category folding).
//
// Step specs (ModelSpec::preprocessing entries):
//   impute:STRATEGY[,indicator]  STRATEGY = mean | median | most_frequent | constant=VALUE.
//       Numeric columns get the strategy; categorical columns always get their most
//       frequent category (the smallest code on ties). `indicator` appends one 0/1
//       column per feature that had missing cells in training, in feature order.
//   onehot[:max_categories=N][,min_frequency=F][,sparse]
//       One 0/1 column per category of each categorical column, in category order;
//       numeric columns pass through first, in their order. A category seen fewer
//       than F times (F < 1: a fraction of the rows), or beyond the N-1 most frequent
//       (ties: category order), shares one "infrequent" column. A missing cell or an
//       unknown category (kUnknownCategory) is an all-zero row.
//       `sparse` (the model takes sparse rows): when fewer than 30% of the encoded
//       cells would be stored (scikit-learn's ColumnTransformer sparse_threshold=0.3),
//       the step outputs sparse rows, each numeric cell stored even when 0; the fitted
//       step records "sparse": true.
#include <memory>
#include <string>

#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {

bool is_impute_step(const std::string& spec);
std::unique_ptr<Transformer> make_impute_step(const std::string& spec);  // UsageError on a bad spec
bool is_onehot_step(const std::string& spec);
std::unique_ptr<Transformer> make_onehot_step(const std::string& spec);

// Gives a fitted one-hot step the category names its output columns are named after
// ("colour=red"); without them the columns are named by code ("colour=2").
void set_category_names(Transformer& onehot, const CategoryLists& categories);

}  // namespace kestrel
