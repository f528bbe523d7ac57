// kestrel-cv: the body is kestrel::cli::run_cv (apps/common/run_cv.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-cv", kestrel::cli::run_cv, argc, argv); }
