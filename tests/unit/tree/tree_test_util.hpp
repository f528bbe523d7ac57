#pragma once
// Shared by the tree tests: the reference data, and estimators built from their
// ModelInfo (as the registry would, without it).
#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "estimator_test_util.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::tree_test {

using test::load;
using test::make;

inline const Dataset& iris_train() {
    static const Dataset d = load("iris/train.csv", Task::classification);
    return d;
}
inline const Dataset& iris_test() {
    static const Dataset d = load("iris/test.csv", Task::classification);
    return d;
}
inline const Dataset& diabetes_train() {
    static const Dataset d = load("diabetes/train.csv", Task::regression);
    return d;
}
inline const Dataset& diabetes_test() {
    static const Dataset d = load("diabetes/test.csv", Task::regression);
    return d;
}

inline Dataset tiny(DenseMatrix X, Vector y, Task task, Index n_classes = 2) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = task;
    for (Index c = 0; c < (task == Task::classification ? n_classes : 0); ++c)
        d.classes.push_back("c" + std::to_string(c));
    return d;
}

inline double accuracy(const Vector& pred, const Vector& y) {
    double hits = 0;
    for (Index i = 0; i < y.size(); ++i) hits += pred[i] == y[i] ? 1 : 0;
    return hits / static_cast<double>(y.size());
}

inline double r2(const Vector& pred, const Vector& y) {
    const double mean = y.mean();
    return 1.0 - (y - pred).squaredNorm() / (y.array() - mean).square().sum();
}

// The numbers of a CSV with a header, from column `first` on (kestrel-predict's output).
inline Matrix csv_numbers(const std::string& path, Index first) {
    std::istringstream in(read_whole_file(path));
    std::string line;
    std::getline(in, line);  // the header
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::vector<double> row;
        std::istringstream fields(line);
        std::string field;
        for (Index c = 0; std::getline(fields, field, ','); ++c)
            if (c >= first) row.push_back(parse_number_text(field).value());
        rows.push_back(std::move(row));
    }
    Matrix out(static_cast<Index>(rows.size()), rows.empty() ? 0 : static_cast<Index>(rows[0].size()));
    for (Index i = 0; i < out.rows(); ++i)
        for (Index c = 0; c < out.cols(); ++c)
            out(i, c) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)];
    return out;
}

}  // namespace kestrel::tree_test
