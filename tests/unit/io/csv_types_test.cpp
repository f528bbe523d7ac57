// Typed CSV columns: numeric or categorical by their cells, --categorical / --numeric /
// --ignore-cols, category codes in sorted order, missing cells, and predict-time
// categories from a model. Expected codes are read off the fixtures by hand.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "io_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_csv_types_test {

using namespace kestrel;
using io_test::contains;
using io_test::error_of;
using io_test::read;
using io_test::row_of;

TEST_SUITE("io") {

TEST_CASE("csv types: a column with a word is categorical, coded in sorted order; quoted numbers stay numbers") {
    ReadOptions o;
    o.missing = MissingPolicy::keep;
    const Table t = read("label,colour,n,q\n"
                         "a,red,1,\"5\"\n"
                         "b,blue,2,6\n"
                         "a,\"red\",3,7\n"
                         "b,green,NA,8\n"
                         "a,NA,5,9\n"
                         "b,10,6,10\n",
                         o);
    REQUIRE(t.categories.size() == 3);
    // "10" is a category string in a categorical column; byte order puts it first.
    CHECK(t.categories[0] == std::vector<std::string>{"10", "blue", "green", "red"});
    CHECK(t.categories[1].empty());
    CHECK(t.categories[2].empty());
    CHECK(row_of(t, 0) == std::vector<double>{3, 1, 5});
    CHECK(row_of(t, 1) == std::vector<double>{1, 2, 6});
    CHECK(row_of(t, 2) == std::vector<double>{3, 3, 7});
    CHECK(std::isnan(row_of(t, 3)[1]));
    CHECK(row_of(t, 3)[0] == 2);
    CHECK(std::isnan(row_of(t, 4)[0]));
    CHECK(row_of(t, 5)[0] == 0);
}

TEST_CASE("csv types: a file of numbers reads as before, with no categories") {
    const Table t = read("label,a,b\n1,2.5,3\n0,-1,4e2\n");
    CHECK(t.categories.empty());
    CHECK(row_of(t, 1) == std::vector<double>{-1, 400});
}

TEST_CASE("csv types: --categorical codes an integer column; --numeric refuses a word; --ignore-cols drops") {
    const std::string text = "id,label,zip,x\n7,a,90210,1.5\n8,b,10001,2.5\n9,a,90210,3.5\n";
    ReadOptions o;
    o.label_col = "label";
    o.categorical_columns = {"zip"};
    o.ignore_columns = {"id"};
    const Table t = read(text, o);
    CHECK(t.feature_names == std::vector<std::string>{"zip", "x"});
    REQUIRE(t.categories.size() == 2);
    CHECK(t.categories[0] == std::vector<std::string>{"10001", "90210"});
    CHECK(row_of(t, 0) == std::vector<double>{1, 1.5});
    CHECK(row_of(t, 1) == std::vector<double>{0, 2.5});

    ReadOptions by_index;
    by_index.label_col = "label";
    by_index.categorical_columns = {"2"};
    by_index.ignore_columns = {"0"};
    CHECK(read(text, by_index).categories == t.categories);

    ReadOptions numeric;
    numeric.label_col = "label";
    numeric.numeric_columns = {"x"};
    CHECK(contains(error_of("label,x\na,1\nb,two\n", numeric), "t.csv:3:2: \"two\" in column 'x' is not a number"));

    ReadOptions absent;
    absent.categorical_columns = {"colour"};
    CHECK(contains(error_of(text, absent), "--categorical names column 'colour', which is not in the file"));
    ReadOptions label;
    label.label_col = "label";
    label.ignore_columns = {"label"};
    CHECK(contains(error_of(text, label), "--ignore-cols names the label column 'label'"));
}

TEST_CASE("csv types: a column whose every cell is missing is an error naming it") {
    ReadOptions o;
    o.missing = MissingPolicy::keep;
    CHECK(contains(error_of("label,a,b\n1,NA,2\n0,,3\n", o), "t.csv:1:2: every cell of column 'a' is missing"));
}

TEST_CASE("csv types: --missing drop drops rows with a missing category, codes stay aligned") {
    ReadOptions o;
    o.missing = MissingPolicy::drop;
    const Table t = read("label,c,x\na,u,1\nb,NA,2\na,v,3\nb,u,NA\na,w,5\n", o);
    CHECK(t.dropped_rows == 2);
    CHECK(t.categories[0] == std::vector<std::string>{"u", "v", "w"});
    CHECK(row_of(t, 0) == std::vector<double>{0, 1});
    CHECK(row_of(t, 1) == std::vector<double>{1, 3});
    CHECK(row_of(t, 2) == std::vector<double>{2, 5});
    CHECK(t.labels->text == std::vector<std::string>{"a", "a", "a"});
}

TEST_CASE("csv types: predict time reads categories by the model's lists; unknown is -1 or an error") {
    ReadOptions o;
    o.missing = MissingPolicy::keep;
    o.feature_columns = std::vector<std::string>{"c", "x"};
    o.feature_categories = CategoryLists{{"u", "v"}, {}};
    o.labels_optional = true;
    const Table t = read("x,c\n1,v\n2,zzz\n3,NA\n", o);
    CHECK(row_of(t, 0) == std::vector<double>{1, 1});
    CHECK(row_of(t, 1) == std::vector<double>{kUnknownCategory, 2});
    CHECK(std::isnan(row_of(t, 2)[0]));
    o.unknown_category_error = true;
    CHECK(contains(error_of("x,c\n1,v\n2,zzz\n", o), "t.csv:3:2: \"zzz\" in column 'c' is a category the model never saw"));
    // A numeric column of the model refuses a word.
    o.unknown_category_error = false;
    CHECK(contains(error_of("x,c\none,v\n", o), "t.csv:2:1: \"one\" in column 'x' is not a number"));
}

TEST_CASE("csv types: codes do not depend on chunking or threads, and a column can turn categorical late") {
    // ~600 KB: several chunks. Column c is numeric for most rows and has a word only
    // near the end, so one chunk finds it categorical and the others must follow.
    std::ostringstream os;
    os << "label,c,k,x\n";
    const int rows = 40000;
    for (int i = 0; i < rows; ++i)
        os << (i % 3) << "," << (i == rows - 5 ? std::string("late") : std::to_string(i % 13)) << ",k"
           << (i * 7 % 11) << "," << i * 0.5 << "\n";
    const std::string text = os.str();
    ReadOptions one, two;
    one.threads = 1;
    two.threads = 2;
    const Table a = read(text, one), b = read(text, two);
    REQUIRE(a.categories.size() == 3);
    CHECK(a.categories[0].size() == 14);  // "0".."12" and "late"
    CHECK(a.categories[0].back() == "late");
    CHECK(a.categories[1].size() == 11);
    CHECK(a.categories == b.categories);
    CHECK(a.X.dense_ref() == b.X.dense_ref());
    // Row 14: c = "1" (code 1 of "0","1","10","11","12","2",...), k = "k98%11" = "k10" (code 2: k0,k1,k10).
    CHECK(row_of(a, 14) == std::vector<double>{1, 2, 7});
}

TEST_CASE("csv types: thousands of categories, met in scrambled order, code to their sorted places") {
    // Pass 1 codes the words with each chunk's own dictionary (grown many times here);
    // the codes must still be each word's place in the sorted list, at 1 and 2 threads.
    std::ostringstream os;
    os << "label,w\n";
    const int rows = 30000, words = 3000;
    for (int i = 0; i < rows; ++i) os << (i % 2) << ",w" << (i * 7919 % words) << "\n";
    const std::string text = os.str();
    ReadOptions one, two;
    one.threads = 1;
    two.threads = 2;
    const Table a = read(text, one), b = read(text, two);
    REQUIRE(a.categories.size() == 1);
    REQUIRE(a.categories[0].size() == static_cast<std::size_t>(words));
    CHECK(std::is_sorted(a.categories[0].begin(), a.categories[0].end()));
    CHECK(a.categories == b.categories);
    CHECK(a.X.dense_ref() == b.X.dense_ref());
    for (int i = 0; i < rows; i += 997)
        CHECK(a.categories[0][static_cast<std::size_t>(a.X.dense_ref()(i, 0))] == "w" + std::to_string(i * 7919 % words));
}

TEST_CASE("csv types: --max-categories-hard refuses a column with too many categories") {
    ReadOptions o;
    o.max_categories = 2;
    CHECK(contains(error_of("label,c\n1,a\n0,b\n1,c\n", o), "column 'c' has 3 categories, more than --max-categories-hard (2)"));
}

}  // TEST_SUITE

}  // namespace unit_io_csv_types_test
}  // namespace
