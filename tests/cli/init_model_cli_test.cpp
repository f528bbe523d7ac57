// kestrel-train --init-model: gbdt continued from its saved file equals the model trained
// on all the rounds at once; models, data and kinds that do not fit are refused.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_init_model_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {

std::string penguins(const std::string& part) { return test::repo_path("data/tables/penguins/" + part + ".csv"); }

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("--init-model: 10 rounds continued by 6 give the 16-round model's state and predictions") {
        test::ScratchDir dir("init_model_equal");
        const std::string train = penguins("train"), test = penguins("test");
        const std::vector<std::string> common{"-m", "gbdt", "-p", "subsample=0.8", "-p", "colsample=0.8",
                                              "--label-col", "species", "--seed", "5", train};
        const auto with = [&](std::vector<std::string> extra) {
            std::vector<std::string> a = common;
            a.insert(a.end(), extra.begin(), extra.end());
            return a;
        };
        auto once = run(run_train, "kestrel-train", with({"-p", "n_estimators=16", "-o", dir / "once.json"}));
        REQUIRE_MESSAGE(once.code == 0, once.err);
        auto first = run(run_train, "kestrel-train", with({"-p", "n_estimators=10", "-o", dir / "first.json"}));
        REQUIRE_MESSAGE(first.code == 0, first.err);
        auto more = run(run_train, "kestrel-train",
                        with({"-p", "n_estimators=6", "--init-model", dir / "first.json", "-o", dir / "more.json"}));
        REQUIRE_MESSAGE(more.code == 0, more.err);
        const Json a = Json::parse(test::slurp(dir / "once.json")), b = Json::parse(test::slurp(dir / "more.json"));
        CHECK(a["state"] == b["state"]);
        CHECK(b["state"]["trees"].size() == 16 * 3);
        CHECK(b["provenance"]["init_model"] == dir / "first.json");
        for (const char* name : {"once", "more"}) {
            auto p = run(run_predict, "kestrel-predict",
                         {dir / (std::string(name) + ".json"), test, "--label-col", "species", "--proba", "-o",
                          dir / (std::string(name) + ".csv")});
            REQUIRE_MESSAGE(p.code == 0, p.err);
        }
        CHECK(test::slurp(dir / "once.csv") == test::slurp(dir / "more.csv"));
    }

    TEST_CASE("--init-model: another kind of model exits 1, data that does not match exits 2") {
        test::ScratchDir dir("init_model_errors");
        const std::string train = dir.file("t.csv", "y,a,b\nx,1,p\nz,2,q\nx,3,p\nz,4,q\nx,5,q\nz,6,p\n");
        auto g = run(run_train, "kestrel-train", {"-m", "gbdt", "-p", "n_estimators=2", train, "-o", dir / "g.json"});
        REQUIRE_MESSAGE(g.code == 0, g.err);
        auto l = run(run_train, "kestrel-train", {"-m", "logistic", train, "-o", dir / "l.json"});
        REQUIRE_MESSAGE(l.code == 0, l.err);
        const auto out = dir / "m.json";

        auto wrong_kind = run(run_train, "kestrel-train", {"-m", "gbdt", train, "--init-model", dir / "l.json", "-o", out});
        CHECK(wrong_kind.code == 1);
        CHECK(wrong_kind.err.find("the model to continue is a logistic model, not gbdt") != std::string::npos);
        auto cannot = run(run_train, "kestrel-train", {"-m", "svc", train, "--init-model", dir / "g.json", "-o", out});
        CHECK(cannot.code == 1);
        CHECK(cannot.err.find("model svc cannot continue training") != std::string::npos);
        auto loss = run(run_train, "kestrel-train",
                        {"-m", "gbdt", "-p", "loss=softmax", train, "--init-model", dir / "g.json", "-o", out});
        CHECK(loss.code == 1);
        CHECK(loss.err.find("trained with loss=logistic, this fit has loss=softmax") != std::string::npos);
        auto steps = run(run_train, "kestrel-train",
                         {"-m", "gbdt", "--scale", "standard", train, "--init-model", dir / "g.json", "-o", out});
        CHECK(steps.code == 1);

        const std::string renamed = dir.file("r.csv", "y,a,c\nx,1,p\nz,2,q\n");
        auto names = run(run_train, "kestrel-train", {"-m", "gbdt", renamed, "--init-model", dir / "g.json", "-o", out});
        CHECK(names.code == 2);
        CHECK(names.err.find("the feature names differ from the model to continue's (a,b)") != std::string::npos);
        const std::string classes = dir.file("c.csv", "y,a,b\nx,1,p\nw,2,q\n");
        auto cls = run(run_train, "kestrel-train", {"-m", "gbdt", classes, "--init-model", dir / "g.json", "-o", out});
        CHECK(cls.code == 2);
        CHECK(cls.err.find("the classes (w,x) differ from the model to continue's (x,z)") != std::string::npos);
        const std::string cats = dir.file("k.csv", "y,a,b\nx,1,p\nz,2,s\n");
        auto cat = run(run_train, "kestrel-train", {"-m", "gbdt", cats, "--init-model", dir / "g.json", "-o", out});
        CHECK(cat.code == 2);
        CHECK(cat.err.find("the categories of feature b differ") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
    }
}

}  // namespace cli_init_model_cli_test
}  // namespace
