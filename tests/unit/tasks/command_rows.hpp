#pragma once
// What a command reads for a model from a training file with its default flags, for the
// tests that compare a library task with the command run in process on the same rows.
#include <string>

#include "kestrel/tasks/training_data.hpp"

namespace kestrel::test {

struct CommandRows {
    ModelSpec spec;  // the model with its default parameters, resolved
    Dataset data;    // the rows as the command reads them for it (--missing auto: NA cells kept)
};

inline CommandRows command_rows(const std::string& file, const std::string& model) {
    CommandRows out;
    out.spec.model = model;
    resolve_params(out.spec);
    TrainingDataOptions reading;
    reading.path = file;
    reading.read.missing = MissingPolicy::keep;
    out.data = read_training_data(reading, out.spec);
    return out;
}

}  // namespace kestrel::test
