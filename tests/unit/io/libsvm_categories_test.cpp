// LIBSVM features named by --categorical: integer values become categories named by
// the number, sorted byte-wise like CSV categories; an absent entry is the category
// "0"; predict time codes by the model's lists. Expected codes are read off the
// fixtures by hand.
#include <cmath>

#include "io_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_libsvm_categories_test {

using namespace kestrel;
using io_test::contains;
using io_test::error_of;
using io_test::read;
using io_test::row_of;

namespace {

// Feature 1 takes 3, 1, absent (= 0), 10; feature 2 is numeric.
const char* const kFile =
    "1 1:3 2:0.5\n"
    "0 1:1 2:1.5\n"
    "1 2:2.5\n"
    "0 1:10 2:0.25\n";

ReadOptions categorical(bool densify) {
    ReadOptions o;
    o.categorical_columns = {"1"};
    o.densify = densify;
    return o;
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("libsvm categories: codes follow the byte-wise order of the numbers' text, absent is \"0\"") {
    for (const bool densify : {false, true}) {
        CAPTURE(densify);
        const Table t = read(kFile, categorical(densify), "t.svm");
        CHECK(t.X.is_sparse() == !densify);
        REQUIRE(t.categories.size() == 2);
        // "0" < "1" < "10" < "3" byte-wise: codes 0, 1, 2, 3.
        CHECK(t.categories[0] == std::vector<std::string>{"0", "1", "10", "3"});
        CHECK(t.categories[1].empty());
        CHECK(row_of(t, 0) == std::vector<double>{3, 0.5});
        CHECK(row_of(t, 1) == std::vector<double>{1, 1.5});
        CHECK(row_of(t, 2) == std::vector<double>{0, 2.5});
        CHECK(row_of(t, 3) == std::vector<double>{2, 0.25});
        if (!densify) {
            // Code 0 is stored, so that a model reading absent entries as missing sees category "0".
            CHECK(t.X.sparse_ref().nonZeros() == 8);
        }
    }
}

TEST_CASE("libsvm categories: no --categorical reads as before") {
    const Table t = read(kFile, ReadOptions{}, "t.svm");
    CHECK(t.categories.empty());
    CHECK(row_of(t, 3) == std::vector<double>{10, 0.25});
}

TEST_CASE("libsvm categories: predict time codes by the model's lists; unknown is -1 or an error") {
    ReadOptions o;
    o.feature_categories = CategoryLists{{"0", "1", "10", "3"}, {}};
    const char* const text = "1 1:3 2:1\n0 1:7 2:1\n1 2:4\n";
    const Table t = read(text, o, "p.svm");
    CHECK(row_of(t, 0) == std::vector<double>{3, 1});
    CHECK(row_of(t, 1) == std::vector<double>{kUnknownCategory, 1});
    CHECK(row_of(t, 2) == std::vector<double>{0, 4});
    o.unknown_category_error = true;
    const std::string e = error_of(text, o, "p.svm");
    CHECK(contains(e, "p.svm:2:"));
    CHECK(contains(e, "feature 1 holds 7, a category the model never saw"));
}

TEST_CASE("libsvm categories: a piece whose rows never reach the feature reads it as category \"0\"") {
    ReadOptions o;
    o.feature_categories = CategoryLists{{}, {}, {"0", "5"}};
    const Table t = read("1 1:2\n0 1:3\n", o, "p.svm");
    CHECK(t.X.cols() == 3);
    CHECK(row_of(t, 1) == std::vector<double>{3, 0, 0});
    o.feature_categories = CategoryLists{{}, {}, {"4", "5"}};  // "0" unknown to the model
    CHECK(row_of(read("1 1:2\n", o, "p.svm"), 0) == std::vector<double>{2, 0, kUnknownCategory});
}

TEST_CASE("libsvm categories: bad names, non-integer codes, missing entries and too many categories") {
    ReadOptions o = categorical(false);
    CHECK(contains(error_of("1 1:2.5 2:1\n0 1:1\n", o, "b.svm"),
                   "b.svm:1: feature 1 is 2.5, not an integer category code"));
    CHECK(contains(error_of(kFile, [] { ReadOptions r; r.categorical_columns = {"3"}; return r; }(), "t.svm"),
                   "t.svm: no feature 3 (--categorical); the highest index in the file is 2"));
    for (const char* name : {"x", "0", "-1", "1.5"}) {
        ReadOptions r;
        r.categorical_columns = {name};
        CHECK_THROWS_AS(read(kFile, r, "t.svm"), UsageError);
    }
    ReadOptions keep = categorical(true);
    keep.missing = MissingPolicy::keep;
    const Table t = read("1 1:nan 2:1\n0 1:4 2:2\n", keep, "m.svm");
    CHECK(t.categories[0] == std::vector<std::string>{"4"});
    CHECK(std::isnan(row_of(t, 0)[0]));
    CHECK(row_of(t, 1)[0] == 0);
    ReadOptions few = categorical(false);
    few.max_categories = 3;
    CHECK(contains(error_of(kFile, few, "t.svm"), "feature 1 has more than 3 categories (--max-categories-hard)"));
}

TEST_CASE("libsvm categories: --numeric and --ignore-cols name CSV columns and are refused") {
    // The message as a command prints it (its flags), as the other tests here read them.
    const auto refusal = [](const ReadOptions& o) {
        try {
            (void)read(kFile, o, "t.svm");
        } catch (const UsageError& e) {
            return cli::command_message(e);
        }
        return std::string("<no error>");
    };
    ReadOptions o;
    o.numeric_columns = {"1"};
    CHECK(contains(refusal(o), "--numeric names CSV columns"));
    o = ReadOptions{};
    o.ignore_columns = {"2"};
    CHECK(contains(refusal(o), "--ignore-cols names CSV columns"));
}

}  // TEST_SUITE

}  // namespace unit_io_libsvm_categories_test
}  // namespace
