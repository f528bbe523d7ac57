// kestrel-auto: the body is kestrel::cli::run_auto (apps/common/run_auto.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-auto", kestrel::cli::run_auto, argc, argv); }
