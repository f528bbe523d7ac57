#include "common/cv_flags.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/tasks/training_cv_data.hpp"

namespace kestrel::cli {

namespace {

bool is_number(const std::string& s, double& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Group ids 0..g-1 in sorted order of the values (numeric when every value is a
// number), as numpy.unique numbers sklearn's groups.
std::vector<Index> group_ids(const std::vector<std::string>& values) {
    bool numeric = true;
    std::vector<double> num(values.size());
    for (std::size_t i = 0; i < values.size() && numeric; ++i) numeric = is_number(values[i], num[i]);
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return numeric ? num[a] < num[b] : values[a] < values[b];
    });
    std::vector<Index> id(values.size());
    Index next = -1;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const bool same = i > 0 && values[order[i]] == values[order[i - 1]];
        const bool same_num = i > 0 && numeric && num[order[i]] == num[order[i - 1]];
        if (!(same || same_num)) ++next;
        id[order[i]] = next;
    }
    return id;
}

}  // namespace

void SplitFlags::add_to(CLI::App& app, const std::string& what) {
    folds_opt_ = app.add_option("-k,--folds", folds, what + " (stratified for classification); n = one per row")
                     ->capture_default_str();
    repeat_opt_ = app.add_option("--repeat", repeats, "repetitions of the k-fold split, each reshuffled")
                      ->capture_default_str()
                      ->check(whole_number(1, kMaxRepeats));
    app.add_flag("--loo", loo, "leave-one-out: one fold per row (as -k n)");
    app.add_option("--shuffle-split", shuffle_splits,
                   "R random train/test splits (Monte Carlo CV; stratified for classification)")
        ->check(whole_number(1, kMaxShuffleSplits));
    fraction_opt_ = app.add_option("--test-fraction", test_fraction, "with --shuffle-split: the share of rows tested")
                        ->capture_default_str();
    app.add_option("--groups", groups,
                   "group k-fold: CSV column of group ids (taken out of the features); no group on both sides");
    app.add_option("--validation", validation, "score on this file, training on DATA_FILE (one fixed split)")->type_name("FILE");
}

void SplitFlags::check_combination() const {
    std::vector<std::string> schemes;
    if (loo) schemes.emplace_back("--loo");
    if (shuffle_splits != 0) schemes.emplace_back("--shuffle-split");
    if (!groups.empty()) schemes.emplace_back("--groups");
    if (!validation.empty()) schemes.emplace_back("--validation");
    if (schemes.size() > 1) throw UsageError(schemes[0] + " and " + schemes[1] + " cannot be combined");
    const bool k_given = folds_opt_ && folds_opt_->count() > 0;
    if (k_given && (loo || shuffle_splits != 0 || !validation.empty()))
        throw UsageError("-k cannot be combined with " + schemes[0]);
    if (repeat_opt_ && repeat_opt_->count() > 0 && !schemes.empty())
        throw UsageError("--repeat cannot be combined with " + schemes[0]);
    if (fraction_opt_ && fraction_opt_->count() > 0 && shuffle_splits == 0)
        throw UsageError("--test-fraction needs --shuffle-split R");
    if (shuffle_splits < 0)
        throw UsageError("--shuffle-split " + std::to_string(shuffle_splits) + ": needs at least 1 split");
    if (shuffle_splits != 0 && !(test_fraction > 0 && test_fraction < 1))
        throw UsageError("--test-fraction " + std::to_string(test_fraction) + ": must be strictly between 0 and 1");
}

SplitFlags::Data SplitFlags::read(const std::string& path, const ModelSpec& spec, const DataFlags& data,
                                  int threads) const {
    check_combination();
    SplitOptions s;
    s.repeats = repeats;
    const bool all_rows = folds == "n" || folds == "N";
    if (!all_rows) {
        int k = 0;
        const auto r = std::from_chars(folds.data(), folds.data() + folds.size(), k);
        if (folds.empty() || r.ec != std::errc() || r.ptr != folds.data() + folds.size() || k < 2)
            throw UsageError("-k " + shown_text(folds) +
                             ": expected a number of folds from 2 to 2147483647, or n for one per row");
        s.k = k;
    }
    require_labels_to_score(spec);
    Data out;
    TrainingDataOptions reading = data.training_options(path, threads);
    reading.spellings.validation_file = "--validation";
    if (!groups.empty()) {
        GroupedTrainingData grouped = read_grouped_training_data(reading, groups, spec);
        out.data = std::move(grouped.data);
        s.scheme = CvScheme::group_kfold;
        s.groups = group_ids(grouped.row_groups);
    } else {
        out.data = read_training_data(reading, spec);
    }
    if (!validation.empty()) {
        const Index n1 = out.data.rows();
        append_validation_rows(out.data, validation, reading);
        Fold f;
        for (Index i = 0; i < out.data.rows(); ++i) (i < n1 ? f.train : f.test).push_back(i);
        s.scheme = CvScheme::fixed;
        s.fixed = {std::move(f)};
    }
    if (loo || (all_rows && s.scheme == CvScheme::kfold)) {
        if (repeats > 1) throw UsageError("--repeat cannot be combined with leave-one-out");
        s.scheme = CvScheme::leave_one_out;
    }
    if (shuffle_splits != 0) {
        s.scheme = CvScheme::shuffle_split;
        s.shuffle_splits = shuffle_splits;
        s.test_fraction = test_fraction;
    }
    // Rows in query groups (learning to rank) are split by query, as scikit-learn's
    // GroupKFold on the query ids: a ranking metric needs each query whole in one fold.
    if (out.data.has_queries() && s.scheme == CvScheme::kfold && !all_rows) {
        std::vector<std::string> ids;
        ids.reserve(static_cast<std::size_t>(out.data.rows()));
        for (Index i = 0; i < out.data.rows(); ++i) ids.push_back(format_number(out.data.qid[i]));
        s.scheme = CvScheme::group_kfold;
        s.groups = group_ids(ids);
    }
    if (out.data.has_queries() && (s.scheme == CvScheme::leave_one_out || s.scheme == CvScheme::shuffle_split))
        throw UsageError(std::string(loo || all_rows ? "leave-one-out" : "--shuffle-split") +
                         " would split the rows of a query (the data has query groups); use -k or --validation");
    if (all_rows && s.scheme == CvScheme::group_kfold)
        throw UsageError("-k n with --groups: give a number of folds (or leave-one-group-out as -k with the group count)");
    // Each split holds every row's index once (train or test): the splits asked for are
    // checked against the memory before any is made (--shuffle-split 100000 on 10^6 rows
    // would take 800 GB).
    const std::uint64_t splits = s.scheme == CvScheme::shuffle_split ? static_cast<std::uint64_t>(s.shuffle_splits)
                                 : s.scheme == CvScheme::kfold && s.k <= out.data.rows()
                                                                     ? static_cast<std::uint64_t>(std::max(s.k, 0)) *
                                                                     static_cast<std::uint64_t>(std::max(s.repeats, 1))
                                                                   : 0;
    if (splits > 0)
        check_memory(splits * static_cast<std::uint64_t>(out.data.rows()) * sizeof(Index),
                     data.options(threads).max_memory,
                     std::to_string(splits) + " splits of " + std::to_string(out.data.rows()) + " rows");
    out.split = std::move(s);
    return out;
}

}  // namespace kestrel::cli
