// kestrel-gridsearch: the body is kestrel::cli::run_gridsearch (apps/common/run_gridsearch.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-gridsearch", kestrel::cli::run_gridsearch, argc, argv); }
