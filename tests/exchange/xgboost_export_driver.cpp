// The test driver of model_to_xgboost_json (tests/exchange/xgboost_exchange_test.py):
//   kestrel_xgboost_export MODEL.json OUT.json
// writes the model as XGBoost 1.7's JSON; errors as the commands print them (one line,
// the library's exit code). The command of issue 48 (kestrel-export) is the user's way.
#include <iostream>

#include "kestrel/core/error.hpp"
#include "kestrel/exchange/xgboost_json.hpp"
#include "kestrel/io/atomic_file.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: kestrel_xgboost_export MODEL.json OUT.json\n";
        return 1;
    }
    try {
        const kestrel::Model model = kestrel::Model::load(argv[1]);
        kestrel::write_file_atomically(argv[2], kestrel::model_to_xgboost_json(model));
    } catch (const kestrel::Error& e) {
        std::cerr << "kestrel_xgboost_export: " << e.what() << "\n";
        return static_cast<int>(e.code());
    }
    return 0;
}
