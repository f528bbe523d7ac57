#include "common/flag_spelling.hpp"

#include <string_view>
#include <utility>

namespace kestrel::cli {
namespace {

// Library option -> the flag that sets it. One row per option a library message names
// (option_named in lib/src; scripts/check_library_messages.sh checks that each has a row).
// A key is qualified ("job.option") only where two options share a name but not a flag.
constexpr std::pair<std::string_view, std::string_view> kFlagOfOption[] = {
    // The model and its preparation (ModelSpec, Context).
    {"model", "-m"},
    {"to", "--to"},  // kestrel-export
    {"params", "-p"},
    {"scale", "--scale"},
    {"poly", "--poly"},
    {"poly.interaction_only", "--poly-interaction-only"},
    {"poly.max_width", "--max-poly-width"},
    {"missing", "--missing"},
    {"missing_indicator", "--missing-indicator"},
    {"max_categories", "--max-categories"},
    {"min_frequency", "--min-frequency"},
    {"resample", "--resample"},
    {"calibrate", "--calibrate"},
    {"calibrate_folds", "--calibrate-folds"},
    {"task", "--task"},
    {"encode", "--encode"},
    {"init_model", "--init-model"},
    {"rows_sharded", "--shard"},
    // Training a model to save (TrainRequest).
    {"shard", "--shard"},
    {"reports.path", "--path"},
    {"reports.trace", "--trace"},
    {"reports.tree", "--dump-tree"},
    // Reading data (ReadOptions).
    {"label_col", "--label-col"},
    {"group_col", "--group-col"},
    {"weights_col", "--weights-col"},
    {"shards", "--shards"},
    {"format", "--format"},
    {"header", "--no-header"},
    {"delimiter", "--delimiter"},
    {"categorical_columns", "--categorical"},
    {"categorical_features", "--categorical"},
    {"numeric_columns", "--numeric"},
    {"ignore_columns", "--ignore-cols"},
    {"read.max_categories", "--max-categories-hard"},
    {"unknown_category_error", "--unknown"},
    {"unknown_category_error=false", "--unknown ignore"},
    {"max_rows", "--max-rows"},
    {"max_memory", "--max-memory"},
    {"cache", "--cache"},
    {"valid", "--valid"},
    // Cross-validation splits (SplitOptions).
    {"k", "-k"},
    {"repeats", "--repeat"},
    {"shuffle_splits", "--shuffle-split"},
    {"test_fraction", "--test-fraction"},
    {"leave_one_out", "--loo"},
    {"groups", "--groups"},
    {"validation", "--validation"},
    {"metric", "--metric"},
    {"fractions", "--learning-curve"},
    {"tune_threshold", "--tune-threshold"},
    // Searches (SearchOptions, nested_search, AutoOptions).
    {"grid", "-g"},
    {"n_iter", "--n-iter"},
    {"halving", "--halving"},
    {"known", "--resume"},
    {"outer", "--outer-k"},
    {"time_budget", "--time-budget"},
    {"max_evals", "--max-evals"},
    {"models", "--models"},
    {"ensemble", "--ensemble"},
    {"ensemble_size", "--ensemble-size"},
    {"ensemble_nbest", "--ensemble-nbest"},
    {"stack_members", "--stack-members"},
    {"stack_features", "--stack-features"},
    // Feature selection and explanations.
    {"method", "--method"},
    {"max_features", "--max-features"},
    {"path_points", "--path-points"},
    {"permutation_importance.repeats", "--repeats"},
    {"grid_resolution", "--grid-resolution"},
    {"importance", "--importance"},
    {"contributions", "--contrib"},
    {"explain", "--explain"},
    {"kernel_info", "--kernel-info"},
    {"threshold", "--threshold"},
    // Scoring a stream of rows (PredictRequest).
    {"metrics", "--metrics"},
    {"id_col", "--id-col"},
    // The files drawn of a result (kestrel/tasks/*_plots.hpp).
    {"plot", "--plot"},
    {"curves", "--curves"},
    {"heldout", "--heldout"},
    // Explaining a model (ExplainRequest).
    {"pdp", "--pdp"},
    {"ice", "--ice"},
    {"shap_summary", "--shap-summary"},
};

}  // namespace

std::string flag_spelling(const std::string& key) {
    for (const auto& [option, flag] : kFlagOfOption)
        if (option == key) return std::string(flag);
    return {};
}

std::string command_message(const Error& e) { return e.text().respelled(flag_spelling); }

}  // namespace kestrel::cli
