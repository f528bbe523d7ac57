// The readers' messages in the library's own words: without ReadOptions::spellings they
// name the parameters of ReadOptions, never a command-line flag; with the commands'
// spellings (io_test_util.hpp) they read as the commands have always printed them.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/file_shard.hpp"

using namespace kestrel;

namespace {

// The message of any error reading `text` with `opts` as given (no spellings added).
std::string words_error_of(std::string_view text, const ReadOptions& opts, const std::string& source = "t.csv") {
    try {
        (void)read_table_from_buffer(text, source, opts);
    } catch (const Error& e) {
        return e.what();
    }
    return "<no error>";
}

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("reader messages in words: parameters named, no flag") {
        ReadOptions plain;
        CHECK(words_error_of("label,a,b\n1,,3\n", plain) ==
              "t.csv:2:2: missing value in column 'a' (use missing = drop to skip such rows, or keep them for an "
              "imputer)");
        CHECK(words_error_of("label,a\n,1\n", plain) ==
              "t.csv:2:1: missing label in column 'label' (use missing = drop to skip such rows)");
        CHECK(
            words_error_of("1 1:nan\n", plain, "t.libsvm") ==
            "t.libsvm:1:2: missing value \"1:nan\" (use missing = drop to skip such rows or keep them for an imputer)");

        ReadOptions absent;
        absent.categorical_columns = {"colour"};
        CHECK(words_error_of("label,a\n1,2\n", absent)
                  .find("t.csv: categorical_columns names column 'colour', which is "
                        "not in the file") == 0);
        ReadOptions label;
        label.ignore_columns = {"label"};
        CHECK(words_error_of("label,a\n1,2\n", label) == "t.csv: ignore_columns names the label column 'label'");
        ReadOptions typed;
        typed.categorical_columns = {"label"};
        CHECK(words_error_of("label,a\n1,2\n", typed) ==
              "t.csv: categorical_columns names the label column 'label' (the label's type follows the model and its "
              "task)");
        ReadOptions few;
        few.max_categories = 2;
        CHECK(words_error_of("label,c\n1,a\n0,b\n1,c\n", few) ==
              "t.csv: column 'c' has 3 categories, more than max_categories (2)");
        ReadOptions rows;
        rows.max_rows = 1;
        CHECK(words_error_of("label,a\n1,2\n0,3\n", rows).find("data rows, more than max_rows 1") != std::string::npos);
        ReadOptions numeric;
        numeric.numeric_columns = {"1"};
        CHECK(words_error_of("1 1:2\n", numeric, "t.svm")
                  .find("numeric_columns names CSV columns; t.svm is a LIBSVM file, "
                        "whose features are numbers unless categorical_columns "
                        "names their indices") == 0);
        ReadOptions keep;
        keep.missing = MissingPolicy::keep;
        CHECK(words_error_of("label,a\n1,\n0,\n", keep) ==
              "t.csv:1:2: every cell of column 'a' is missing; drop it with ignore_columns");
    }

    TEST_CASE("reader messages in words: unknown categories, and shards of standard input") {
        ReadOptions predict;
        predict.feature_categories = CategoryLists{{"red", "blue"}};
        predict.unknown_category_error = true;
        const std::string unknown = words_error_of("label,c\n1,green\n", predict);
        CHECK(unknown.find("(without unknown_category_error it reads as unknown)") != std::string::npos);
        CHECK(unknown.find("--") == std::string::npos);
        CHECK_THROWS_WITH_AS(read_file_shard("-", ReadOptions{}, 0, 2),
                             "<stdin>: a sharded read splits a regular file by byte ranges; standard input and pipes "
                             "cannot be split",
                             UsageError);
    }
}
