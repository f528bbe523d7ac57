#pragma once
// Grid syntax for kestrel-gridsearch -g:
//   name=v1,v2,v3           a list (numbers or words)
//   name=a:b:step           a linear range from a to b inclusive ("0.1:1:0.1")
//   name=B^a:B^b:s          a geometric range B^a, B^(a+s), ... B^b ("2^-5:2^15:2",
//                           as LIBSVM grid.py's -log2c -5,15,2)
//   name=choice(v1,v2,...)  the same as a list
// and, for random search (--n-iter) only, distributions:
//   name=uniform(a,b)       uniform on [a, b)
//   name=loguniform(a,b)    log-uniform on [a, b), 0 < a < b (scipy's loguniform)
//   name=randint(a,b)       an integer in a..b-1 (scipy's randint: b excluded)
// Values are kept as text and typed by the model's ParamSpec. Commas and colons inside
// (), [] or {} do not separate values, so "(1,0,-1),(0,0,1)" and "[[0,1],[2,3]]" are
// values as written; a value in braces is taken without them, for values that hold the
// separators themselves: "{price:-1,age:1},{price:-1}" is the two values price:-1,age:1
// and price:-1.
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/core/params.hpp"

namespace kestrel {

enum class AxisKind { list, uniform, loguniform, randint };

struct GridAxis {
    std::string name;
    std::vector<std::string> values;  // list axes
    AxisKind kind = AxisKind::list;
    double low = 0, high = 0;         // distributions
};

using GridPoint = std::vector<std::pair<std::string, std::string>>;

GridAxis parse_grid_axis(const std::string& text);  // UsageError naming the flag text
// Cartesian product, last axis fastest; each point is {name: text value}. UsageError
// for a distribution axis (those are only sampled).
std::vector<GridPoint> expand_grid(const std::vector<GridAxis>& axes);
// Random search: n_iter points drawn with the seed. When every axis is a list, distinct
// points of the grid (all of it, in grid order, if n_iter covers it), as sklearn's
// ParameterSampler; otherwise each axis drawn independently. UsageError naming --n-iter.
std::vector<GridPoint> sample_points(const std::vector<GridAxis>& axes, int n_iter, std::uint64_t seed);

}  // namespace kestrel
