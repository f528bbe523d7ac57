// gbdt's model file: state version 3 writes the trees in the boosted layout
// (common/tree.hpp); files of version 2 (tests/fixtures/gbdt-v2, README there) still load
// and give what the kestrel that wrote them gave, and re-saving keeps every figure.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "unit/tree/tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_file_test {

using namespace kestrel;
namespace fs = std::filesystem;

namespace {

const std::string kFixtures = std::string(KESTREL_SOURCE_DIR) + "/tests/fixtures/gbdt-v2/";

// The numbers of a kestrel-predict CSV from column `first` on (tree_test_util's reader).
Matrix predicted_numbers(const std::string& path, Index first) {
    Matrix out = tree_test::csv_numbers(path, first);
    REQUIRE(out.rows() > 0);
    return out;
}

// The test file's rows as the model reads them at predict time.
Features rows_for(const Model& m, const std::string& path, const std::string& label) {
    ReadOptions options;
    options.label_col = label;
    return read_table(std::string(KESTREL_SOURCE_DIR) + "/" + path, m.align_options(options)).X;
}

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("gbdt file: version 2 files predict as they did, and re-save as version 3 with the same figures") {
        struct Case {
            const char* model;
            const char* test;
            const char* label;
            const char* predictions;
            const char* contributions;
        };
        for (const Case& c :
             {Case{"penguins_gbdt_v2.json", "data/tables/penguins/test.csv", "species", "penguins_gbdt_v2.proba.csv", ""},
              Case{"diabetes_gbdt_v2.json", "data/diabetes/test.csv", "label", "diabetes_gbdt_v2.pred.csv",
                   "diabetes_gbdt_v2.contrib.csv"}}) {
            CAPTURE(c.model);
            const Model old = Model::load(kFixtures + c.model);
            const bool classes = old.task() == Task::classification;
            const Features X = rows_for(old, c.test, c.label);
            const Matrix outputs = classes ? old.predict_proba(X) : Matrix(old.predict(X));
            CHECK(outputs == predicted_numbers(kFixtures + c.predictions, classes ? 1 : 0));
            if (*c.contributions) CHECK(old.contributions(X) == predicted_numbers(kFixtures + c.contributions, 1));

            const std::string path = (fs::temp_directory_path() / "kestrel_test_gbdt_v3.json").string();
            old.save(path);
            const std::string text = read_whole_file(path);
            const Json state = Json::parse(text)["state"];
            CHECK(state["state_version"] == 3);
            CHECK(state["trees"][0].contains("cover"));
            CHECK(state["trees"][0].contains("split_gain"));
            CHECK_FALSE(state["trees"][0].contains("value"));
            CHECK(text.size() < fs::file_size(kFixtures + c.model));
            const Model back = Model::load(path);
            CHECK((classes ? back.predict_proba(X) : Matrix(back.predict(X))) == outputs);
            CHECK(back.contributions(X) == old.contributions(X));
            CHECK(back.report("tree") == old.report("tree"));
            // Saved again, the version 3 file is the same text.
            const std::string again = (fs::temp_directory_path() / "kestrel_test_gbdt_v3b.json").string();
            back.save(again);
            CHECK(read_whole_file(again) == text);
            fs::remove(path);
            fs::remove(again);
        }
    }
}

}  // namespace unit_boosting_gbdt_file_test
}  // namespace
