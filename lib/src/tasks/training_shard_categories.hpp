#pragma once
// Text (categorical) feature columns under kestrel-train --shard (docs/distributed.md,
// "Categories on shards"): each rank types and codes its own part, as the reader codes
// one chunk of a file; the ranks then agree on the whole data's columns, as the reader
// merges its chunks' dictionaries (io/csv_categories.cpp).
#include <functional>

#include "kestrel/core/process_group.hpp"
#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

// Makes t's category columns those of the whole data, on every rank alike (a collective
// step). A column is categorical when any rank's part typed it so; a rank that read it as
// numbers reads its part again through `read_again` with those columns forced categorical
// (ReadOptions::categorical_features), so that its number-like cells become category
// strings named by their text, as in one process. Each column's list is then the sorted
// union of the ranks' lists and every rank recodes its cells to it. t.X must be `width`
// columns wide; DataError when a list exceeds max_categories (named as the read option,
// "max_categories", as the reader names it).
// Sends one flag per column (allreduce_max) and each rank's category words.
void agree_on_categories(ProcessGroup* group, Table& t, Index width, Index max_categories,
                         const std::function<Table(const std::vector<Index>& categorical)>& read_again);

// The same agreement among the files one rank reads (--shards): no message; part i is read
// again through read_again(i, columns) when a column another file makes categorical holds
// numbers in it. Every part is then coded to the same lists, ready to be stacked.
void unite_categories(std::vector<Table>& parts,
                      const std::function<Table(std::size_t part, const std::vector<Index>& categorical)>& read_again);

// Zero columns appended up to `width` (a LIBSVM part is as wide as its largest index).
void widen_table(Table& t, Index width);

}  // namespace kestrel::detail
