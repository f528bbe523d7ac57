#pragma once
// The running sums of one feature's split scan, shared by the dense and the sparse
// column stores so that both score every boundary with the same numbers. A store walks
// the node's rows in the feature's sorted order, moves them from the right child to the
// left (one row at a time, or a sparse column's zeros as one block) and asks for a
// score at each boundary between two values.
//
// Proxies (split_criteria.hpp), maximised: gini Σ L_c²/W_L + Σ R_c²/W_R; entropy
// Σ L_c ln L_c + Σ R_c ln R_c − W_L ln W_L − W_R ln W_R; variance (Σ_L s y)²/W_L +
// (Σ_R s y)²/W_R. Gini's sums are updated per row (exact for integer weights);
// entropy's are summed from the counts at each candidate boundary, so that a block
// moved in one step gives the numbers of its rows moved one by one.
#include <cmath>
#include <limits>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/tree/split_criteria.hpp"
#include "tree_sample.hpp"

namespace kestrel {

// Values closer than this are not split apart (scikit-learn's FEATURE_THRESHOLD), so
// that a threshold halfway between them is a meaningful number.
inline constexpr double kFeatureThreshold = 1e-7;

struct NodeStats {
    Index n = 0;
    double w = 0, wy = 0, wyy = 0;
    std::vector<double> counts;  // classification: weight per class
    double impurity = 0;
};

struct Split {
    Index feature = -1;
    Index pos = 0;  // by_prefix(): where the right child starts in the node's rows, sorted by the feature
    double threshold = 0;
    double proxy = -std::numeric_limits<double>::infinity();
    double improvement = 0;
    // Missing values: saw_missing when the node had rows missing the feature, and then
    // missing_left is the direction learned for them (else the builder sends missing
    // values to the heavier child).
    bool saw_missing = false, missing_left = false;
    // A categorical split: per code 1 (left), 0 (right) or -1 (no row of the node);
    // empty for a numeric split.
    std::vector<signed char> category_side;
    bool valid() const { return feature >= 0; }
    // The left child is the first rows of the node in the feature's sorted order
    // (numeric, missing values right: they sort last).
    bool by_prefix() const { return category_side.empty() && !missing_left; }
    // Where a training row with value x goes.
    bool sends_left(double x) const {
        if (std::isnan(x)) return missing_left;
        if (!category_side.empty()) return category_side[static_cast<std::size_t>(x)] == 1;
        return x <= threshold;
    }
};

// What the scans of one node share. A store builds its scan from these itself, as a
// local object: its sums then stay in registers through the hot loop.
struct ScanInputs {
    const TreeSample& sample;
    const NodeStats& node;
    Index min_leaf;
    double cat_smooth;  // categorical features: the prior weight in a category's statistic
};

// What a scan shares whatever the criterion: the candidate and the limits on the sides.
class ScanSite {
public:
    ScanSite(const ScanInputs& in, Index feature, Index begin, Index end, Split& best)
        : feature_(feature), begin_(begin), n_(end - begin), min_leaf_(in.min_leaf), best_(best) {}
    // The node has rows missing the feature, and they were moved to the left side first
    // (left) or stay on the right: recorded with every split this scan finds.
    void with_missing(bool left) {
        saw_missing_ = true;
        missing_left_ = left;
    }

protected:
    enum class Boundary { skip, score, stop };
    // After nl rows on the left, between the values v and v_next: stop when the right
    // side can no longer keep min_leaf rows.
    Boundary boundary(Index nl, double v, double v_next) const {
        if (nl < min_leaf_) return Boundary::skip;
        if (n_ - nl < min_leaf_) return Boundary::stop;
        if (v_next <= v + kFeatureThreshold) return Boundary::skip;
        return Boundary::score;
    }
    void consider(double proxy, Index nl, double v, double v_next) {
        if (proxy > best_.proxy) {
            best_.proxy = proxy;
            best_.feature = feature_;
            best_.pos = begin_ + nl;
            best_.saw_missing = saw_missing_;
            best_.missing_left = missing_left_;
            best_.category_side.clear();
            double t = v / 2.0 + v_next / 2.0;
            if (!(t < v_next) || !std::isfinite(t)) t = v;  // midpoint rounded up to the right value
            best_.threshold = t;
        }
    }

private:
    Index feature_, begin_, n_, min_leaf_;
    bool saw_missing_ = false, missing_left_ = false;
    Split& best_;
};

// gini or entropy over class weights; the criterion is a template parameter so that
// the per-row update carries no test of it.
template <Criterion C>
class ClassScan : public ScanSite {
public:
    ClassScan(const ScanInputs& in, Index feature, Index begin, Index end, Split& best)
        : ScanSite(in, feature, begin, end, best),
          klass_(in.sample.klass.data()),
          weight_(in.sample.weight.data()),
          node_(in.node),
          left_(in.node.counts.size(), 0.0) {
        if (kGini)
            for (double c : node_.counts) a_right_ += c * c;
    }

    void add(int local) {
        const auto c = static_cast<std::size_t>(klass_[local]);
        move(c, weight_[local]);
        wl_ += weight_[local];
    }
    // The block starts as the whole node; rows named here are taken out of it.
    void open_block() {
        block_ = node_.counts;
        block_w_ = node_.w;
    }
    void take_from_block(int local) {
        block_[static_cast<std::size_t>(klass_[local])] -= weight_[local];
        block_w_ -= weight_[local];
    }
    void add_block() {
        for (std::size_t c = 0; c < block_.size(); ++c)
            if (block_[c] != 0) move(c, block_[c]);
        wl_ += block_w_;
    }
    // Rows given by their weight per class. With whole-number weights the sums are those
    // of the rows added one by one (every partial sum is exact).
    void add_classes(const double* by_class) {
        for (std::size_t c = 0; c < left_.size(); ++c)
            if (by_class[c] != 0) {
                move(c, by_class[c]);
                wl_ += by_class[c];
            }
    }
    // False: no later boundary can keep min_samples_leaf rows on the right.
    bool score(Index nl, double v, double v_next) {
        const Boundary b = boundary(nl, v, v_next);
        if (b != Boundary::score) return b != Boundary::stop;
        const double wr = node_.w - wl_;
        if (!(wr > 0) || !(wl_ > 0)) return true;
        if (!kGini) entropy_sums(node_.counts, left_, a_left_, a_right_);
        consider(kGini ? a_left_ / wl_ + a_right_ / wr : a_left_ + a_right_ - xlogx(wl_) - xlogx(wr), nl, v, v_next);
        return true;
    }

private:
    void move(std::size_t c, double w) {
        const double l_old = left_[c], r_old = node_.counts[c] - l_old;
        if (kGini) {
            a_left_ += w * (2 * l_old + w);
            a_right_ -= w * (2 * r_old - w);
        }
        left_[c] = l_old + w;
    }

    const int* klass_;
    const double* weight_;
    static constexpr bool kGini = C == Criterion::gini;
    const NodeStats& node_;
    std::vector<double> left_;
    double wl_ = 0, a_left_ = 0, a_right_ = 0;
    std::vector<double> block_;
    double block_w_ = 0;
};

// variance over weighted targets.
class VarianceScan : public ScanSite {
public:
    VarianceScan(const ScanInputs& in, Index feature, Index begin, Index end, Split& best)
        : ScanSite(in, feature, begin, end, best),
          target_(in.sample.target.data()),
          weight_(in.sample.weight.data()),
          node_(in.node) {}

    void add(int local) {
        wl_ += weight_[local];
        wyl_ += weight_[local] * target_[local];
    }
    void open_block() {
        block_w_ = node_.w;
        block_wy_ = node_.wy;
    }
    void take_from_block(int local) {
        block_w_ -= weight_[local];
        block_wy_ -= weight_[local] * target_[local];
    }
    void add_block() {
        wl_ += block_w_;
        wyl_ += block_wy_;
    }
    bool score(Index nl, double v, double v_next) {
        const Boundary b = boundary(nl, v, v_next);
        if (b != Boundary::score) return b != Boundary::stop;
        const double wr = node_.w - wl_, wyr = node_.wy - wyl_;
        if (!(wr > 0) || !(wl_ > 0)) return true;
        consider(wyl_ * wyl_ / wl_ + wyr * wyr / wr, nl, v, v_next);
        return true;
    }

private:
    const double* target_;
    const double* weight_;
    const NodeStats& node_;
    double wl_ = 0, wyl_ = 0;
    double block_w_ = 0, block_wy_ = 0;
};

}  // namespace kestrel
