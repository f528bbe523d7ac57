// The label column of a reader's output, preallocated per row and compacted with
// the feature rows after MissingPolicy::drop.
#include <algorithm>

#include "readers.hpp"

namespace kestrel::detail {

RawLabels make_labels(Index n, const std::string& source) {
    RawLabels labels;
    const auto rows = static_cast<std::size_t>(n);
    labels.text.resize(rows);
    labels.numeric.resize(rows);
    labels.line.resize(rows);
    labels.source = source;
    return labels;
}

void move_label_rows(RawLabels& labels, Index dst, Index src, Index n) {
    const auto d = static_cast<std::size_t>(dst);
    const auto s = static_cast<std::size_t>(src);
    const auto k = static_cast<std::size_t>(n);
    std::move(labels.text.begin() + s, labels.text.begin() + s + k, labels.text.begin() + d);
    std::copy(labels.numeric.begin() + s, labels.numeric.begin() + s + k, labels.numeric.begin() + d);
    std::copy(labels.line.begin() + s, labels.line.begin() + s + k, labels.line.begin() + d);
    if (!labels.qid.empty()) std::copy(labels.qid.begin() + s, labels.qid.begin() + s + k, labels.qid.begin() + d);
}

void truncate_labels(RawLabels& labels, Index n) {
    const auto rows = static_cast<std::size_t>(n);
    labels.text.resize(rows);
    labels.numeric.resize(rows);
    labels.line.resize(rows);
    if (!labels.qid.empty()) labels.qid.resize(rows);
}

}  // namespace kestrel::detail
