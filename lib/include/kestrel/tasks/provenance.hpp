#pragma once
// What a saved model records of how it was fitted, written in one place by every task
// that fits a model to save (train, the refits of cv, gridsearch, select and auto), so
// that their model files carry the same fields.
#include <cstdint>
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

struct ProvenanceRecord {
    std::string data_file;   // as the user named it; "-" is recorded as "<stdin>"
    Index rows = -1;         // rows of the whole table (every rank's); -1 keeps the model's count
    std::uint64_t seed = 0;  // Context::seed of the fit
    std::string init_model;  // the model file the fit continued, if any
};

// Stamps the model's provenance: date, data_file, rows, seed and init_model.
void stamp_provenance(Model& model, const ProvenanceRecord& record);

// The fit's date in ISO 8601 UTC, or SOURCE_DATE_EPOCH's when set (the reproducible-builds
// convention), so that the same data, parameters and seed give a byte-identical file.
std::string provenance_date();

}  // namespace kestrel
