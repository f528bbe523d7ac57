#pragma once
// Sums over training rows that are spread over the ranks of an MPI run (`kestrel-train
// --shard`, Context::rows_sharded; docs/distributed.md). A model that fits on shards takes
// each sum over rows on its own rows, then calls sum_over_ranks on the result: every rank
// then holds the whole data's sum, with the same bits, and takes the same next step. On a
// plain run (rows not sharded) these do nothing, so the model's code is the same for both.
#include <Eigen/Core>
#include <span>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"

namespace kestrel {

inline void sum_over_ranks(bool rows_sharded, std::span<double> values) {
    if (!rows_sharded) return;
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("rows spread over ranks, but this run has no process group");
    allreduce_sum(*group, values);
}
inline void sum_over_ranks(const Context& ctx, std::span<double> values) { sum_over_ranks(ctx.rows_sharded, values); }

// Element-wise maxima over the ranks (allreduce_max): a rank without rows passes −inf.
inline void max_over_ranks(bool rows_sharded, std::span<double> values) {
    if (!rows_sharded) return;
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("rows spread over ranks, but this run has no process group");
    allreduce_max(*group, values);
}

// A dense Eigen vector or matrix, summed element by element.
template <class Derived>
void sum_over_ranks(const Context& ctx, Eigen::PlainObjectBase<Derived>& values) {
    sum_over_ranks(ctx, std::span<double>(values.data(), static_cast<std::size_t>(values.size())));
}

// Where this rank's rows sit in the whole data: the ranks hold consecutive parts of it
// in rank order (kestrel-train --shard cuts the file so), so the rows of the ranks before
// this one come first. Rows not sharded: {0, local_rows}.
struct RowSpan {
    Index first = 0;  // global index of this rank's first row
    Index total = 0;  // rows of every rank together
};
inline RowSpan rows_over_ranks(bool rows_sharded, Index local_rows) {
    if (!rows_sharded) return {0, local_rows};
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("rows spread over ranks, but this run has no process group");
    std::vector<double> counts(static_cast<std::size_t>(group->size()), 0.0);
    counts[static_cast<std::size_t>(group->rank())] = static_cast<double>(local_rows);
    allreduce_sum(*group, counts);
    RowSpan s;
    for (int r = 0; r < group->size(); ++r) {
        const auto c = static_cast<Index>(counts[static_cast<std::size_t>(r)]);
        if (r < group->rank()) s.first += c;
        s.total += c;
    }
    return s;
}

}  // namespace kestrel
