#pragma once
// Writing a fitted model in another toolkit's format (docs/exchange.md): ONNX (the
// ai.onnx.ml operators, for ONNX Runtime and the scorers that read ONNX) and XGBoost's
// JSON model. What a format cannot express is refused (ExportRefused), never approximated.
#include <string>
#include <string_view>

#include "kestrel/core/error.hpp"

namespace kestrel {

class Model;

enum class ExportFormat { onnx, xgboost_json };

// "onnx" or "xgboost-json" (UsageError naming the option "to" otherwise).
ExportFormat export_format_from_string(std::string_view s);
const char* to_string(ExportFormat f);

struct ExportOptions {
    // ONNX classifiers: the probabilities as ZipMap's sequence of {class: probability}
    // maps (skl2onnx's default) instead of an [N, classes] tensor.
    bool zipmap = false;
};

// A model, or a step of its pipeline, that the format cannot express: exit 2, as the model
// file is the input that cannot be written there. The message names the format and the part.
class ExportRefused : public Error {
public:
    explicit ExportRefused(const std::string& what) : Error(ExitCode::bad_input, what) {}
};

// The bytes of the exported file.
std::string export_model(const Model& model, ExportFormat format, const ExportOptions& options);

}  // namespace kestrel
