#pragma once
// kestrel-train --kernel-info: the kernel diagnostics of -m MODEL's kernel parameters
// on the training data (after the model's preprocessing), printed instead of training.
#include "common/cli.hpp"

namespace kestrel::cli {

int print_kernel_info(const ModelSpec& spec, const std::string& input, const DataFlags& data,
                      const CommonFlags& common, Io& io);

}  // namespace kestrel::cli
