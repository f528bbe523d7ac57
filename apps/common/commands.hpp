#pragma once
// The eight command bodies (train, predict, cv, gridsearch, select, explain, auto, export); apps/*.cpp are one-line mains around them.
#include "common/cli.hpp"

namespace kestrel::cli {

int run_train(const std::vector<std::string>& args, Io& io);
int run_predict(const std::vector<std::string>& args, Io& io);
int run_cv(const std::vector<std::string>& args, Io& io);
int run_gridsearch(const std::vector<std::string>& args, Io& io);
int run_select(const std::vector<std::string>& args, Io& io);
int run_explain(const std::vector<std::string>& args, Io& io);
int run_auto(const std::vector<std::string>& args, Io& io);
int run_export(const std::vector<std::string>& args, Io& io);

}  // namespace kestrel::cli
