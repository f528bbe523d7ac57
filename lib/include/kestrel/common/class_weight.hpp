#pragma once
// Per-class weights (the `class_weight` parameter of the linear classifiers), as
// LIBLINEAR's -wi and scikit-learn's class_weight: a class's weight multiplies the
// loss of its samples (equivalently, C for that class).
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

// Parses `text` against the class labels of the data:
//   ""                        every class weight 1
//   "balanced"                n / (k · n_c), n_c the number of rows of class c (rows, not
//                             sample weights, as scikit-learn's compute_class_weight);
//                             a class without rows gets 1 (it has no loss to weigh)
//   "label:w,label:w,..."     the listed classes, the others 1; w finite and >= 0
// Labels are the original class strings (data.classes). Throws ParamError naming
// `param` for bad syntax, an unknown label (listing the classes) or a repeated one.
Vector parse_class_weights(const std::string& text, const std::vector<std::string>& classes, const Vector& y,
                           const std::string& param = "class_weight");

// The weight of each sample's loss: class_weight[y_i] · s_i (s_i = 1 without sample weights).
Vector sample_costs(const Dataset& data, const Vector& class_weights);

// C · class_weight[y_i] · s_i from a `class_weight` parameter's text: each row's loss
// weight (LIBLINEAR's per-instance C) in the classifiers that take C.
Vector row_costs(const Dataset& data, const std::string& class_weight, double C);

// Binary labels as ±1: +1 for classes[1], the positive class (scikit-learn's classes_[1]).
Vector plus_minus(const Dataset& data);

// Row weights class_weight[y_i] · s_i from a `class_weight` parameter's text (the
// models that weigh rows rather than a per-class C: trees, forests, boosting). For
// regression a non-empty class_weight is a ParamError naming `model`. (The parameter is
// declared once, kestrel/core/param_binding.hpp's class_weight_param.)
Vector class_weighted_rows(const Dataset& data, const std::string& class_weight, const std::string& model);

}  // namespace kestrel
