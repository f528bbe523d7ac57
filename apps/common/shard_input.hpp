#pragma once
// kestrel-train --shard / --shards: each rank of an MPI run reads its own byte range of the
// training file (kestrel/io/file_shard.hpp), or its own files and the ranks agree on what the data is as a whole
// (docs/distributed.md): the task, the class list, the feature count, the categories of
// text columns. No rank holds another's rows; what crosses the network is line counts,
// label summaries, widths and category words.
#include "common/cli.hpp"

namespace kestrel::cli {

struct ShardedData {
    Dataset data;          // this rank's rows, in the whole data's task, classes, width and categories
    Index total_rows = 0;  // rows on every rank together
    std::string label_name;
};

// `path` (--shard: this rank's byte range of one file) or, when `pattern` is not empty,
// this rank's files among the sorted matches of the glob `pattern` (--shards). UsageError
// for what shards do not take (standard input, --group-col, qid: rows); DataError "file:line:column: ..." from the rank whose part holds the bad
// cell, with the whole file's line numbers.
ShardedData read_training_shard(const std::string& path, const std::string& pattern, const ModelSpec& spec,
                                const DataFlags& data, int threads);

}  // namespace kestrel::cli
