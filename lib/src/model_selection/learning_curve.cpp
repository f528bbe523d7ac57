#include "kestrel/model_selection/learning_curve.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "fit_jobs.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/core/text_pieces.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel {

namespace {

constexpr std::uint64_t kCurveStream = 0x1c0e'0000'0000ULL;

[[noreturn]] void fail_curve_text(const std::string& text, const std::string& why) {
    throw UsageError(option_named("fractions") + " " + text + ": " + why);
}

double number(const std::string& text, const std::string& s) {
    std::string t = s;
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v))
        fail_curve_text(text, "'" + t + "' is not a number");
    return v;
}

}  // namespace

std::vector<double> parse_fractions(const std::string& text) {
    std::vector<double> out;
    const auto colon = split_text(text, ':');
    if (colon.size() == 3) {
        const double a = number(text, colon[0]), b = number(text, colon[1]);
        const double count = number(text, colon[2]);
        if (count < 1 || count != std::floor(count) || count > 1000)
            fail_curve_text(text, "the count '" + colon[2] + "' must be a whole number from 1 to 1000 (start:stop:count)");
        const auto n = static_cast<int>(count);
        if (n == 1 && a != b) fail_curve_text(text, "one size needs start == stop");
        // numpy's linspace: the stop itself as the last value, not a + (b - a) * 1 rounded.
        for (int i = 0; i < n; ++i) out.push_back(i == n - 1 ? b : a + (b - a) * i / (n - 1));
    } else if (colon.size() == 1) {
        for (const auto& part : split_text(text, ',')) out.push_back(number(text, part));
    } else {
        fail_curve_text(text, "expected start:stop:count (as 0.1:1.0:10) or a list (as 0.1,0.5,1)");
    }
    for (double f : out)
        if (!(f > 0 && f <= 1)) fail_curve_text(text, "every fraction must be in (0, 1]");
    for (std::size_t i = 1; i < out.size(); ++i)
        if (!(out[i] > out[i - 1])) fail_curve_text(text, "fractions must increase");
    return out;
}

LearningCurve learning_curve(const ModelSpec& spec, const Dataset& data, const LearningCurveOptions& opts,
                             const Context& ctx) {
    if (opts.fractions.empty()) throw UsageError(option_named("fractions") + ": no fractions given");
    LearningCurve curve;
    curve.metric = opts.metric.empty() ? default_metric(data.task) : opts.metric;
    curve.greater_is_better = metric_info(curve.metric).greater_is_better;
    check_metrics(spec, data.task, {curve.metric});
    const std::vector<Fold> folds = make_splits(data, opts.split, ctx.seed);

    std::size_t smallest = folds.front().train.size();
    for (const auto& f : folds) smallest = std::min(smallest, f.train.size());
    std::vector<std::pair<double, Index>> sizes;  // fraction, rows
    for (double f : opts.fractions) {
        const Index rows = std::clamp<Index>(static_cast<Index>(f * static_cast<double>(smallest)), 1,
                                             static_cast<Index>(smallest));
        if (sizes.empty() || sizes.back().second != rows) sizes.emplace_back(f, rows);
    }

    std::vector<std::vector<Index>> shuffled(folds.size());
    for (std::size_t f = 0; f < folds.size(); ++f) {
        shuffled[f] = folds[f].train;
        Rng rng(derive_seed(ctx.seed, kCurveStream + f));
        rng.shuffle(shuffled[f]);
    }
    // One fold per (size, fold): a prefix of the shuffled training rows, sorted.
    std::vector<Fold> parts;
    parts.reserve(sizes.size() * folds.size());
    for (const auto& [fraction, rows] : sizes) {
        for (std::size_t f = 0; f < folds.size(); ++f) {
            Fold part = folds[f];
            part.train.assign(shuffled[f].begin(), shuffled[f].begin() + rows);
            std::sort(part.train.begin(), part.train.end());
            parts.push_back(std::move(part));
        }
    }
    std::vector<detail::FitJob> jobs(parts.size());
    for (std::size_t j = 0; j < parts.size(); ++j) {
        const std::size_t f = j % folds.size();
        auto& job = jobs[j];
        job.data = &data;
        job.fold = &parts[j];
        job.spec = &spec;
        job.seed = ctx.seed;
        job.stream = f;  // each fold's fits share its seed, so sizes differ only in the rows
        job.label = std::to_string(parts[j].train.size()) + " rows, fold " + std::to_string(f + 1) + "/" +
                    std::to_string(folds.size());
        job.score_train = true;
    }
    const auto outcomes = detail::run_fit_jobs(jobs, {curve.metric}, ctx, "learning curve");

    for (std::size_t s = 0; s < sizes.size(); ++s) {
        LearningCurvePoint p;
        p.fraction = sizes[s].first;
        p.train_size = sizes[s].second;
        double seconds = 0;
        for (std::size_t f = 0; f < folds.size(); ++f) {
            const auto& o = outcomes[s * folds.size() + f];
            p.train_scores.push_back(o.train_scores.at(0));
            p.validation_scores.push_back(o.scores.at(0));
            seconds += o.seconds;
        }
        p.train = summarize(p.train_scores);
        p.validation = summarize(p.validation_scores);
        p.fit_seconds = seconds / static_cast<double>(folds.size());
        curve.points.push_back(std::move(p));
    }
    return curve;
}

}  // namespace kestrel
