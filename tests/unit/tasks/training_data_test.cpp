// Training data through the task floor (kestrel/tasks/training_data.hpp): a program with
// a plain TrainingDataOptions gets the Dataset the commands train on (their DataFlags fill
// the same options), weights, query and ignored columns taken out; its messages name the
// options in words where the commands name their flags.
#include "kestrel/tasks/training_data.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/cli.hpp"
#include "common/flag_spelling.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/tasks/training_cv_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_training_data_test {

using namespace kestrel;

namespace {

std::string write_training_fixture(const std::string& name, const std::string& text) {
    const auto path =
        std::filesystem::temp_directory_path() / ("kestrel_training_data_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

// A row id to ignore, a query column of words, a weights column, a categorical column.
const std::string kTrainingCsv =
    "id,x1,colour,w,query,y\n"
    "r1,0.5,red,1,qa,1.5\n"
    "r2,1.5,blue,2,qa,2.5\n"
    "r3,2.5,red,0.5,qb,3.25\n"
    "r4,3.5,green,1,qb,4.5\n"
    "r5,4.5,blue,3,qc,5.75\n"
    "r6,5.5,red,1,qc,6.5\n";

ModelSpec ridge_spec() {
    ModelSpec spec;
    spec.model = "ridge";
    resolve_params(spec);
    return spec;
}

// What a library caller writes: no command line anywhere.
TrainingDataOptions library_options(const std::string& path) {
    TrainingDataOptions o;
    o.path = path;
    o.read.label_col = "y";
    o.read.ignore_columns = {"id"};
    o.read.missing = MissingPolicy::keep;
    o.read.threads = 1;
    o.weights_column = "w";
    o.group_column = "query";
    return o;
}

// A command's context with one thread (DataFlags take their threads from it).
Context one_thread() {
    Context ctx;
    ctx.threads = 1;
    return ctx;
}

// What kestrel-train --label-col y --ignore-cols id --weights-col w --group-col query reads with.
cli::DataFlags command_flags() {
    cli::DataFlags flags;
    flags.label_col = "y";
    flags.ignore_cols = {"id"};
    flags.weights_col = "w";
    flags.group_col = "query";
    return flags;
}

void check_same_dataset(const Dataset& a, const Dataset& b) {
    CHECK(a.X.to_dense() == b.X.to_dense());
    CHECK(a.y == b.y);
    CHECK(a.weights == b.weights);
    CHECK(a.qid == b.qid);
    CHECK(a.feature_names == b.feature_names);
    CHECK(a.classes == b.classes);
    CHECK(a.category_counts == b.category_counts);
    CHECK(a.categories == b.categories);
    CHECK(a.task == b.task);
    CHECK(a.source == b.source);
    CHECK(a.label_column == b.label_column);
}

std::string training_error_of(const TrainingDataOptions& o, const ModelSpec& spec) {
    try {
        (void)read_training_data(o, spec);
    } catch (const Error& e) {
        return e.what();
    }
    return "<no error>";
}

// The same error as a command prints it: each option it names spelled as the flag.
std::string command_error_of(const TrainingDataOptions& o, const ModelSpec& spec) {
    try {
        (void)read_training_data(o, spec);
    } catch (const Error& e) {
        return cli::command_message(e);
    }
    return "<no error>";
}

}  // namespace

TEST_SUITE("tasks") {
    TEST_CASE("training data: the library's options give the Dataset of the command's flags") {
        const std::string path = write_training_fixture("train.csv", kTrainingCsv);
        const ModelSpec spec = ridge_spec();
        std::string label_name;
        const Dataset lib = read_training_data(library_options(path), spec, &label_name);
        const Dataset cmd = read_training_data(command_flags().training_options(path, one_thread()), spec);
        check_same_dataset(lib, cmd);

        CHECK(label_name == "y");
        CHECK(lib.task == Task::regression);
        CHECK(lib.feature_names == std::vector<std::string>{"x1", "colour"});
        REQUIRE(lib.rows() == 6);
        CHECK(lib.weights[1] == 2.0);
        CHECK(lib.weights[2] == 0.5);
        REQUIRE(lib.has_queries());
        CHECK(lib.qid[0] == lib.qid[1]);
        CHECK(lib.qid[1] != lib.qid[2]);
        CHECK(lib.categories[1] == std::vector<std::string>{"blue", "green", "red"});
        CHECK(lib.label_column.name == "y");
        CHECK(lib.label_column.ignored == std::vector<std::string>{"id"});
        std::remove(path.c_str());
    }

    TEST_CASE("training data: validation files read as the training file, by the library and the command") {
        const std::string train_path = write_training_fixture("t.csv", kTrainingCsv);
        // Other rows, the training file's columns in its order (the reader keeps a file's
        // column order, which the validation read assumes). Its query ids are numbers: the
        // columns the training data read as numbers are read so.
        const std::string valid_path = write_training_fixture("v.csv",
                                                              "id,x1,colour,w,query,y\n"
                                                              "v1,1,red,1,7,2\n"
                                                              "v2,2,blue,2,7,3\n");
        const ModelSpec spec = ridge_spec();
        TrainingDataOptions o = library_options(train_path);
        o.validation_files = {valid_path};
        const TrainingInput lib = read_training_input(o, spec);
        REQUIRE(lib.validation.size() == 1);

        cli::DataFlags flags = command_flags();
        std::string label_name;
        const Dataset train = read_training_data(flags.training_options(train_path, one_thread()), spec, &label_name);
        const Dataset valid =
            read_validation_data(valid_path, train, label_name, flags.training_options(train_path, one_thread()));
        check_same_dataset(lib.train, train);
        check_same_dataset(lib.validation[0], valid);
        CHECK(lib.validation[0].X.to_dense()(0, 0) == 1.0);
        CHECK(lib.validation[0].weights[1] == 2.0);

        // Appended after the training rows (cross-validation's fixed split).
        Dataset appended = lib.train;
        append_validation_rows(appended, valid_path, o);
        CHECK(appended.rows() == 8);
        CHECK(appended.qid[6] > lib.train.qid.maxCoeff());  // no query spans the two files
        std::remove(train_path.c_str());
        std::remove(valid_path.c_str());
    }

    TEST_CASE("training data: the grouped two-pass read keeps each row's group") {
        const std::string path = write_training_fixture("g.csv",
                                                        "y,g,x\n"
                                                        "1,b,0.5\n"
                                                        "2,a,\n"
                                                        "3,b,1.5\n");
        TrainingDataOptions o;
        o.path = path;
        o.read.missing = MissingPolicy::drop;
        const GroupedTrainingData grouped = read_grouped_training_data(o, "g", ridge_spec());
        CHECK(grouped.row_groups == std::vector<std::string>{"b", "b"});  // line 3 dropped with its group
        CHECK(grouped.data.feature_names == std::vector<std::string>{"x"});
        CHECK_THROWS_WITH_AS(read_grouped_training_data(o, "nosuch", ridge_spec()),
                             "groups nosuch: no such column; the feature columns are: g, x", UsageError);
        std::remove(path.c_str());
    }

    TEST_CASE("training data: messages name the library's options; the command's name its flags") {
        const std::string path = write_training_fixture("m.csv", kTrainingCsv);
        const ModelSpec spec = ridge_spec();
        TrainingDataOptions lib = library_options(path);
        lib.weights_column = "weight";
        cli::DataFlags flags = command_flags();
        flags.weights_col = "weight";
        // The query column is taken out first.
        const std::string columns = "; the columns are: x1, colour, w";
        CHECK(training_error_of(lib, spec) == path + ": weights column 'weight' (weights_col) not found" + columns);
        CHECK(command_error_of(flags.training_options(path, one_thread()), spec) ==
              path + ": weights column 'weight' (--weights-col) not found" + columns);

        lib.weights_column = "y";
        flags.weights_col = "y";
        CHECK(training_error_of(lib, spec) == "weights_col y is the label column");
        CHECK(command_error_of(flags.training_options(path, one_thread()), spec) == "--weights-col y is the label column");

        lib.weights_column = "colour";
        CHECK(training_error_of(lib, spec) == path + ": weights_col colour is a column of words, not numbers");

        ModelSpec knn;
        knn.model = "knn";
        resolve_params(knn);
        lib.weights_column = "w";
        flags.weights_col = "w";
        CHECK(training_error_of(lib, knn).rfind("weights_col: model knn does not learn from sample weights", 0) == 0);
        CHECK(command_error_of(flags.training_options(path, one_thread()), knn)
                  .rfind("--weights-col: model knn does not learn from sample weights", 0) == 0);
        std::remove(path.c_str());
    }
}

}  // namespace unit_tasks_training_data_test
}  // namespace
