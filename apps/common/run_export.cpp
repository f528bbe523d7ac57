#include "common/commands.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/exchange/export.hpp"
#include "kestrel/io/atomic_file.hpp"

// kestrel-export: a saved model written in another toolkit's format (docs/exchange.md).
namespace kestrel::cli {

int run_export(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Write a saved model in another format: ONNX (for ONNX Runtime) or XGBoost's JSON model.\n"
                 "  kestrel-export MODEL.json --to onnx|xgboost-json -o FILE [--zipmap]",
                 "kestrel-export"};
    CommonFlags common;
    common.add_to(app);
    std::string model_path, to, output;
    ExportOptions options;
    app.add_option("MODEL", model_path, "model file written by kestrel-train")->type_name("FILE")->required();
    app.add_option("--to", to, "the format: onnx or xgboost-json")
        ->type_name("FORMAT")
        ->required()
        ->check(CLI::IsMember({"onnx", "xgboost-json"}));
    app.add_option("-o,--output", output, "the file to write (- for stdout); nothing is written when the model is refused")
        ->type_name("FILE")
        ->required();
    app.add_flag("--zipmap", options.zipmap,
                 "onnx classifiers: probabilities as ZipMap's sequence of {class: probability} maps, as skl2onnx's "
                 "default, instead of an [N, classes] tensor");
    if (!parse(app, args, io)) return 0;
    const ExportFormat format = export_format_from_string(to);
    if (options.zipmap && format != ExportFormat::onnx) throw UsageError("--zipmap is an option of --to onnx");

    const Model model = Model::load(model_path);
    std::string bytes;
    try {
        bytes = export_model(model, format, options);
    } catch (const ExportRefused& e) {
        throw ExportRefused(model_path + ": " + e.what());
    }
    write_file_atomically(output, bytes);
    return 0;
}

}  // namespace kestrel::cli
