#pragma once
// The readers on a TextInput, so that read_table can hand them a memory-mapped file
// whose pages are released once parsed; read_csv / read_libsvm wrap a plain buffer.
#include <string>

#include "chunked_text.hpp"
#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

Table read_csv_input(const TextInput& in, const std::string& source, const ReadOptions& opts);
Table read_libsvm_input(const TextInput& in, const std::string& source, const ReadOptions& opts);
// Turns the LIBSVM features named by opts.categorical_columns (training) or holding
// categories in opts.feature_categories (predict time) into category codes, and fills
// t.categories (libsvm_categories.cpp).
void code_libsvm_categories(Table& t, const ReadOptions& opts);

// Throws DataError when the start of an input is compressed, UTF-16 or binary (a NUL
// byte), naming what it is (data_reader.cpp).
void refuse_binary_text(std::string_view head, const std::string& source);

// Bytes of a UTF-8 byte order mark at the start of text (0 or 3).
inline std::size_t bom_length(std::string_view text) {
    return text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

// Moves the kept rows of each chunk down so the rows are contiguous again after
// MissingPolicy::drop; returns the number of rows kept. `move_rows(dst, chunk)`
// moves the chunk's kept rows to row dst; calls come in file order, dst < first_row.
template <class MoveRows>
Index compact_chunks(const std::vector<Chunk>& chunks, MoveRows move_rows) {
    Index dst = 0;
    for (const auto& c : chunks) {
        if (c.kept > 0 && dst != c.first_row) move_rows(dst, c);
        dst += c.kept;
    }
    return dst;
}

// Moves label rows [src, src + n) to dst (dst < src), as the features were moved.
void move_label_rows(RawLabels& labels, Index dst, Index src, Index n);

// Allocates a label column of n rows named after `source`.
RawLabels make_labels(Index n, const std::string& source);
// Shrinks a label column to its first n rows.
void truncate_labels(RawLabels& labels, Index n);

}  // namespace kestrel::detail
