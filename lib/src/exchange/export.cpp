#include "kestrel/exchange/export.hpp"

#include "kestrel/exchange/onnx_export.hpp"
#include "kestrel/exchange/xgboost_json.hpp"

namespace kestrel {

ExportFormat export_format_from_string(std::string_view s) {
    if (s == "onnx") return ExportFormat::onnx;
    if (s == "xgboost-json") return ExportFormat::xgboost_json;
    throw UsageError(option_named("to") + " '" + std::string(s) + "': unknown format (valid: onnx, xgboost-json)");
}

const char* to_string(ExportFormat f) { return f == ExportFormat::onnx ? "onnx" : "xgboost-json"; }

std::string export_model(const Model& model, ExportFormat format, const ExportOptions& options) {
    switch (format) {
        case ExportFormat::onnx: return model_to_onnx(model, options);
        case ExportFormat::xgboost_json: return model_to_xgboost_json(model);
    }
    throw InternalError("export_model: unknown format");
}

}  // namespace kestrel
