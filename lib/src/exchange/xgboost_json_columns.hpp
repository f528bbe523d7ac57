#pragma once
// The columns an exported tree model splits, followed back through the model's fitted
// preprocessing to the input columns XGBoost is given: a scaler's split x' <= T is the
// input's x <= (T - b) / a (x' = a x + b, a > 0), and an imputer's fill sends the missing
// cells where the fill value goes. A step that does not keep each column as one column
// (one-hot, polynomial features, a missing indicator) is refused, naming it.
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

// ModelStateError (exit 2): "XGBoost JSON cannot hold this model: why".
[[noreturn]] void refuse_xgboost_json(const std::string& why);

class ColumnMap {
public:
    // From a model file's JSON (Model::to_json): features and preprocessing.
    explicit ColumnMap(const Json& envelope);

    struct Split {
        int column = 0;          // the input column
        double threshold = 0;    // left when the input x <= threshold
        bool missing_left = false;
    };
    // A numeric split of the model's feature `feature` at `threshold`.
    Split split(int feature, double threshold, bool missing_left) const;
    // A categorical split: `right` the codes that go right (a fill code decides the missing side).
    Split categorical_split(int feature, bool missing_left, const std::vector<int>& right) const;

    Index width() const { return width_; }
    std::string name(Index column) const;
    bool categorical(Index column) const;
    bool any_categorical() const;

private:
    struct Column {
        int source = 0;       // input column
        double a = 1, b = 0;  // the model sees a x + b
        bool has_fill = false;
        double fill = 0;      // what a missing cell becomes, in the model's space
        std::string scaled_by;  // the step whose scale was not positive (refused at a split)
    };
    const Column& column(int feature) const;
    Index width_ = 0;
    std::vector<std::string> names_;
    CategoryLists categories_;
    std::vector<Column> columns_;  // per feature the model sees
};

}  // namespace kestrel
