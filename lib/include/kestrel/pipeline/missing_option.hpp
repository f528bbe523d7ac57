#pragma once
// The one "missing" option of a front end (kestrel's --missing, a Python estimator's
// missing=) holds two policies: what the reader does with a missing cell, and what the
// model does with the cells the reader keeps. This splits it.
#include <string>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

struct MissingOption {
    MissingPolicy read = MissingPolicy::keep;  // ReadOptions::missing
    std::string model = "auto";                // ModelSpec::missing
};

// "auto" and "keep" keep the cells for the model ("auto": its own handling, else median);
// "error" and "drop" act while reading and leave the model nothing missing; "mean",
// "median", "most_frequent" and "constant:VALUE" impute (ModelSpec "constant=VALUE").
// UsageError naming the option "missing" for anything else or a bad constant.
MissingOption split_missing_option(const std::string& missing);

}  // namespace kestrel
