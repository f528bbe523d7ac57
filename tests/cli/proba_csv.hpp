#pragma once
// The proba_* columns of kestrel-predict --proba's CSV, row by row, for the CLI tests that
// compare a saved model's probabilities with what they should be.
#include <sstream>
#include <string>
#include <vector>

namespace kestrel::test {

inline std::vector<std::vector<double>> proba_columns(const std::string& csv) {
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    std::vector<bool> keep;
    {
        std::istringstream h(line);
        std::string name;
        while (std::getline(h, name, ',')) keep.push_back(name.rfind("proba_", 0) == 0);
    }
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string cell;
        std::vector<double> row;
        for (std::size_t c = 0; std::getline(f, cell, ','); ++c)
            if (c < keep.size() && keep[c]) row.push_back(std::stod(cell));
        rows.push_back(row);
    }
    return rows;
}

}  // namespace kestrel::test
