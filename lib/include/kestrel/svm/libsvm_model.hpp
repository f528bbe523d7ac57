#pragma once
// Reading the model files LIBSVM's svm-train writes, so users can predict with the
// models they already have. The file becomes an SvmModel of svc, nu_svc, one_class,
// svr or nu_svr (the pipeline wraps it in a model envelope), with:
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
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/svm/svm_model.hpp"

namespace kestrel {

// True when the first non-blank token of the text is `svm_type` (the first line
// svm-train writes); kestrel's own model files start with '{'.
bool looks_like_libsvm_model(std::string_view text);

struct LibsvmModelFile {
    std::string model;  // kestrel's name of the svm_type
    Task task = Task::classification;
    std::vector<std::string> classes;  // classification: LIBSVM's labels, numeric order
    Index n_features = 0;
    bool probability = false;
    Params params;  // the hyperparameters the file implies (kernel, probability)
    SvmModel svm;   // the learned state
};

// Parses a LIBSVM model file. Throws ModelFileError ("source:line: what") on a
// malformed file.
LibsvmModelFile read_libsvm_model(std::string_view text, const std::string& source);

}  // namespace kestrel
