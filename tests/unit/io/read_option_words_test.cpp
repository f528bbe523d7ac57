// The readers' messages name the options of ReadOptions by their library names
// (option_named, kestrel/core/error.hpp), never a command-line flag; a command prints its
// flag in their place (apps/common/flag_spelling.cpp), the bytes the commands have always
// printed. Each check reads one fixture and compares both wordings of its error.
#include <doctest/doctest.h>

#include <string>

#include "common/flag_spelling.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/file_shard.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_read_option_words_test {

using namespace kestrel;

namespace {

// One error in the library's words and as a command prints it.
struct Worded {
    std::string library;
    std::string command;
};

Worded error_of(std::string_view text, const ReadOptions& opts, const std::string& source = "t.csv") {
    try {
        (void)read_table_from_buffer(text, source, opts);
    } catch (const Error& e) {
        return {e.what(), cli::command_message(e)};
    }
    return {"<no error>", "<no error>"};
}

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("reader messages: missing values name the missing option; the command its flag") {
        const ReadOptions plain;
        const Worded value = error_of("label,a,b\n1,,3\n", plain);
        CHECK(value.library ==
              "t.csv:2:2: missing value in column 'a' (use missing=drop to skip such rows, or auto, "
              "keep or an imputer)");
        CHECK(value.command ==
              "t.csv:2:2: missing value in column 'a' (use --missing=drop to skip such rows, or "
              "auto, keep or an imputer)");
        const Worded label = error_of("label,a\n,1\n", plain);
        CHECK(label.library == "t.csv:2:1: missing label in column 'label' (use missing=drop to skip such rows)");
        CHECK(label.command == "t.csv:2:1: missing label in column 'label' (use --missing=drop to skip such rows)");
        const Worded svm = error_of("1 1:nan\n", plain, "t.libsvm");
        CHECK(svm.library ==
              "t.libsvm:1:2: missing value \"1:nan\" (use missing=drop to skip such rows or missing=mean to impute "
              "them)");
        CHECK(svm.command ==
              "t.libsvm:1:2: missing value \"1:nan\" (use --missing=drop to skip such rows or --missing=mean to "
              "impute them)");
    }

    TEST_CASE("reader messages: column options by their library names") {
        ReadOptions absent;
        absent.categorical_columns = {"colour"};
        const Worded missing_column = error_of("label,a\n1,2\n", absent);
        CHECK(missing_column.library.rfind("t.csv: categorical_columns names column 'colour', which is not in the "
                                           "file",
                                           0) == 0);
        CHECK(missing_column.command.rfind("t.csv: --categorical names column 'colour', which is not in the file", 0) ==
              0);

        ReadOptions label;
        label.ignore_columns = {"label"};
        CHECK(error_of("label,a\n1,2\n", label).library == "t.csv: ignore_columns names the label column 'label'");
        CHECK(error_of("label,a\n1,2\n", label).command == "t.csv: --ignore-cols names the label column 'label'");

        ReadOptions typed;
        typed.categorical_columns = {"label"};
        const Worded typed_label = error_of("label,a\n1,2\n", typed);
        CHECK(typed_label.library ==
              "t.csv: categorical_columns names the label column 'label' (the label's type "
              "follows the model and task)");
        CHECK(typed_label.command ==
              "t.csv: --categorical names the label column 'label' (the label's type follows "
              "the model and --task)");

        ReadOptions numeric;
        numeric.numeric_columns = {"1"};
        const Worded svm = error_of("1 1:2\n", numeric, "t.svm");
        CHECK(svm.library ==
              "numeric_columns names CSV columns; t.svm is a LIBSVM file, whose features are numbers "
              "unless categorical_columns names their indices");
        CHECK(svm.command ==
              "--numeric names CSV columns; t.svm is a LIBSVM file, whose features are numbers unless "
              "--categorical names their indices");

        ReadOptions keep;
        keep.missing = MissingPolicy::keep;
        const Worded empty = error_of("label,a\n1,\n0,\n", keep);
        CHECK(empty.library == "t.csv:1:2: every cell of column 'a' is missing; drop it with ignore_columns");
        CHECK(empty.command == "t.csv:1:2: every cell of column 'a' is missing; drop it with --ignore-cols");
    }

    TEST_CASE("reader messages: limits by their library names") {
        ReadOptions few;
        few.max_categories = 2;
        const Worded categories = error_of("label,c\n1,a\n0,b\n1,c\n", few);
        CHECK(categories.library == "t.csv: column 'c' has 3 categories, more than max_categories (2)");
        CHECK(categories.command == "t.csv: column 'c' has 3 categories, more than --max-categories-hard (2)");
        ReadOptions rows;
        rows.max_rows = 1;
        const Worded many = error_of("label,a\n1,2\n0,3\n", rows);
        CHECK(many.library.find("data rows, more than max_rows 1") != std::string::npos);
        CHECK(many.command.find("data rows, more than --max-rows 1") != std::string::npos);
    }

    TEST_CASE("reader messages: a header read as data, and an unknown category") {
        ReadOptions no_header;
        no_header.header = false;
        const Worded header = error_of("label,a\n1,2\n0,3\n", no_header);
        CHECK(header.library ==
              "t.csv:1:2: \"a\" in column 1 is not a number, and every other cell is: a header "
              "row? (drop header, or categorical_columns to read the column as categories)");
        CHECK(header.command ==
              "t.csv:1:2: \"a\" in column 1 is not a number, and every other cell is: a header "
              "row? (drop --no-header, or --categorical to read the column as categories)");

        ReadOptions predict;
        predict.feature_categories = CategoryLists{{"red", "blue"}};
        predict.unknown_category_error = true;
        const Worded unknown = error_of("label,c\n1,green\n", predict);
        const std::string never_saw =
            "t.csv:2:2: \"green\" in column 'c' is a category the model never saw in training ";
        CHECK(unknown.library == never_saw + "(unknown_category_error=false treats it as unknown)");
        CHECK(unknown.command == never_saw + "(--unknown ignore treats it as unknown)");
    }

    TEST_CASE("reader messages: an error of a later chunk, thrown on a reader thread, keeps its option") {
        std::string text = "label,a\n";
        for (int r = 0; r < 100000; ++r) text += "1,2\n";  // about 400 KB: more than one chunk
        text += "0,\n";
        ReadOptions threads;
        threads.threads = 2;
        const Worded late = error_of(text, threads);
        CHECK(late.library.find(":100002:2: missing value in column 'a' (use missing=drop") != std::string::npos);
        CHECK(late.command.find(":100002:2: missing value in column 'a' (use --missing=drop") != std::string::npos);
    }

    TEST_CASE("reader messages: a shard of standard input names the shard option") {
        try {
            (void)read_file_shard("-", ReadOptions{}, 0, 2);
            FAIL("read_file_shard(\"-\") did not throw");
        } catch (const UsageError& e) {
            const std::string rest = " splits a regular file by byte ranges; standard input and pipes cannot be split";
            CHECK(std::string(e.what()) == "<stdin>: shard" + rest);
            CHECK(cli::command_message(e) == "<stdin>: --shard" + rest);
        }
    }
}

}  // namespace unit_io_read_option_words_test
}  // namespace
