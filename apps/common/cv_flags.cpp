#include "common/cv_flags.hpp"

#include <charconv>

#include "kestrel/core/error.hpp"
#include "kestrel/core/shown_text.hpp"

namespace kestrel::cli {

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
                                  const Context& ctx) const {
    check_combination();
    CvDataRequest request;
    request.k = 0;  // -k n: one fold per row
    if (folds != "n" && folds != "N") {
        const auto r = std::from_chars(folds.data(), folds.data() + folds.size(), request.k);
        if (folds.empty() || r.ec != std::errc() || r.ptr != folds.data() + folds.size() || request.k < 2)
            throw UsageError("-k " + shown_text(folds) +
                             ": expected a number of folds from 2 to 2147483647, or n for one per row");
    }
    require_labels_to_score(spec);
    request.data = data.training_options(path, ctx);
    request.data.validation_option = "validation";
    request.repeats = repeats;
    request.leave_one_out = loo;
    request.shuffle_splits = shuffle_splits;
    request.test_fraction = test_fraction;
    request.group_column = groups;
    request.validation_file = validation;
    return read_cv_data(request, spec);
}

}  // namespace kestrel::cli
