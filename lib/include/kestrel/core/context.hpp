#pragma once
// Everything a fit needs besides data and hyperparameters: the master seed, the
// thread budget and where to report warnings and progress. The library never
// prints: it hands messages to these callbacks and the executables decide.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel {

struct Dataset;
class Estimator;

// A labelled set a fit watches while it runs (gbdt's evaluation metrics and early
// stopping: `kestrel-train --valid FILE`, or the held-out fold under cv). Its labels are
// in the training data's encoding.
struct EvalSet {
    std::string name;  // for traces and messages: "validation_0", ...
    const Dataset* data = nullptr;
};

struct Context {
    std::uint64_t seed = 1;
    int threads = 0;  // 0 = all cores (omp_get_num_procs)

    // Warnings (non-convergence, numerical guards). Default: discarded.
    std::function<void(const std::string&)> warn;
    // Progress of long work: done out of total units, and a short label.
    // Only set by the executables when stderr is a terminal and not --quiet/--json.
    std::function<void(const std::string& label, std::uint64_t done, std::uint64_t total)> progress;

    // How the front end spells the options a warning names (option_named, core/error.hpp):
    // the commands give their flags; none keeps the library's words.
    std::function<std::string(const std::string& key)> option_spelling;

    void warning(const std::string& message) const {
        if (warn) warn(message);
    }
    void warning(const ErrorText& message) const {
        if (warn) warn(option_spelling ? message.respelled(option_spelling) : message.text());
    }
    void report(const std::string& label, std::uint64_t done, std::uint64_t total) const {
        if (progress) progress(label, done, total);
    }
    // Validation sets (none by default). Model::train hands the estimator these sets in
    // its own feature space (the fitted preprocessing applied); child() drops them, since
    // a sub-fit (a one-vs-rest member, a calibration fold) learns other labels or rows.
    std::vector<EvalSet> eval_sets;
    // A fitted estimator of the same model whose rounds the fit continues (`kestrel-train
    // --init-model`, XGBoost's xgb_model); none by default. Estimator::fit refuses it for a
    // model that does not declare Capabilities::continue_training; child() drops it.
    const Estimator* init_model = nullptr;
    // The rows of the Dataset are this rank's share of the training data; the other
    // ranks of process_group() hold the rest, and every sum over rows the fit takes is a
    // sum over the group (`kestrel-train --shard`, docs/distributed.md). Only a model with
    // Capabilities::sharded_rows accepts it; child() drops it, since a sub-fit runs on
    // one rank.
    bool rows_sharded = false;

    int resolved_threads() const;  // threads, or the number of cores when 0

    // A context for a sub-task (a fold, a grid point, a one-vs-rest member): the same
    // callbacks (progress dropped), a seed derived from this one and `stream`, and the
    // given thread budget. Derived seeds make results independent of scheduling.
    Context child(std::uint64_t stream, int child_threads = 1) const;
};

}  // namespace kestrel
