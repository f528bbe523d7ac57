// The Model's preprocessing policy: which steps a table gets (an imputer for missing
// cells, one-hot for categories a model cannot split) and fitting them, with the user's
// steps, before the estimator sees the rows.
#include "kestrel/pipeline/model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <span>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/row_blocks.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/cell_scans.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/preprocess/column_selector.hpp"
#include "kestrel/preprocess/encoders.hpp"
#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {

// A step fitted on rows spread over ranks must fit from what the ranks exchange (the
// scalers, the imputers, one-hot, poly); the others would differ from rank to rank
// (docs/distributed.md). Every rank reaches the same step, so every rank refuses it.
namespace {
void refuse_on_shards(const Transformer& t, const std::string& step) {
    if (t.fits_on_shards()) return;
    throw UsageError(option_named("rows_sharded") + ": the preprocessing step " + step +
                     " cannot be fitted from sums over ranks (docs/distributed.md lists the steps that can)");
}
}  // namespace

namespace {

// In any rank's rows, when they are spread over ranks: every rank then takes the same steps.
bool has_missing_cells(const Features& X, bool rows_sharded) {
    double missing = 0;
    if (X.is_sparse()) {
        const SparseMatrix& m = X.sparse_ref();
        missing = std::any_of(m.valuePtr(), m.valuePtr() + m.nonZeros(), [](double v) { return std::isnan(v); });
    } else {
        missing = has_nan_cell(X.dense_ref());
    }
    sum_over_ranks(rows_sharded, std::span<double>(&missing, 1));
    return missing > 0;
}

}  // namespace

std::vector<std::string> Model::table_steps(const Features& X, const std::vector<Index>& category_counts,
                                            bool rows_sharded) const {
    std::vector<std::string> steps;
    const std::string& missing = spec_.missing;
    const bool imputer = missing != "auto" && missing != "keep";
    const bool has_missing = has_missing_cells(X, rows_sharded);
    if (missing == "keep" && has_missing && !estimator_->native_missing())
        throw UsageError("model " + spec_.model +
                         " does not take missing values (" + option_named("missing") + " keep); use " + option_named("missing") +
                         " auto or an imputer");
    if (imputer || (has_missing && !estimator_->native_missing())) {
        // An imputer the user chose is kept even without missing cells in training:
        // it then imputes those met at predict time.
        std::string step = "impute:" + (imputer ? missing : std::string("median"));
        if (spec_.missing_indicator) step += ",indicator";
        steps.push_back(step);
    }
    const bool categorical = std::any_of(category_counts.begin(), category_counts.end(), [](Index k) { return k > 0; });
    // auto: a model that splits categories natively gets them as they are, every other
    // model one-hot; an explicit onehot applies to every model.
    const bool onehot = spec_.encode == "onehot" || (spec_.encode == "auto" && !estimator_->native_categories());
    if (categorical && onehot) {
        std::string step = "onehot";
        // Appended piece by piece: "x" + std::string makes GCC 12 warn falsely
        // (-Wstringop-overflow) once this is inlined into its own file.
        std::string options;
        if (spec_.max_categories > 0) options.append("max_categories=").append(std::to_string(spec_.max_categories));
        if (spec_.min_frequency > 0) {
            char text[32];
            const auto r = std::to_chars(text, text + sizeof text, spec_.min_frequency);
            if (!options.empty()) options += ',';
            options.append("min_frequency=").append(text, r.ptr);
        }
        // A wide encoding is given as sparse rows to a model that takes them.
        if (estimator_->supports_sparse()) {
            if (!options.empty()) options += ',';
            options += "sparse";
        }
        if (!options.empty()) step.append(":").append(options);
        steps.push_back(step);
    }
    return steps;
}

std::optional<Dataset> Model::fit_steps(const Dataset& data, bool rows_sharded) {
    std::vector<Index> roles = data.category_counts;
    CategoryLists categories = categories_;  // follow the columns through the steps
    const Features* X = &data.X;
    Features current;
    // Fits a step on the current columns (a one-hot step names its columns after
    // `names`) and moves them through it.
    const auto apply = [&](const std::string& kind, const CategoryLists& names) {
        // Rows held quantized have no values in X for a step to transform.
        if (quantized_rows_of(data) != nullptr || streamed_rows_of(data) != nullptr)
            throw InternalError("preprocessing step " + kind +
                                " asked of rows held quantized or read as a stream (docs/large-data.md)");
        auto t = make_transformer(kind);
        if (rows_sharded) {
            refuse_on_shards(*t, kind);
            t->fit_on_shards(*X, roles);
        } else {
            t->fit(*X, roles);
        }
        if (!names.empty()) set_category_names(*t, names);
        current = t->transform(*X);
        roles = t->output_roles(roles, current.cols());
        X = &current;
        steps_.push_back(std::move(t));
    };
    // kestrel-select's column selection comes first, so that the table steps see the
    // columns it keeps; then imputation and encoding; then the steps the user asked for.
    auto user = spec_.preprocessing.begin();
    for (; user != spec_.preprocessing.end() && user->rfind("select_columns", 0) == 0; ++user) {
        apply(*user, {});
        if (categories.empty()) continue;
        CategoryLists picked;
        for (Index c : column_selector_columns(*user)) picked.push_back(categories.at(static_cast<std::size_t>(c)));
        categories = std::move(picked);
    }
    // A later step keeps the columns' identities when it preserves the width (or only
    // appends indicator columns); anything else (one-hot) ends them.
    const auto apply_following = [&](const std::string& kind) {
        const std::vector<Index> in_roles = roles;
        apply(kind, categories);
        if (categories.empty()) return;
        if (roles.size() >= in_roles.size() && std::equal(in_roles.begin(), in_roles.end(), roles.begin()))
            categories.resize(roles.size());
        else
            categories.clear();
    };
    const std::vector<std::string> table = table_steps(*X, roles, rows_sharded);
    // --encode ordinal gives the codes to the model as numbers, even one that splits
    // categories natively: its columns then arrive without their category counts.
    const bool as_codes = spec_.encode == "ordinal" && std::any_of(roles.begin(), roles.end(), [](Index r) { return r > 0; });
    if (steps_.empty() && table.empty() && user == spec_.preprocessing.end() && !as_codes) return std::nullopt;
    for (const auto& kind : table) apply_following(kind);
    for (; user != spec_.preprocessing.end(); ++user) apply_following(*user);

    Dataset d;
    d.y = data.y;
    d.weights = data.weights;
    d.qid = data.qid;
    d.feature_names = data.feature_names;
    d.classes = data.classes;
    d.task = data.task;
    d.source = data.source;
    // Not one conditional expression: `cond ? data.X : std::move(current)` is a const xvalue,
    // whose assignment copies the transformed rows instead of moving them.
    if (X == &data.X)
        d.X = data.X;
    else
        d.X = std::move(current);
    // What stays categorical after the steps (a model with native categories).
    if (spec_.encode != "ordinal" && std::any_of(roles.begin(), roles.end(), [](Index r) { return r > 0; })) {
        for (std::size_t j = 0; j < roles.size(); ++j) {
            d.category_counts.push_back(std::max<Index>(roles[j], 0));
            d.categories.push_back(j < categories.size() && roles[j] > 0 ? categories[j] : std::vector<std::string>{});
        }
    }
    return d;
}

}  // namespace kestrel
