#include "kestrel/model_selection/shap_summary.hpp"

#include <algorithm>
#include <numeric>

#include "kestrel/core/error.hpp"

namespace kestrel {

ShapSummary shap_summary(const Model& model, const Features& X) {
    (void)model.contribution_sources();  // the refusal, before any work
    if (X.rows() == 0) throw DataError("the SHAP summary needs at least one row");
    const Matrix c = model.contributions(X);
    const Index d = model.n_features();
    const Index outputs = c.cols() / (d + 1);
    ShapSummary s;
    s.features = model.input_names();
    if (outputs == 1)
        s.outputs = {"output"};
    else
        for (Index o = 0; o < outputs; ++o)
            s.outputs.push_back(static_cast<std::size_t>(o) < model.classes().size()
                                    ? model.classes()[static_cast<std::size_t>(o)]
                                    : std::to_string(o));
    s.mean_abs = Matrix::Zero(d, outputs);
    for (Index o = 0; o < outputs; ++o)
        for (Index j = 0; j < d; ++j) s.mean_abs(j, o) = c.col(o * (d + 1) + j).cwiseAbs().mean();
    s.total = s.mean_abs.rowwise().sum();
    s.order.resize(static_cast<std::size_t>(d));
    std::iota(s.order.begin(), s.order.end(), 0);
    std::stable_sort(s.order.begin(), s.order.end(), [&](Index a, Index b) { return s.total[a] > s.total[b]; });
    return s;
}

}  // namespace kestrel
