#include "kestrel/model_selection/cv_scheme.hpp"

#include <cstdio>
#include <set>

#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {

std::string fraction_text(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", f);
    return buf;
}

void check_fixed(const std::vector<Fold>& folds, Index n) {
    if (folds.empty()) throw UsageError(option_named("validation") + ": no train/validation split given");
    for (const auto& f : folds) {
        if (f.train.empty() || f.test.empty())
            throw UsageError(option_named("validation") + ": an empty training or validation side");
        std::set<Index> seen(f.train.begin(), f.train.end());
        for (Index r : f.test)
            if (seen.count(r)) throw InternalError("fixed split: row " + std::to_string(r) + " on both sides");
        for (Index r : f.train)
            if (r < 0 || r >= n) throw InternalError("fixed split: row out of range");
        for (Index r : f.test)
            if (r < 0 || r >= n) throw InternalError("fixed split: row out of range");
    }
}

}  // namespace

std::vector<Fold> make_splits(const Dataset& data, const SplitOptions& opts, std::uint64_t seed) {
    const Index n = data.rows();
    const bool classify = data.task == Task::classification;
    switch (opts.scheme) {
        case CvScheme::kfold: {
            // -k n with one repetition is leave-one-out, in row order.
            if (opts.k == n && opts.repeats == 1) return leave_one_out(n);
            return repeated_kfold(data.y, classify ? data.n_classes() : 0, opts.k, opts.repeats, seed);
        }
        case CvScheme::leave_one_out: return leave_one_out(n);
        case CvScheme::shuffle_split:
            return classify ? stratified_shuffle_split(data.y, data.n_classes(), opts.shuffle_splits, opts.test_fraction, seed)
                            : shuffle_split(n, opts.shuffle_splits, opts.test_fraction, seed);
        case CvScheme::group_kfold:
            if (static_cast<Index>(opts.groups.size()) != n)
                throw InternalError("group k-fold: " + std::to_string(opts.groups.size()) + " group ids for " +
                                    std::to_string(n) + " rows");
            return group_kfold(opts.groups, opts.k);
        case CvScheme::fixed: check_fixed(opts.fixed, n); return opts.fixed;
    }
    throw InternalError("make_splits: unknown scheme");
}

std::string describe(const SplitOptions& opts) {
    switch (opts.scheme) {
        case CvScheme::kfold:
            return std::to_string(opts.k) + "-fold" +
                   (opts.repeats > 1 ? " x " + std::to_string(opts.repeats) + " repeats" : std::string());
        case CvScheme::leave_one_out: return "leave-one-out";
        case CvScheme::shuffle_split:
            return std::to_string(opts.shuffle_splits) + " shuffle-split" + (opts.shuffle_splits == 1 ? "" : "s") +
                   " (test fraction " + fraction_text(opts.test_fraction) + ")";
        case CvScheme::group_kfold: return "group " + std::to_string(opts.k) + "-fold";
        case CvScheme::fixed: return "train/validation";
    }
    return "?";
}

bool tests_partition_rows(CvScheme scheme) {
    return scheme == CvScheme::kfold || scheme == CvScheme::leave_one_out || scheme == CvScheme::group_kfold;
}

}  // namespace kestrel
