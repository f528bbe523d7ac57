#pragma once
// Helpers shared by the io tests: read an inline fixture, catch the error message.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "kestrel/core/error.hpp"
#include "common/cli.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::io_test {

// The readers' messages as the commands word them (their flags): the spelling the
// assertions of these tests were written in. A test of the library's own words sets
// ReadOptions::spellings itself (to null: see read_option_words_test.cpp).
inline ReadOptions spelled_as_flags(ReadOptions opts) {
    if (!opts.spellings) opts.spellings = &cli::data_flag_spellings();
    return opts;
}

inline Table read(std::string_view text, const ReadOptions& opts = {}, const std::string& source = "t.csv") {
    return read_table_from_buffer(text, source, spelled_as_flags(opts));
}

// The DataError message reading `text` gives, or "<no error>".
inline std::string error_of(std::string_view text, const ReadOptions& opts = {},
                            const std::string& source = "t.csv") {
    try {
        read_table_from_buffer(text, source, spelled_as_flags(opts));
    } catch (const DataError& e) {
        return e.what();
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
