#pragma once
// Training data read in shards (kestrel-train --shard / --shards, docs/distributed.md): each
// rank of a process group reads its own byte range of the training file
// (kestrel/io/file_shard.hpp), or its own files among a glob's matches, and the ranks agree
// on what the data is as a whole: the task, the class list, the feature count, the
// categories of text columns. No rank holds another's rows; what crosses the network is line
// counts, label summaries, widths and category words. Without a process group the one
// process reads it all.
#include <string>

#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

struct ShardedTrainingData {
    Dataset data;          // this rank's rows, in the whole data's task, classes, width and categories
    Index total_rows = 0;  // rows on every rank together
    std::string label_name;
};

// options.path (this rank's byte range of one file) or, when `pattern` is not empty, this
// rank's files among the sorted matches of the glob `pattern`. UsageError for what shards
// do not take (standard input, a group column, qid: rows); DataError "file:line:column: ..."
// from the rank whose part holds the bad cell, with the whole file's line numbers.
ShardedTrainingData read_training_shard(const TrainingDataOptions& options, const std::string& pattern,
                                        const ModelSpec& spec);

}  // namespace kestrel
