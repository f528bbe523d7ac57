// One line per model that declares a search space.
#include "kestrel/pipeline/search_spaces.hpp"

#include <map>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/kernel_methods/knn.hpp"
#include "kestrel/linear/least_squares.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/linear/ridge.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"

namespace kestrel {

const SearchSpace& search_space(const std::string& name) {
    static const std::map<std::string, SearchSpace> spaces = {
        {"gbdt", gbdt_search_space()},
        {"forest", forest_search_space()},
        {"tree", tree_search_space()},
        {"logistic", logistic_search_space()},
        {"linear_svm", linear_svm_search_space()},
        {"ridge", ridge_search_space()},
        {"least_squares", least_squares_search_space()},
        {"knn", knn_search_space()},
        {"svc", svc_search_space()},
        {"svr", svr_search_space()},
    };
    static const SearchSpace none;
    (void)registry().info(name);  // an unknown name is a UsageError listing the models
    const auto it = spaces.find(name);
    return it == spaces.end() ? none : it->second;
}

}  // namespace kestrel
