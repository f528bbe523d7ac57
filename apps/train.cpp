// kestrel-train: the body is kestrel::cli::run_train (apps/common/run_train.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-train", kestrel::cli::run_train, argc, argv); }
