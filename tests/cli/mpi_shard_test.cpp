// kestrel-train --shard under mpirun (docs/distributed.md): each rank reads its own byte
// range of the training file and the model is fitted on sums over the ranks. The model
// must equal the one-process fit on the whole file within 1e-8 (relative, per number;
// gbdt: the same trees, leaf values within 1e-9),
// be the same bits at every run with the same rank count, take ranks whose part holds no
// row, and name the whole file's line when a rank's part holds a bad cell. The forest's
// histogram mode (tree_method=hist) is its own algorithm: the same model on any rank count.
#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <sstream>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_mpi_shard_test {

using namespace kestrel::test;
using kestrel::Json;

namespace {

std::string mpirun_sharded(int ranks, const std::string& command) {
    return "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" mpirun --allow-run-as-root --oversubscribe -np " +
           std::to_string(ranks) + " " + command;
}

// The largest relative difference between the numbers of two model files, which must
// agree on everything else; the provenance (dates, file names) is left out.
double model_difference(Json a, Json b) {
    a.erase("provenance");
    b.erase("provenance");
    double worst = 0;
    const std::function<void(const Json&, const Json&)> walk = [&](const Json& x, const Json& y) {
        if (x.is_number() && y.is_number()) {
            const double u = x.get<double>(), v = y.get<double>();
            worst = std::max(worst, std::abs(u - v) / std::max(1.0, std::max(std::abs(u), std::abs(v))));
            return;
        }
        REQUIRE(x.type() == y.type());
        if (x.is_object()) {
            REQUIRE(x.size() == y.size());
            for (auto it = x.begin(); it != x.end(); ++it) walk(it.value(), y.at(it.key()));
        } else if (x.is_array()) {
            REQUIRE(x.size() == y.size());
            for (std::size_t i = 0; i < x.size(); ++i) walk(x[i], y[i]);
        } else {
            CHECK(x == y);
        }
    };
    walk(a, b);
    return worst;
}

Json load(const std::string& path) { return Json::parse(slurp(path)); }

// Trains `args` as one process, then with --shard on 2 and 3 ranks, and hands each
// sharded model with the one-process model to `check`.
void against_one_process(const ScratchDir& dir, const std::string& name, const std::string& args,
                         const std::function<void(const Json& many, const Json& one)>& check) {
    CAPTURE(args);
    const std::string one = dir / (name + "_one.json");
    REQUIRE(run_tool("kestrel-train " + args + " -o '" + one + "'").exit_code == 0);
    for (const int ranks : {2, 3}) {
        CAPTURE(ranks);
        const std::string many = dir / (name + "_" + std::to_string(ranks) + ".json");
        REQUIRE(run_tool(mpirun_sharded(ranks, "kestrel-train --shard --threads 1 " + args + " -o '" + many + "'"))
                    .exit_code == 0);
        check(load(many), load(one));
    }
}

// The largest relative difference between `kestrel-train ARGS` in one process and with
// --shard over `ranks` ranks.
double sharded_difference(const ScratchDir& dir, const std::string& name, const std::string& args, int ranks) {
    CAPTURE(args);
    const std::string one = dir / (name + "_one.json"), many = dir / (name + "_many.json");
    REQUIRE(run_tool("kestrel-train " + args + " -o '" + one + "'").exit_code == 0);
    REQUIRE(run_tool(mpirun_sharded(ranks, "kestrel-train --shard " + args + " -o '" + many + "'")).exit_code == 0);
    return model_difference(load(many), load(one));
}

// 60 rows with text columns for --shard (docs/distributed.md, "Text columns on shards"):
// x (numbers, some NA); colour (words, some NA; 'purple' only in rows 1 and 3, which the
// first rank holds, 'zebra' only in row 58, the last rank's); code (words in rows 0-7,
// number-like cells after them, so that the later ranks' parts read it as numbers:
// '2.5' and '2.50' are two categories, as in one process; some NA); size (three words);
// y (a number) and label (yes / no) to train on, one of them ignored.
std::string mixed_table() {
    const char* colours[] = {"red", "green", "blue", "red", "green"};
    const char* codes[] = {"1", "2", "10", "2.5", "2.50", "07"};
    const char* sizes[] = {"S", "M", "L"};
    std::string csv = "x,colour,code,size,y,label\n";
    for (int i = 0; i < 60; ++i) {
        const double x = (i * 37 % 23) / 4.0;
        std::string colour = i == 1 || i == 3 ? "purple" : i == 58 ? "zebra" : i % 11 == 7 ? "NA" : colours[i % 5];
        std::string code = i % 13 == 12 ? "" : i < 8 ? (i % 2 ? "beta" : "alpha") : codes[i % 6];
        const double y = 1.5 * x + (colour == "red" ? 2 : colour == "blue" ? -1 : 0) + (i % 6) * 0.75 +
                         (i * 17 % 10) / 10.0;
        csv += (i % 9 == 4 ? std::string("NA") : std::to_string(x)) + "," + colour + "," + code + "," +
               sizes[(i / 2) % 3] + "," + std::to_string(y) + "," + (y > 9 ? "yes" : "no") + "\n";
    }
    return csv;
}

}  // namespace

TEST_SUITE("cli.mpi") {
#if KESTREL_HAVE_MPI
    TEST_CASE("--shard: ridge, logistic and linear_svm on 2 and 3 ranks equal the one-process fit within 1e-8") {
        ScratchDir dir("mpi_shard");
        struct Run {
            std::string name, args;
        };
        const std::vector<Run> runs = {
            // dense CSV, the d x d normal equations summed over ranks
            {"ridge", "-m ridge -p alpha=0.5 '" + repo_path("data/diabetes/train.csv") + "'"},
            // sparse LIBSVM, two classes, TRON on summed gradients and Hessian products
            {"logistic2", "-m logistic -p C=2 '" + repo_path("data/heart_scale/train.libsvm") + "'"},
            // LIBLINEAR -s 2 (primal squared hinge, TRON) with its bias weight, two classes
            {"linear_svm", "-m linear_svm -p solver=primal -p C=0.5 -p eps=0.001 '" +
                               repo_path("data/heart_scale/train.libsvm") + "'"},
            // three classes (multinomial), solved tightly: at the default tol the stopping rule
            // may return the iterate one Newton step away (docs/distributed.md)
            {"logistic3", "-m logistic -p tol=1e-10 '" + repo_path("data/iris/train.csv") + "'"},
        };
        for (const Run& run : runs) {
            CAPTURE(run.args);
            const std::string one = dir / (run.name + "_one.json");
            REQUIRE(run_tool("kestrel-train " + run.args + " -o '" + one + "'").exit_code == 0);
            // Without mpirun, --shard reads the whole file as its one part: the same model.
            const std::string alone = dir / (run.name + "_alone.json");
            REQUIRE(run_tool("kestrel-train --shard " + run.args + " -o '" + alone + "'").exit_code == 0);
            CHECK(model_difference(load(alone), load(one)) == 0);
            for (const int ranks : {2, 3}) {
                CAPTURE(ranks);
                const std::string many = dir / (run.name + "_" + std::to_string(ranks) + ".json");
                const auto r = run_tool(mpirun_sharded(ranks, "kestrel-train --shard --threads 1 " + run.args + " -o '" + many + "'"));
                REQUIRE(r.exit_code == 0);
                CHECK(model_difference(load(many), load(one)) < 1e-8);
                CHECK(load(many).at("provenance").at("rows") == load(one).at("provenance").at("rows"));
                // The same rank count gives the same bits.
                const std::string again = dir / (run.name + "_" + std::to_string(ranks) + "_again.json");
                REQUIRE(run_tool(mpirun_sharded(ranks, "kestrel-train --shard --threads 2 " + run.args + " -o '" + again +
                                                           "'")).exit_code == 0);
                CHECK(model_difference(load(again), load(many)) == 0);
            }
        }
    }

    TEST_CASE("--shard: least_squares (cholesky, qr), lasso and elastic_net on 2 and 3 ranks equal the one-process fit within 1e-8") {
        ScratchDir dir("mpi_shard_cd");
        const std::string diabetes = "'" + repo_path("data/diabetes/train.csv") + "'";
        const std::string heart = "'" + repo_path("data/heart_scale/train.libsvm") + "'";
        // Coordinate descent stops at tol: rounding in the summed Gram may move a run across
        // the stopping rule by one sweep, so the paths are solved tightly (tol=1e-12); the
        // differences measured are then below 2e-13.
        const std::vector<std::pair<std::string, std::string>> runs = {
            {"ls", "-m least_squares -p solver=cholesky " + diabetes},
            {"ls_sparse", "-m least_squares -p solver=cholesky -p fit_intercept=0 " + heart},
            // qr: each rank's R of its rows, the stacked R factors factorised again
            {"ls_qr", "-m least_squares " + diabetes},
            {"ls_qr_sparse", "-m least_squares -p fit_intercept=0 " + heart},
            {"lasso", "-m lasso -p lambda=0.5 -p n_lambda=1 -p tol=1e-12 " + diabetes},
            {"lasso_path", "-m lasso -p n_lambda=10 -p tol=1e-12 " + diabetes},
            {"enet", "-m elastic_net -p l1_ratio=0.3 -p n_lambda=5 -p tol=1e-12 " + diabetes},
            // sparse rows: covariance updates on the Gram from the non-zeros
            {"enet_sparse", "-m elastic_net -p updates=covariance -p n_lambda=5 -p tol=1e-12 " + heart},
        };
        for (const auto& [name, args] : runs)
            against_one_process(dir, name, args, [](const Json& many, const Json& one) {
                CHECK(model_difference(many, one) < 1e-8);
            });
    }

    TEST_CASE("--shard: --scale standard|minmax and mean, median and constant imputation fitted over ranks equal the one-process steps") {
        ScratchDir dir("mpi_shard_steps");
        // diabetes with cells blanked in two columns (rows i % 7 == 3 in f3, i % 11 == 5 in f9).
        const std::string whole = slurp(repo_path("data/diabetes/train.csv"));
        std::string holes;
        int row = -1;
        for (std::size_t at = 0; at < whole.size();) {
            const std::size_t nl = whole.find('\n', at);
            std::string line = whole.substr(at, nl - at);
            at = nl + 1;
            if (row >= 0) {
                std::vector<std::string> cells;
                for (std::size_t c = 0, next; c <= line.size(); c = next + 1) {
                    next = std::min(line.find(',', c), line.size());
                    cells.push_back(line.substr(c, next - c));
                }
                if (row % 7 == 3) cells[3].clear();
                if (row % 11 == 5) cells[9].clear();
                line.clear();
                for (std::size_t c = 0; c < cells.size(); ++c) line += (c ? "," : "") + cells[c];
            }
            holes += line + "\n";
            ++row;
        }
        const std::string missing = dir.file("holes.csv", holes);
        const std::string diabetes = "'" + repo_path("data/diabetes/train.csv") + "'";
        const std::vector<std::pair<std::string, std::string>> runs = {
            {"standard", "-m ridge -p alpha=0.5 --scale standard " + diabetes},
            {"minmax", "-m ridge -p alpha=0.5 --scale minmax " + diabetes},
            // sparse LIBSVM rows: standard scaling without centring (scikit-learn's with_mean=False)
            {"standard_sparse", "-m ridge --scale standard '" + repo_path("data/heart_scale/train.libsvm") + "'"},
            {"poly", "-m ridge -p alpha=0.5 --poly 2 --scale standard " + diabetes},
            {"impute", "-m ridge -p alpha=0.5 --missing mean --missing-indicator --scale standard '" + missing + "'"},
            {"impute_constant", "-m lasso -p lambda=0.1 -p tol=1e-12 --missing constant:7 '" + missing + "'"},
            // median: each column's middle values found by bisection over the ranks' counts;
            // auto, the default, is the median for ridge
            {"impute_median", "-m ridge -p alpha=0.5 --missing median --missing-indicator '" + missing + "'"},
            {"impute_auto", "-m ridge -p alpha=0.5 '" + missing + "'"},
        };
        for (const auto& [name, args] : runs)
            against_one_process(dir, name, args, [](const Json& many, const Json& one) {
                // The steps (means, scales, ranges, fills, indicator columns) to 1e-12, the model to 1e-8.
                CHECK(many.at("preprocessing").size() == one.at("preprocessing").size());
                CHECK(model_difference(Json{{"steps", many.at("preprocessing")}}, Json{{"steps", one.at("preprocessing")}}) <
                      1e-12);
                CHECK(model_difference(many, one) < 1e-8);
            });
        // The most frequent value: every rank's distinct values with their counts.
        against_one_process(dir, "impute_frequent", "-m ridge --missing most_frequent '" + missing + "'",
                            [](const Json& many, const Json& one) {
                                CHECK(many.at("preprocessing") == one.at("preprocessing"));
                                CHECK(model_difference(many, one) < 1e-8);
                            });
    }

    TEST_CASE("--shard: text columns, one-hot and native categories on 2 and 3 ranks equal the one-process fit") {
        ScratchDir dir("mpi_shard_text");
        const std::string data = " '" + dir.file("mixed.csv", mixed_table()) + "'";
        const std::string regression = " --label-col y --ignore-cols label" + data;
        const std::string classes = " --label-col label --ignore-cols y" + data;
        const std::vector<std::pair<std::string, std::string>> runs = {
            // one-hot columns; the median imputer on x, the most frequent category on the text
            {"ridge", "-m ridge -p alpha=0.5" + regression},
            {"logistic", "-m logistic -p tol=1e-10" + classes},
            // the steps' count rules on the summed category counts
            {"max_categories", "-m ridge --max-categories 3" + regression},
            {"min_frequency", "-m ridge --min-frequency 6 --scale standard" + regression},
            {"ordinal", "-m ridge --encode ordinal" + regression},
            // most_frequent: x's most frequent value from every rank's (value, count) pairs
            {"most_frequent", "-m ridge --missing most_frequent --missing-indicator" + regression},
            // qr's minimum-norm solution of the rank-deficient one-hot design
            {"least_squares", "-m least_squares --missing most_frequent" + regression},
            // native categorical splits on the summed histograms, codes of the whole data
            {"gbdt", "-m gbdt -p n_estimators=20 -p max_depth=3 -p min_child_weight=0" + regression},
            {"gbdt_classes", "-m gbdt -p n_estimators=10 -p max_cat_to_onehot=1 -p cat_smooth=1 -p min_data_per_group=2" +
                                 classes},
            // the histogram forest takes the text one-hot encoded, in sparse rows whose stored
            // NaN (x's missing cells) are missing values; classification: whole-number sums,
            // so the same file. (Regression would sum in another order, and on a table this
            // small, one-hot columns and x tie in gain often enough for rounding to pick.)
            {"forest", "-m forest -p n_estimators=10 -p tree_method=hist -p importance=permutation" + classes},
        };
        for (const auto& [name, args] : runs)
            against_one_process(dir, name, args, [&](const Json& many, const Json& one) {
                // The category lists (compared as strings) and every step to the bit or rounding.
                CHECK(many.at("features") == one.at("features"));
                CHECK(model_difference(many, one) < 1e-9);
            });
        // The lists are the whole data's: purple (rank 0's alone), zebra (the last rank's),
        // and the code column's number-like cells named by their text.
        const Json features = load(dir / "ridge_3.json").at("features");
        CHECK(features.at("categories")[1] == Json::array({"blue", "green", "purple", "red", "zebra"}));
        CHECK(features.at("categories")[2] == Json::array({"07", "1", "10", "2", "2.5", "2.50", "alpha", "beta"}));
        // kestrel-predict reads the raw table with the sharded model as with the one-process one.
        for (const std::string name : {"ridge", "gbdt", "forest"}) {
            CAPTURE(name);
            const std::string table = data.substr(2, data.size() - 3);
            const auto a = run_tool("kestrel-predict '" + (dir / (name + "_3.json")) + "' '" + table + "'" +
                                    (name == "forest" ? " --label-col label" : " --label-col y"));
            const auto b = run_tool("kestrel-predict '" + (dir / (name + "_one.json")) + "' '" + table + "'" +
                                    (name == "forest" ? " --label-col label" : " --label-col y"));
            REQUIRE(a.exit_code == 0);
            REQUIRE(b.exit_code == 0);
            if (name == "forest") {  // classes: the same words
                CHECK(a.out == b.out);
                continue;
            }
            // Numbers: within the models' rounding (the one-process files differ from the
            // sharded ones in the last bits of sums added in another order).
            std::istringstream x(a.out), y(b.out);
            std::string u, v;
            int rows = 0;
            while (std::getline(x, u) && std::getline(y, v)) {
                if (rows++ == 0) {
                    CHECK(u == v);  // the header
                    continue;
                }
                CHECK(std::abs(std::stod(u) - std::stod(v)) <= 1e-9 * std::max(1.0, std::abs(std::stod(v))));
            }
            CHECK(rows == 61);
        }
        // --shards: the table in three files (of 10, 29 and 21 rows); at 2 ranks the second
        // rank reads two files, which agree on their lists before the ranks do; at 4 ranks
        // one rank holds no file.
        const std::string whole = mixed_table();
        const std::string header = whole.substr(0, whole.find('\n') + 1);
        std::vector<std::size_t> starts = {header.size()};
        for (std::size_t at = header.size(); at < whole.size(); at = whole.find('\n', at) + 1) starts.push_back(at);
        const std::size_t cuts[] = {0, 10, 39, 60};
        for (int f = 0; f < 3; ++f)
            dir.file("part-" + std::to_string(f) + ".csv",
                     header + whole.substr(starts[cuts[f] + 1], (cuts[f + 1] == 60 ? whole.size() : starts[cuts[f + 1] + 1]) -
                                                                    starts[cuts[f] + 1]));
        // Without mpirun one process reads the three: the code column, words in the first
        // file and numbers in the others, is read again as categories in those two.
        for (const int ranks : {1, 2, 4}) {
            CAPTURE(ranks);
            const std::string files = dir / ("files_" + std::to_string(ranks) + ".json");
            const std::string command = "kestrel-train --shards '" + (dir / "part-*.csv") +
                                        "' -m gbdt -p n_estimators=20 -p max_depth=3 -p min_child_weight=0 "
                                        "--label-col y --ignore-cols label -o '" + files + "'";
            REQUIRE(run_tool(ranks == 1 ? command : mpirun_sharded(ranks, command)).exit_code == 0);
            CHECK(load(files).at("features") == load(dir / "gbdt_one.json").at("features"));
            CHECK(model_difference(load(files), load(dir / "gbdt_one.json")) < 1e-9);
        }
        // tree_method=auto on shards is the histogram forest: text columns need tree_method=hist.
        const auto forest_auto = run_tool(mpirun_sharded(2, "kestrel-train --shard -m forest" + classes + " -o '" +
                                                                (dir / "auto.json") + "'"));
        CHECK(forest_auto.exit_code == 2);
        CHECK(forest_auto.err.find("give -p tree_method=hist") != std::string::npos);
        // --max-categories-hard counts the whole data's categories, not one rank's.
        const auto hard = run_tool(mpirun_sharded(3, "kestrel-train --shard -m ridge --max-categories-hard 7" + regression +
                                                         " -o '" + (dir / "hard.json") + "'"));
        CHECK(hard.exit_code == 2);
        CHECK(hard.err.find("column 'code' has 8 categories, more than --max-categories-hard (7)") != std::string::npos);
    }

    TEST_CASE("--shard: data-parallel gbdt grows the one-process trees, leaf values within 1e-9") {
        ScratchDir dir("mpi_shard_gbdt");
        const std::vector<std::string> runs = {
            // squared loss, depth-wise, with column sampling (the same draw on every rank)
            "-m gbdt -p n_estimators=30 -p max_depth=4 -p colsample=0.7 '" + repo_path("data/diabetes/train.csv") + "'",
            // softmax (three trees a round), leaf-wise
            "-m gbdt -p n_estimators=15 -p max_leaves=6 -p max_depth=0 '" + repo_path("data/iris/train.csv") + "'",
            // logistic on sparse LIBSVM rows, absent entries missing (the learned direction)
            "-m gbdt -p n_estimators=20 -p max_bins=16 '" + repo_path("data/heart_scale/train.libsvm") + "'",
        };
        for (std::size_t c = 0; c < runs.size(); ++c) {
            CAPTURE(runs[c]);
            const std::string one = dir / ("one" + std::to_string(c) + ".json");
            REQUIRE(run_tool("kestrel-train " + runs[c] + " -o '" + one + "'").exit_code == 0);
            for (const int ranks : {2, 3}) {
                CAPTURE(ranks);
                const std::string many = dir / ("many" + std::to_string(c) + "_" + std::to_string(ranks) + ".json");
                const auto r = run_tool(mpirun_sharded(ranks, "kestrel-train --shard --threads 1 " + runs[c] + " -o '" + many + "'"));
                REQUIRE(r.exit_code == 0);
                // Same features, thresholds (the same bins) and row counts; sums within rounding.
                CHECK(model_difference(load(many), load(one)) < 1e-9);
            }
        }
    }

    TEST_CASE("--shard: the histogram forest is the same model on 1, 2 and 3 ranks") {
        ScratchDir dir("mpi_shard_forest");
        // Classification: unit weights and whole bootstrap counts make every summed class
        // count exact, so the files are equal whatever the rank count (and --threads).
        const std::string iris = "-m forest -p n_estimators=15 -p tree_method=hist '" + repo_path("data/iris/train.csv") + "'";
        const std::string one = dir / "iris_one.json";
        REQUIRE(run_tool("kestrel-train --threads 2 " + iris + " -o '" + one + "'").exit_code == 0);
        for (const int ranks : {2, 3}) {
            CAPTURE(ranks);
            const std::string many = dir / ("iris_" + std::to_string(ranks) + ".json");
            REQUIRE(run_tool(mpirun_sharded(ranks, "kestrel-train --shard --threads 1 " + iris + " -o '" + many + "'"))
                        .exit_code == 0);
            Json a = load(many), b = load(one);
            a.erase("provenance");
            b.erase("provenance");
            CHECK(a == b);
        }
        // The out-of-bag accuracy: each rank scores its own rows, the hits and counts summed.
        const std::string oob_one = dir / "oob_one.json", oob_many = dir / "oob_many.json";
        REQUIRE(run_tool("kestrel-train " + iris + " -p oob=1 -o '" + oob_one + "'").exit_code == 0);
        REQUIRE(run_tool(mpirun_sharded(3, "kestrel-train --shard " + iris + " -p oob=1 -o '" + oob_many + "'")).exit_code ==
                0);
        CHECK(load(oob_many).at("state").at("oob_score") == load(oob_one).at("state").at("oob_score"));
        CHECK(load(oob_one).at("state").at("oob_score").get<double>() > 0.9);
        // tree_method=auto takes the histogram forest on shards: the same trees.
        const std::string autos = dir / "iris_auto.json";
        REQUIRE(run_tool(mpirun_sharded(2, "kestrel-train --shard -m forest -p n_estimators=15 '" +
                                               repo_path("data/iris/train.csv") + "' -o '" + autos + "'"))
                    .exit_code == 0);
        CHECK(load(autos).at("state") == load(one).at("state"));
        // Missing cells (every 7th numeric cell of iris emptied) have their own bin on every
        // rank; sparse LIBSVM rows are binned dense.
        const std::string whole = slurp(repo_path("data/iris/train.csv"));
        std::string holes;
        int cell = 0;
        for (std::size_t at = 0; at < whole.size();) {
            const std::size_t end = whole.find_first_of(",\n", at);
            const std::string field = whole.substr(at, end - at);
            const bool number = at > whole.find('\n') && !field.empty() && !std::isalpha(static_cast<unsigned char>(field[0]));
            holes += (number && ++cell % 7 == 0 ? std::string() : field) + whole[end];
            at = end + 1;
        }
        const std::string holes_csv = dir.file("holes.csv", holes);
        for (const std::string& data : {holes_csv, repo_path("data/heart_scale/train.libsvm")}) {
            CAPTURE(data);
            const std::string f = "-m forest -p n_estimators=10 -p tree_method=hist -p oob=1 '" + data + "'";
            const std::string plain = dir / "plain.json", sharded = dir / "sharded.json";
            REQUIRE(run_tool("kestrel-train " + f + " -o '" + plain + "'").exit_code == 0);
            REQUIRE(run_tool(mpirun_sharded(3, "kestrel-train --shard --threads 1 " + f + " -o '" + sharded + "'"))
                        .exit_code == 0);
            CHECK(load(sharded).at("state") == load(plain).at("state"));
        }
        // importance=permutation: each tree's out-of-bag values of the features it uses are
        // gathered, permuted as one process permutes them, and the errors summed: the
        // one-process importances (classification: the same file; regression: within 1e-9).
        for (const std::string& args : {"-m forest -p n_estimators=15 -p tree_method=hist -p importance=permutation '" +
                                            repo_path("data/iris/train.csv") + "'",
                                        "-m forest -p n_estimators=8 -p tree_method=hist -p importance=permutation -p "
                                        "max_samples=0.7 '" + repo_path("data/diabetes/train.csv") + "'"}) {
            CAPTURE(args);
            const std::string plain = dir / "perm_one.json", sharded = dir / "perm_three.json";
            REQUIRE(run_tool("kestrel-train " + args + " -o '" + plain + "'").exit_code == 0);
            REQUIRE(run_tool(mpirun_sharded(3, "kestrel-train --shard --threads 1 " + args + " -o '" + sharded + "'"))
                        .exit_code == 0);
            const Json a = load(sharded).at("state"), b = load(plain).at("state");
            CHECK(a.at("permutation_importances").size() == b.at("permutation_importances").size());
            CHECK(model_difference(Json{{"state", a}}, Json{{"state", b}}) < 1e-9);
            if (args.find("iris") != std::string::npos) CHECK(a == b);
        }
        // Regression: Σwy and Σwy² are added in another order on another rank count; the
        // splits are the same and the leaf means within rounding.
        const std::string diabetes = "-m forest -p n_estimators=10 -p tree_method=hist -p max_samples=0.7 -p oob=1 '" +
                                     repo_path("data/diabetes/train.csv") + "'";
        against_one_process(dir, "diabetes", diabetes, [](const Json& many, const Json& single) {
            CHECK(model_difference(many, single) < 1e-9);
        });
    }

    TEST_CASE("--shard: a rank whose part holds no row, and parts of unequal sizes") {
        ScratchDir dir("mpi_shard_small");
        // Four rows of very unequal lengths over four ranks: byte ranges that start and end
        // inside one long row leave a rank with nothing.
        const auto data = dir.file("small.csv", "y,a,b\n1.5,1,2\n2.25,0.5,-1.25000000000000000000000000000000000000000000\n"
                                                "-3,2,0.125\n0.5,-1,1\n");
        const std::string csv = " '" + data + "'";
        CHECK(sharded_difference(dir, "ridge", "-m ridge -p alpha=0.1" + csv, 4) < 1e-12);
        // gbdt too: the empty rank's histograms are zeros, its row counts 0.
        CHECK(sharded_difference(dir, "gbdt", "-m gbdt -p n_estimators=5 -p min_child_weight=0" + csv, 4) < 1e-12);
        // lasso: the covariance updates on the Gram of three ranks and an empty one.
        CHECK(sharded_difference(dir, "lasso", "-m lasso -p lambda=0.05 -p tol=1e-12" + csv, 4) < 1e-12);
        // least_squares qr: the empty rank's R is zeros, stacked with the others'.
        CHECK(sharded_difference(dir, "qr", "-m least_squares" + csv, 4) < 1e-10);
        // The histogram forest: an empty rank sends zero histograms; a tree whose draw of
        // four rows has no weight draws again, on every rank alike.
        CHECK(sharded_difference(dir, "forest", "-m forest -p n_estimators=20 -p tree_method=hist" + csv, 4) < 1e-12);
        // A text column: the empty rank sends no category and counts nothing.
        const auto words = dir.file("words.csv", "y,a,b\n1.5,red,2\n2.25,blue,-1.25000000000000000000000000000000000000000000\n"
                                                 "-3,red,0.125\n0.5,NA,1\n");
        for (const std::string model : {"-m ridge -p alpha=0.1", "-m gbdt -p n_estimators=5 -p min_child_weight=0"})
            CHECK(sharded_difference(dir, "words", model + " '" + words + "'", 4) < 1e-12);
        // The scalers: an empty rank adds no count, no sum, and −inf to the maxima.
        for (const std::string scale : {"standard", "minmax"}) {
            CAPTURE(scale);
            CHECK(sharded_difference(dir, scale, "-m ridge -p alpha=0.1 --scale " + scale + csv, 4) < 1e-12);
        }
    }

    TEST_CASE("--shards GLOB: each rank reads its own files, in sorted order; more ranks than files") {
        ScratchDir dir("mpi_shards");
        // diabetes' training rows in three files of unequal sizes, the header in each.
        const std::string whole = slurp(repo_path("data/diabetes/train.csv"));
        const std::string header = whole.substr(0, whole.find('\n') + 1);
        std::vector<std::string> rows;
        for (std::size_t at = header.size(); at < whole.size();) {
            const std::size_t nl = whole.find('\n', at);
            rows.push_back(whole.substr(at, nl - at + 1));
            at = nl + 1;
        }
        const std::size_t cuts[] = {0, 50, 300, rows.size()};
        for (int f = 0; f < 3; ++f) {
            std::string text = header;
            for (std::size_t i = cuts[f]; i < cuts[f + 1]; ++i) text += rows[i];
            dir.file("part-" + std::to_string(f) + ".csv", text);
        }
        const std::string glob = "'" + (dir / "part-*.csv") + "'";
        for (const std::string model : {"-m ridge -p alpha=2", "-m gbdt -p n_estimators=10 -p max_depth=3",
                                        "-m forest -p n_estimators=8 -p tree_method=hist"}) {
            CAPTURE(model);
            const std::string one = dir / "one.json";
            REQUIRE(run_tool("kestrel-train " + model + " '" + repo_path("data/diabetes/train.csv") + "' -o '" + one + "'")
                        .exit_code == 0);
            for (const int ranks : {2, 4}) {
                CAPTURE(ranks);
                const std::string many = dir / ("many" + std::to_string(ranks) + ".json");
                const auto r = run_tool(mpirun_sharded(ranks, "kestrel-train --shards " + glob + " " + model + " -o '" + many + "'"));
                REQUIRE(r.exit_code == 0);
                CHECK(model_difference(load(many), load(one)) < 1e-9);
            }
        }
        const auto none = run_tool("kestrel-train --shards '" + (dir / "nothing-*.csv") + "' -m ridge -o /dev/null");
        CHECK(none.exit_code == 1);
        CHECK(none.err.find("no file matches") != std::string::npos);
    }

    TEST_CASE("--shard: a bad cell in a later rank's part names that rank and the whole file's line") {
        ScratchDir dir("mpi_shard_bad");
        std::string csv = "y,a,b\n";
        for (int i = 0; i < 200; ++i) csv += std::to_string(i % 7) + "," + std::to_string(i) + ",1\n";
        csv += "3,oops,1\n";  // line 202, in the last rank's part
        for (int i = 0; i < 5; ++i) csv += "1,2,3\n";
        const auto data = dir.file("bad.csv", csv);
        // --numeric a: the cell is an error at its line of the whole file, from rank 2.
        const auto r = run_tool(mpirun_sharded(3, "kestrel-train --shard --numeric a -m ridge '" + data + "' -o '" +
                                                      (dir / "m.json") + "'"));
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("kestrel-train: rank 2: " + data + ":202:2:") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "m.json"));
    }

    TEST_CASE("--shard refuses what it cannot fit on parts, before reading") {
        const std::string iris = repo_path("data/iris/train.csv");
        const auto svc = run_tool(mpirun_sharded(2, "kestrel-train --shard -m svc '" + iris + "' -o /dev/null"));
        const auto sub = run_tool(mpirun_sharded(2, "kestrel-train --shard -m gbdt -p subsample=0.5 '" + iris + "' -o /dev/null"));
        CHECK(sub.exit_code == 1);
        CHECK(sub.err.find("--shard: model gbdt with these parameters cannot") != std::string::npos);
        CHECK(svc.exit_code == 1);
        CHECK(svc.err.find("--shard: model svc with these parameters cannot train on rows spread over ranks") !=
              std::string::npos);
        const auto cauto = run_tool(mpirun_sharded(2, "kestrel-train --shard -m logistic -p C=auto '" + iris + "' -o /dev/null"));
        CHECK(cauto.exit_code == 1);
        // least_squares: the normal equations and qr (svd and gd would need the rows);
        // lasso: only covariance updates (naive keeps a residual per row).
        const std::string diabetes = "'" + repo_path("data/diabetes/train.csv") + "'";
        for (const std::string& refused : {std::string("least_squares -p solver=gd"), std::string("least_squares -p solver=svd"),
                                           std::string("lasso -p updates=naive")}) {
            CAPTURE(refused);
            const auto r = run_tool(mpirun_sharded(2, "kestrel-train --shard -m " + refused + " " + diabetes + " -o /dev/null"));
            CHECK(r.exit_code == 1);
            CHECK(r.err.find("--shard: model " + refused.substr(0, refused.find(' ')) +
                             " with these parameters cannot train on rows spread over ranks") != std::string::npos);
        }
        // forest: the histogram trees grow level by level, and cannot weigh classes by counts
        // one rank's rows give.
        for (const std::string& refused :
             {std::string("forest -p max_leaf_nodes=8"), std::string("forest -p class_weight=balanced"),
              std::string("forest -p tree_method=exact")}) {
            CAPTURE(refused);
            const auto r = run_tool(mpirun_sharded(2, "kestrel-train --shard -m " + refused + " '" + iris + "' -o /dev/null"));
            CHECK(r.exit_code == 1);
            CHECK(r.err.find("--shard: model forest with these parameters cannot train on rows spread over ranks") !=
                  std::string::npos);
        }
    }
#endif
}

}  // namespace cli_mpi_shard_test
}  // namespace
