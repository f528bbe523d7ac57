#pragma once
// Impurity criteria of CART (docs/models/tree.md). A node holding weighted class
// counts w_1..w_k (total W), or weighted targets (W = Σ s_i, Σ s_i y_i, Σ s_i y_i²):
//   gini      1 − Σ_c (w_c/W)²
//   entropy   −Σ_c (w_c/W) log₂(w_c/W)          (information gain as in ID3 / C4.5)
//   variance  Σ s_i y_i²/W − (Σ s_i y_i/W)²      (variance reduction; the MSE of the mean)
// The split search maximises a proxy that differs from −(W_L·I_L + W_R·I_R) only by a
// constant of the node, kept up to date in O(1) per sample moved from right to left.
#include <cmath>
#include <span>
#include <string>

namespace kestrel {

enum class Criterion { gini, entropy, variance };
const char* to_string(Criterion c);
Criterion criterion_from_string(const std::string& s);  // ParamError listing valid names
inline bool is_classification(Criterion c) {
    return c != Criterion::variance;
}

// Impurity of a node from its weighted class counts (gini / entropy).
double class_impurity(Criterion c, std::span<const double> class_weights);
// Impurity (variance) of a node from its weighted sums.
double variance_impurity(double w, double wy, double wyy);

// x log x with 0 log 0 = 0 (natural log), the building block of the entropy proxy.
inline double xlogx(double x) {
    return x > 0 ? x * std::log(x) : 0.0;
}

// The entropy proxy's sums at a boundary: Σ_c L_c ln L_c and Σ_c R_c ln R_c with
// R_c = node_c − L_c, summed in class order (shared by the dense and sparse builders,
// so that both give the same numbers).
inline void entropy_sums(std::span<const double> node, std::span<const double> left, double& a_left,
                         double& a_right) {
    a_left = 0;
    a_right = 0;
    for (std::size_t c = 0; c < node.size(); ++c) {
        a_left += xlogx(left[c]);
        a_right += xlogx(node[c] - left[c]);
    }
}

}  // namespace kestrel
