#pragma once
// Writes predictions as CSV: a `prediction` column (class labels as their original
// strings, or values), then the requested score columns.
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel::cli {

struct PredictionColumns {
    Vector predicted;   // class index or value
    Matrix proba;       // optional, n x k
    Matrix decision;    // optional, n x 1 or n x k
};

std::string prediction_csv(const Model& model, const PredictionColumns& cols);
// RFC 4180 quoting when a field holds a comma, quote or newline.
std::string csv_field(const std::string& s);

}  // namespace kestrel::cli
