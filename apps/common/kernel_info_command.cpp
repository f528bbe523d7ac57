#include "common/kernel_info_command.hpp"

#include <ostream>

#include "kestrel/core/error.hpp"
#include "kestrel/kernels/kernel_info.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/transformer.hpp"

namespace kestrel::cli {

int print_kernel_info(const ModelSpec& spec, const std::string& input, const DataFlags& data,
                      const CommonFlags& common, Io& io) {
    const ModelInfo& info = registry().info(spec.model);
    if (!info.spec.find("kernel"))
        throw UsageError("--kernel-info: model " + spec.model + " has no kernel (try svc, kernel_ridge, kernel_logistic)");
    const Params p = resolved_params(spec)->values();
    const Context ctx = common.context(io);
    Dataset train = read_training_data(data.training_options(input, ctx), spec);
    // The kernel sees the data as the model would: after its preprocessing steps.
    for (const auto& kind : spec.preprocessing) {
        auto step = make_transformer(kind);
        step->fit(train.X);
        train.X = step->transform(train.X);
    }
    const KernelInfo k = kernel_info(p, train.X, ctx);
    if (common.json) io.out << k.to_json().dump(2) << "\n";
    else io.out << k.to_text();
    return 0;
}

}  // namespace kestrel::cli
