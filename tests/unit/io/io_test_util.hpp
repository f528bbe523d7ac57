#pragma once
// Helpers shared by the io tests: read an inline fixture, catch the error message.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/flag_spelling.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::io_test {

inline Table read(std::string_view text, const ReadOptions& opts = {}, const std::string& source = "t.csv") {
    return read_table_from_buffer(text, source, opts);
}

// The DataError message reading `text` gives as a command prints it (each option it names
// spelled as the command's flag: the wording these tests were written in), or "<no error>".
// The library's own words are tested in read_option_words_test.cpp.
inline std::string error_of(std::string_view text, const ReadOptions& opts = {},
                            const std::string& source = "t.csv") {
    try {
        read_table_from_buffer(text, source, opts);
    } catch (const DataError& e) {
        return cli::command_message(e);
    }
    return "<no error>";
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline std::vector<double> row_of(const Table& t, Index r) {
    const DenseMatrix X = t.X.to_dense();
    std::vector<double> out(static_cast<std::size_t>(X.cols()));
    for (Index c = 0; c < X.cols(); ++c) out[static_cast<std::size_t>(c)] = X(r, c);
    return out;
}

}  // namespace kestrel::io_test
