#include "kestrel/tasks/cv_data.hpp"

#include <algorithm>
#include <cstdint>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tasks/cv_report.hpp"
#include "kestrel/tasks/training_cv_data.hpp"

namespace kestrel {
namespace {

// The rows, read with the group column or the validation file the scheme needs.
CvData read_cv_rows(const CvDataRequest& request, const ModelSpec& spec) {
    CvData out;
    SplitOptions& s = out.split;
    if (!request.group_column.empty()) {
        GroupedTrainingData grouped = read_grouped_training_data(request.data, request.group_column, spec);
        out.data = std::move(grouped.data);
        s.scheme = CvScheme::group_kfold;
        s.groups = group_ids(grouped.row_groups);
    } else {
        out.data = read_training_data(request.data, spec);
    }
    if (!request.validation_file.empty()) {
        const Index n1 = out.data.rows();
        append_validation_rows(out.data, request.validation_file, request.data);
        Fold f;
        for (Index i = 0; i < out.data.rows(); ++i) (i < n1 ? f.train : f.test).push_back(i);
        s.scheme = CvScheme::fixed;
        s.fixed = {std::move(f)};
    }
    return out;
}

// Each split holds every row's index once (train or test): the splits asked for are
// checked against the memory before any is made (100000 shuffle-splits of 10^6 rows would
// take 800 GB).
void check_split_memory(const SplitOptions& s, Index rows, std::uint64_t max_memory) {
    const std::uint64_t splits = s.scheme == CvScheme::shuffle_split ? static_cast<std::uint64_t>(s.shuffle_splits)
                                 : s.scheme == CvScheme::kfold && s.k <= rows
                                     ? static_cast<std::uint64_t>(std::max(s.k, 0)) *
                                           static_cast<std::uint64_t>(std::max(s.repeats, 1))
                                     : 0;
    if (splits > 0)
        check_memory(splits * static_cast<std::uint64_t>(rows) * sizeof(Index), max_memory,
                     std::to_string(splits) + " splits of " + std::to_string(rows) + " rows");
}

}  // namespace

void keep_queries_whole(const Dataset& d, SplitOptions& s) {
    // As scikit-learn's GroupKFold on the query ids: a ranking metric needs each query
    // whole in one fold.
    if (!d.has_queries() || s.scheme != CvScheme::kfold) return;
    std::vector<std::string> ids;
    ids.reserve(static_cast<std::size_t>(d.rows()));
    for (Index i = 0; i < d.rows(); ++i) ids.push_back(format_number(d.qid[i]));
    s.scheme = CvScheme::group_kfold;
    s.groups = group_ids(ids);
}

CvData read_cv_data(const CvDataRequest& request, const ModelSpec& spec) {
    const bool all_rows = request.k == 0;
    CvData out;
    try {
        out = read_cv_rows(request, spec);
    } catch (const MemoryLimitError& e) {
        refuse_rows_to_split(e);
    }
    SplitOptions& s = out.split;
    s.repeats = request.repeats;
    if (!all_rows) s.k = request.k;
    if (request.leave_one_out || (all_rows && s.scheme == CvScheme::kfold)) {
        if (request.repeats > 1)
            throw UsageError(option_named("repeats") + " cannot be combined with leave-one-out");
        s.scheme = CvScheme::leave_one_out;
    }
    if (request.shuffle_splits != 0) {
        s.scheme = CvScheme::shuffle_split;
        s.shuffle_splits = request.shuffle_splits;
        s.test_fraction = request.test_fraction;
    }
    const Dataset& d = out.data;
    if (!all_rows) keep_queries_whole(d, s);
    if (d.has_queries() && (s.scheme == CvScheme::leave_one_out || s.scheme == CvScheme::shuffle_split))
        throw UsageError((request.leave_one_out || all_rows ? ErrorText("leave-one-out") : option_named("shuffle_splits")) +
                         " would split the rows of a query (the data has query groups); use " + option_named("k") +
                         " or " + option_named("validation"));
    if (all_rows && s.scheme == CvScheme::group_kfold)
        throw UsageError(option_named("k") + " n with " + option_named("groups") +
                         ": give a number of folds (or leave-one-group-out as " + option_named("k") +
                         " with the group count)");
    check_split_memory(s, d.rows(), request.data.read.max_memory);
    return out;
}

}  // namespace kestrel
