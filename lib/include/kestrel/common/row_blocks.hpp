#pragma once
// Rows read a block at a time (docs/large-data.md, "Linear models from a stream"): a fit
// whose loss is a sum over rows (the logistic and squared-hinge objectives, ridge's normal
// equations) sums it block by block, as its fit on MPI shards sums it rank by rank, and
// never holds the table. The labels, weights, names and classes stay in the Dataset given
// to the fit, whose X is the table's shape (shape_only: rows x cols, no entries, O(rows));
// the blocks give only the features of their rows, in order.
//
// As the quantized store, the blocks reach a fit beside its Dataset, not in it: while a
// StreamedRows is alive on a thread, a model that sums over parts of its rows
// (Capabilities::sharded_rows) and fits there on a Dataset whose X is the blocks' shape
// reads the blocks instead; any other Dataset is fit as before.
#include <functional>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class RowBlocks {
public:
    virtual ~RowBlocks() = default;
    // The visit of each block in row order: its features (every column of the table; the
    // block is gone after the call) and the number of its first row in the table. A pass
    // reads the whole table again: a fit counts its passes as its cost.
    using Visit = std::function<void(const Features& block, Index first_row)>;
    virtual void for_each(const Visit& visit) const = 0;
    virtual Index rows() const = 0;
    virtual Index cols() const = 0;
    // The mean of each column over all rows (gathered by the pass that counted them), for
    // what a fit would have computed from the whole X.
    virtual const Vector& column_means() const = 0;
    // The passes over the rows so far (for_each calls): a streamed fit's cost.
    virtual int passes() const = 0;
};

class StreamedRows {
public:
    explicit StreamedRows(const RowBlocks& blocks);
    ~StreamedRows();
    StreamedRows(const StreamedRows&) = delete;
    StreamedRows& operator=(const StreamedRows&) = delete;

private:
    const RowBlocks* outer_;
};

// The blocks of `data` on this thread (a StreamedRows is alive and X is their shape), or
// null; InternalError for an X without entries of another shape while they are alive (the
// shape subset: a fold, one-vs-one's pairs, rows the blocks do not give).
const RowBlocks* streamed_rows_of(const Dataset& data);

}  // namespace kestrel
