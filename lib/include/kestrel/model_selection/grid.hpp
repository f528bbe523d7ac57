#pragma once
// Grid syntax for kestrel-gridsearch -g:
//   name=v1,v2,v3           a list (numbers or words)
//   name=a:b:step           a linear range from a to b inclusive ("0.1:1:0.1")
//   name=B^a:B^b:s          a geometric range B^a, B^(a+s), ... B^b ("2^-5:2^15:2",
//                           as LIBSVM grid.py's -log2c -5,15,2)
// Values are kept as text and typed by the model's ParamSpec.
#include <string>
#include <vector>

#include "kestrel/core/params.hpp"

namespace kestrel {

struct GridAxis {
    std::string name;
    std::vector<std::string> values;
};

GridAxis parse_grid_axis(const std::string& text);  // UsageError naming the flag text
// Cartesian product, last axis fastest; each point is {name: text value}.
std::vector<std::vector<std::pair<std::string, std::string>>> expand_grid(const std::vector<GridAxis>& axes);

}  // namespace kestrel
