// Typed CSV columns: numeric or categorical by their cells, --categorical / --numeric /
// --ignore-cols, category codes in sorted order, missing cells, and predict-time
// categories from a model. Expected codes are read off the fixtures by hand. The
// "category keys" cases test the lookup of pass 1: each chunk keys a text by its length
// and two 8-byte words, cells that cannot be numbers skip the number parser, and the
// chunks' dictionaries merge one column per thread; every category must come back as
// its own text, with the codes of a plain sorted list, at 1 and 2 threads.
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_csv_types_test {

using namespace kestrel;
using io_test::contains;
using io_test::error_of;
using io_test::read;
using io_test::row_of;

// Texts that a careless key would confuse: every length from 1 to 40 (the short and
// the long keys, the 4- and 8-byte loads overlapping), pairs that differ in one byte at
// each position, long texts alike in their first and last 8 bytes, quoted texts with
// delimiters, doubled quotes and spaces, and words starting like "nan", "inf" or "NA".
std::vector<std::string> tricky_texts() {
    std::vector<std::string> out;
    for (std::size_t n = 1; n <= 40; ++n) {
        std::string base(n, 'a');
        base[0] = 'w';  // never empty, never a number or a missing marker
        out.push_back(base);
        for (std::size_t at = 1; at < n; ++at) {
            std::string other = base;
            other[at] = 'b';
            out.push_back(other);
        }
    }
    for (char mid = 'c'; mid <= 'h'; ++mid) out.push_back("head1234" + std::string(9, mid) + "tail5678");
    for (const char* s : {"north_17", "inner_3", "nation", "inform", "Nx", "na_region", "i", "n", "Ink", "NAB"})
        out.emplace_back(s);
    return out;
}

// A CSV cell holding `text`: quoted when it holds a delimiter or a quote.
std::string cell(const std::string& text) {
    if (text.find_first_of(",\"") == std::string::npos) return text;
    std::string q = "\"";
    for (const char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

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


TEST_CASE("csv category keys: every text comes back as itself, sorted, in every chunking and thread count") {
    std::vector<std::string> texts = tricky_texts();
    texts.emplace_back("a,b");
    texts.emplace_back("say \"hi\"");
    texts.emplace_back("x\"\"y");
    // ~1.5 MB: several chunks. The first half meets the texts in one order, the second half
    // in reverse, so the chunks' dictionaries give them different codes before the merge.
    std::ostringstream os;
    os << "label,t,x,u\n";
    const std::size_t n = texts.size();
    const int rows = 60000;
    std::vector<std::string> t_of(rows), u_of(rows);
    for (int i = 0; i < rows; ++i) {
        const auto k = static_cast<std::size_t>(i) % n;
        t_of[static_cast<std::size_t>(i)] = texts[i < rows / 2 ? k : n - 1 - k];
        u_of[static_cast<std::size_t>(i)] = texts[(k * 7) % n];
        os << (i % 2) << "," << cell(t_of[static_cast<std::size_t>(i)]) << "," << i << ","
           << cell(u_of[static_cast<std::size_t>(i)]) << "\n";
    }
    const std::string text = os.str();
    // The sequential reference: the distinct texts, sorted byte-wise.
    const std::set<std::string> distinct(texts.begin(), texts.end());
    const std::vector<std::string> sorted(distinct.begin(), distinct.end());
    for (const int threads : {1, 2}) {
        CAPTURE(threads);
        ReadOptions o;
        o.threads = threads;
        const Table t = read(text, o);
        REQUIRE(t.categories.size() == 3);
        CHECK(t.categories[0] == sorted);
        CHECK(t.categories[1].empty());
        CHECK(t.categories[2] == sorted);
        const DenseView X = t.X.dense_ref();
        for (int i = 0; i < rows; ++i) {
            const auto r = static_cast<std::size_t>(i);
            const auto code_t = static_cast<std::size_t>(X(i, 0));
            const auto code_u = static_cast<std::size_t>(X(i, 2));
            REQUIRE(code_t < sorted.size());
            REQUIRE(code_u < sorted.size());
            if (sorted[code_t] != t_of[r] || sorted[code_u] != u_of[r]) {
                FAIL_CHECK("row " << i << ": " << sorted[code_t] << " / " << sorted[code_u]);
                break;
            }
            CHECK(X(i, 1) == i);
        }
    }
}

TEST_CASE("csv category keys: cells that look like numbers, missing markers or infinities read as before") {
    // A numeric column: signs, spaces, exponents and NaN/inf spellings go to the number
    // parser (the words of the other column do not need it).
    ReadOptions keep;
    keep.missing = MissingPolicy::keep;
    const Table t =
        read("label,x,w\n1,+1,north\n0, 5 ,nation\n1,1e3,inner\n0,.5,Nx\n1,NA,n\n0,N/A,i\n1,nan,NAB\n0,?,Ink\n"
             "1,NaN,inf_zone\n0,,na\n",
             keep);
    const DenseView X = t.X.dense_ref();
    CHECK(X(0, 0) == 1);
    CHECK(X(1, 0) == 5);
    CHECK(X(2, 0) == 1000);
    CHECK(X(3, 0) == 0.5);
    for (Index i = 4; i < 10; ++i) CHECK(std::isnan(X(i, 0)));
    REQUIRE(t.categories.size() == 2);
    CHECK(t.categories[0].empty());
    // "na" is a word here (the markers are "NA", "N/A", "nan", "NaN", "NAN", "?" and "").
    CHECK(t.categories[1] ==
          std::vector<std::string>{"Ink", "NAB", "Nx", "i", "inf_zone", "inner", "n", "na", "nation", "north"});
    for (const char* inf : {"inf", "-Infinity", "INF", "+inf"})
        CHECK(contains(error_of(std::string("label,x\n1,") + inf + "\n0,2\n"), "is infinite or out of range"));
    CHECK(contains(error_of("label,x\n1,nan\n0,2\n"), "missing value in column 'x'"));
}

TEST_CASE("csv category keys: with two columns over the limit, the first one is named at 1 and 2 threads") {
    std::ostringstream os;
    os << "label,a,b,c\n";
    for (int i = 0; i < 40000; ++i) os << (i % 2) << ",a" << (i % 3) << ",b" << (i % 5) << ",c" << (i % 7) << "\n";
    for (const int threads : {1, 2}) {
        ReadOptions o;
        o.threads = threads;
        o.max_categories = 4;
        CHECK(contains(error_of(os.str(), o), "column 'b' has 5 categories, more than --max-categories-hard (4)"));
    }
}

}  // TEST_SUITE

}  // namespace unit_io_csv_types_test
}  // namespace
