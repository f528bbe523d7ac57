// What a training request asks that the model cannot do, refused before any file is read
// (check_train_request): messages name the request's options (option_named), which the
// commands spell as their flags.
#include <algorithm>
#include <string>

#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/train_task.hpp"

namespace kestrel {
namespace {

// A report the model does not declare (ModelInfo::reports).
void check_reports(const ModelSpec& spec, const TrainReports& wanted) {
    const auto names = registry().reports(*resolved_params(spec));
    const auto require = [&](bool asked, const std::string& report) {
        if (asked && std::find(names.begin(), names.end(), report) == names.end())
            throw UsageError(option_named("reports." + report) + ": model " + spec.model + " has no " + report +
                             " output");
    };
    require(wanted.path, "path");
    require(wanted.trace, "trace");
    require(wanted.tree, "tree");
}

// What a sharded fit cannot be combined with.
void check_shard(const TrainRequest& request) {
    const ModelSpec& spec = request.spec;
    if (!registry().capabilities(*resolved_params(spec)).sharded_rows)
        throw UsageError(option_named("shard") + ": model " + spec.model +
                         " with these parameters cannot train on rows spread over ranks (docs/distributed.md lists "
                         "the models and parameters that can)");
    const auto refuse = [](bool given, const std::string& option) {
        if (given)
            throw UsageError(option_named("shard") + ": " + option_named(option) +
                             " is not supported with a sharded fit");
    };
    refuse(!request.data.validation_files.empty(), "valid");
    refuse(!request.init_model.empty(), "init_model");
    refuse(!spec.calibrate.empty(), "calibrate");
    refuse(!spec.resample.empty(), "resample");
}

}  // namespace

void check_train_request(const TrainRequest& request) {
    const ModelSpec& spec = request.spec;
    check_reports(spec, request.reports);
    const Capabilities can = registry().capabilities(*resolved_params(spec));
    if (!request.data.validation_files.empty() && !can.eval_sets)
        throw UsageError(option_named("valid") + ": model " + spec.model +
                         " does not watch validation sets (gbdt does, without " + option_named("params") +
                         " multiclass=ovr|ovo|ecoc)");
    if (!request.init_model.empty() && !can.continue_training)
        throw UsageError(option_named("init_model") + ": model " + spec.model +
                         " cannot continue training (gbdt can, without " + option_named("params") +
                         " multiclass=ovr|ovo|ecoc; logistic starts from its weights)");
    if (request.shard || !request.shard_files.empty()) check_shard(request);
}

}  // namespace kestrel
