#include "kestrel/pipeline/missing_option.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/preprocess/encoders.hpp"

namespace kestrel {

MissingOption split_missing_option(const std::string& missing) {
    if (missing == "error") return {MissingPolicy::error, "auto"};
    if (missing == "drop") return {MissingPolicy::drop, "auto"};
    if (missing == "auto" || missing == "keep" || missing == "mean" || missing == "median" ||
        missing == "most_frequent")
        return {MissingPolicy::keep, missing};
    if (missing.rfind("constant:", 0) == 0 && missing.find(',') == std::string::npos) {
        const std::string model = "constant=" + missing.substr(9);
        make_impute_step("impute:" + model);  // a bad value fails before any data is read
        return {MissingPolicy::keep, model};
    }
    throw UsageError(option_named("missing") + ": '" + missing +
                     "' is not one of auto, keep, error, drop, mean, median, most_frequent, constant:VALUE");
}

}  // namespace kestrel
