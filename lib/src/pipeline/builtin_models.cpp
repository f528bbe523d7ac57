// One explicit line per built-in model (docs/architecture.md: static self-registration is
// dropped by the linker in static libraries).
#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/kernel_methods/kernel_logistic.hpp"
#include "kestrel/kernel_methods/kernel_perceptron.hpp"
#include "kestrel/kernel_methods/kernel_ridge.hpp"
#include "kestrel/kernel_methods/knn.hpp"
#include "kestrel/linear/elastic_net.hpp"
#include "kestrel/linear/huber.hpp"
#include "kestrel/linear/least_squares.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/linear/linear_svr.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/linear/lp_svm.hpp"
#include "kestrel/linear/perceptron.hpp"
#include "kestrel/linear/quantile.hpp"
#include "kestrel/linear/ridge.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"

namespace kestrel {

void register_builtin_models(Registry& r) {
    r.add("ridge", ridge_model_info);
    r.add("logistic", logistic_model_info);
    r.add("least_squares", least_squares_model_info);
    r.add("lasso", lasso_model_info);
    r.add("elastic_net", elastic_net_model_info);
    r.add("perceptron", perceptron_model_info);
    r.add("linear_svm", linear_svm_model_info);
    r.add("linear_svr", linear_svr_model_info);
    r.add("lad", lad_model_info);
    r.add("quantile", quantile_model_info);
    r.add("huber", huber_model_info);
    r.add("lp_svm", lp_svm_model_info);
    r.add("svc", svc_model_info);
    r.add("nu_svc", nu_svc_model_info);
    r.add("svr", svr_model_info);
    r.add("nu_svr", nu_svr_model_info);
    r.add("one_class", one_class_model_info);
    r.add("tree", tree_model_info);
    r.add("forest", forest_model_info);
    r.add("adaboost", [&r] { return adaboost_model_info(r); });
    r.add("gbdt", gbdt_model_info);
    r.add("kernel_ridge", kernel_ridge_model_info);
    r.add("kernel_logistic", kernel_logistic_model_info);
    r.add("kernel_perceptron", kernel_perceptron_model_info);
    r.add("knn", knn_model_info);
}

}  // namespace kestrel
