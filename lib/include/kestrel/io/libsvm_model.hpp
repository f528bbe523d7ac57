#pragma once
// Reading the model files LIBSVM's svm-train writes, so users can predict with the
// models they already have. The file becomes a kestrel model envelope (the JSON that
// Model::from_json reads) for svc, nu_svc, one_class, svr or nu_svr, with:
//  - classes = LIBSVM's labels as text, in kestrel's (numeric) order; LIBSVM orders
//    them by first appearance, so support vectors, coefficient rows, rho, probA and
//    probB are permuted and pairs whose order flips are negated;
//  - n_features = the largest feature index among the support vectors (LIBSVM files
//    carry no feature count; data with higher indices is rejected at prediction);
//  - the support vectors' training rows unknown (recorded as -1);
//  - probA/probB kept (probability=1): the classifiers' sigmoids, epsilon/nu-SVR's
//    Laplace scale (state prob_a[0]).
#include <string>
#include <string_view>

#include "kestrel/core/params.hpp"

namespace kestrel {

// True when the first non-blank token of the text is `svm_type` (the first line
// svm-train writes); kestrel's own model files start with '{'.
bool looks_like_libsvm_model(std::string_view text);

// Parses a LIBSVM model file into a kestrel model envelope. Throws ModelFileError
// ("source:line: what") on a malformed file.
Json libsvm_model_to_json(std::string_view text, const std::string& source);

}  // namespace kestrel
