// Train a model on a CSV file, save it, and stream a second file's predictions through
// the library's task floor (kestrel/tasks/predict_stream.hpp): the input is read in
// pieces, scored in parallel and written in input order, the same bytes as
// `kestrel-predict MODEL.json TEST.csv --proba`, then scored against its labels.
//
//   stream_predict TRAIN.csv TEST.csv MODEL.json [MODEL_NAME]
//
// Writes the predictions (CSV) on stdout and the accuracy or RMSE on stderr; exits as
// the kestrel commands do (1 usage, 2 bad input, 3 internal error).
#include <cmath>
#include <exception>
#include <iostream>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/predict_stream.hpp"

namespace {

void print_score(const kestrel::Model& model, const kestrel::Predictions& p) {
    const auto n = static_cast<double>(p.y_true.size());
    if (model.task() == kestrel::Task::classification) {
        const auto right = (p.y_true.array() == p.y_pred.array()).count();
        std::cerr << model.model_name() << " accuracy " << static_cast<double>(right) / n << " on " << p.y_true.size()
                  << " rows\n";
    } else {
        std::cerr << model.model_name() << " rmse " << std::sqrt((p.y_pred - p.y_true).squaredNorm() / n) << " on "
                  << p.y_true.size() << " rows\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4 || argc > 5) {
        std::cerr << "usage: stream_predict TRAIN.csv TEST.csv MODEL.json [MODEL_NAME]\n";
        return 1;
    }
    try {
        kestrel::ModelSpec spec;
        spec.model = argc == 5 ? argv[4] : "logistic";
        kestrel::ReadOptions read;
        read.missing = kestrel::MissingPolicy::keep;  // as the commands read: a missing cell is NaN
        kestrel::Table train = kestrel::read_table(argv[1], read);
        if (!train.labels) throw kestrel::DataError(train.source + ": no label column");
        const kestrel::Task task = kestrel::choose_task(spec, *train.labels);
        kestrel::Model::train(spec, kestrel::make_dataset(std::move(train), task), kestrel::Context{}).save(argv[3]);
        const kestrel::Model model = kestrel::Model::load(argv[3]);

        kestrel::PredictRequest request;
        request.input = argv[2];
        request.model_path = argv[3];
        request.read = read;
        request.proba = model.task() == kestrel::Task::classification && model.has_predict_proba();
        request.metrics = true;
        request.chunk_bytes = 256;  // small pieces, to show the stream: the bytes do not depend on it
        const kestrel::PredictResult result = kestrel::predict_stream(
            model, request, [](std::string_view piece) { std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size())); },
            kestrel::Context{});
        std::cout.flush();
        if (!std::cout) throw kestrel::OutputError("cannot write the predictions to standard output");
        print_score(model, result.predictions);
        return 0;
    } catch (const kestrel::Error& e) {
        std::cerr << "stream_predict: " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cerr << "stream_predict: internal error: " << e.what() << "\n";
        return 3;
    }
}
