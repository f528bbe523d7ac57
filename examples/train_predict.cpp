// Train a model on a CSV file, save it, load it back and predict a second file: the
// library's public surface used the way an outside program uses it (docs/library.md).
//
//   train_predict TRAIN.csv TEST.csv MODEL.json [MODEL_NAME]
//
// Prints the test accuracy (classification) or RMSE (regression) on stdout; exits as
// the kestrel commands do (1 usage, 2 bad input, 3 internal error).
#include <cmath>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/io/data_reader.hpp"

int main(int argc, char** argv) {
    if (argc < 4 || argc > 5) {
        std::cerr << "usage: train_predict TRAIN.csv TEST.csv MODEL.json [MODEL_NAME]\n";
        return 1;
    }
    try {
        // What `kestrel-train -m logistic -p C=1 --scale standard` builds.
        kestrel::ModelSpec spec;
        spec.model = argc == 5 ? argv[4] : "logistic";
        spec.preprocessing = {"standard"};
        if (spec.model == "logistic") spec.params["C"] = "1";  // text, typed by the model's ParamSpec

        kestrel::Table train = kestrel::read_table(argv[1], kestrel::ReadOptions{});
        if (!train.labels) throw kestrel::DataError(train.source + ": no label column");
        const kestrel::Task task = kestrel::choose_task(spec, *train.labels);
        kestrel::Model trained = kestrel::Model::train(spec, kestrel::make_dataset(std::move(train), task), kestrel::Context{});
        trained.save(argv[3]);

        const kestrel::Model model = kestrel::Model::load(argv[3]);
        // The test file is read the way the model was trained (format, label, features).
        kestrel::Table test = kestrel::read_table(argv[2], model.align_options(kestrel::ReadOptions{}));
        if (!test.labels) throw kestrel::DataError(test.source + ": no label column");
        const kestrel::Vector predicted = model.predict(test.X);

        if (model.task() == kestrel::Task::classification) {
            std::vector<std::string> classes = model.classes();
            const kestrel::Vector truth = kestrel::encode_with_classes(*test.labels, classes);
            long right = 0;
            for (kestrel::Index i = 0; i < predicted.size(); ++i) right += predicted[i] == truth[i];
            std::cout << model.model_name() << " accuracy " << static_cast<double>(right) / static_cast<double>(predicted.size())
                      << " on " << predicted.size() << " rows\n";
        } else {
            const kestrel::Vector truth = kestrel::numeric_targets(*test.labels, test.source);
            std::cout << model.model_name() << " rmse " << std::sqrt((predicted - truth).squaredNorm() / static_cast<double>(predicted.size()))
                      << " on " << predicted.size() << " rows\n";
        }
        return 0;
    } catch (const kestrel::Error& e) {
        std::cerr << "train_predict: " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cerr << "train_predict: internal error: " << e.what() << "\n";
        return 3;
    }
}
