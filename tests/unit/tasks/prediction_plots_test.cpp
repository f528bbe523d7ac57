// The curve table and pictures of scored predictions (kestrel/tasks/prediction_plots.hpp),
// on the four-row example of scikit-learn's roc_curve documentation: truths 0 0 1 1, scores
// 0.1 0.4 0.35 0.8. Its points are worked by hand below (sklearn 1.2's conventions: the
// ROC curve starts at threshold max + 1, drops collinear points; the PR curve ends at
// precision 1, recall 0 with no threshold); AUC 0.75 and AP 5/6 as sklearn's docs give them.
#include "kestrel/tasks/prediction_plots.hpp"

#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_prediction_plots_test {

using namespace kestrel;

namespace {

Predictions four_rows() {
    Predictions p;
    p.task = Task::classification;
    p.y_true = Eigen::Vector4d(0, 0, 1, 1);
    p.y_pred = Eigen::Vector4d(0, 1, 0, 1);
    p.decision = Eigen::Vector4d(0.1, 0.4, 0.35, 0.8);
    p.classes = {"neg", "pos"};
    return p;
}

}  // namespace

TEST_SUITE("tasks") {
    TEST_CASE("prediction_curves_csv: the ROC and PR points of the four-row example, worked by hand") {
        CHECK(prediction_curves_csv(four_rows()) ==
              "curve,class,threshold,fpr,tpr,precision,recall\n"
              "roc,pos,1.8,0,0,,\n"
              "roc,pos,0.8,0,0.5,,\n"
              "roc,pos,0.4,0.5,0.5,,\n"
              "roc,pos,0.35,0.5,1,,\n"
              "roc,pos,0.1,1,1,,\n"
              "pr,pos,0.1,,,0.5,1\n"
              "pr,pos,0.35,,,0.6666666666666666,1\n"
              "pr,pos,0.4,,,0.5,0.5\n"
              "pr,pos,0.8,,,1,0.5\n"
              "pr,pos,,,,1,0\n");
    }

    TEST_CASE("prediction_plot_svg: titles and legends of each kind") {
        const Predictions p = four_rows();
        const std::string roc = prediction_plot_svg("roc", p, "logistic on iris/test.csv");
        CHECK(roc.find("ROC curve, positive class pos (logistic on iris/test.csv)") != std::string::npos);
        CHECK(roc.find("AUC = 0.750") != std::string::npos);
        CHECK(prediction_plot_svg("pr", p, "").find("AP = 0.833") != std::string::npos);
        CHECK(prediction_plot_svg("confusion", p, "").find("Confusion matrix") != std::string::npos);
    }

    TEST_CASE("prediction plots: refusals in the library's words and as a command prints them") {
        Predictions one_class = four_rows();
        one_class.y_true.setZero();
        const std::string single = " the labels hold a single class, so there is no curve to draw (it needs "
                                   "positives and negatives)";
        CHECK_THROWS_WITH_AS((prediction_plot_svg("roc", one_class, "")), ("plot roc:" + single).c_str(), DataError);
        CHECK_COMMAND_THROWS_WITH_AS((prediction_plot_svg("roc", one_class, "")), "--plot roc:" + single, DataError);
        CHECK_COMMAND_THROWS_WITH_AS(prediction_curves_csv(one_class), "--curves:" + single, DataError);
        CHECK_THROWS_WITH_AS((prediction_plot_svg("calibration", four_rows(), "")),
                             "plot calibration needs probabilities, which these predictions do not hold", UsageError);
        CHECK_COMMAND_THROWS_WITH_AS((prediction_plot_svg("heat", four_rows(), "")),
                                     "--plot heat: not a plot of predictions (roc, pr, confusion, calibration)",
                                     UsageError);
    }

    TEST_CASE("plot_source_name: the last two path components") {
        CHECK(plot_source_name("/data/sets/iris/test.csv") == "iris/test.csv");
        CHECK(plot_source_name("test.csv") == "test.csv");
        CHECK(plot_source_name("/test.csv") == "/test.csv");
        CHECK(plot_source_name("iris/test.csv") == "iris/test.csv");
    }
}

}  // namespace unit_tasks_prediction_plots_test
}  // namespace
