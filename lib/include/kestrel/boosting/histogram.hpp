#pragma once
// The histogram cells of `gbdt` (docs/models/gbdt.md, "Binning"); the cut points and the
// binned matrix are common/bin_cuts.hpp.
#include <cstdint>
#include <span>
#include <vector>

#include "kestrel/common/bin_cuts.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

// One histogram cell: the sums of the gradients and Hessians of the rows in a bin.
struct BinStat {
    double g = 0, h = 0;
};

}  // namespace kestrel
