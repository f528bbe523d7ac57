#pragma once
// A fitted Model as an ONNX file (docs/exchange.md): one graph input per column of the
// training table, named after it (float for a numeric column, string for a categorical
// one), the fitted preprocessing steps as standard operators, the estimator as its
// ai.onnx.ml operator, and skl2onnx's outputs: `label` and `probabilities` for a
// classifier, `variable` for a regressor. Opsets: default domain 15, ai.onnx.ml 3 (both
// known to Debian's onnx 1.12 and to ONNX Runtime).
#include <string>

#include "kestrel/exchange/export.hpp"

namespace kestrel {

inline constexpr int kOnnxDefaultOpset = 15;
inline constexpr int kOnnxMlOpset = 3;

// ExportRefused naming the model or step ONNX cannot express.
std::string model_to_onnx(const Model& model, const ExportOptions& options);

}  // namespace kestrel
