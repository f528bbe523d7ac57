// kestrel-predict: the body is kestrel::cli::run_predict (apps/common/run_predict.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-predict", kestrel::cli::run_predict, argc, argv); }
