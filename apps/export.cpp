// kestrel-export: the body is kestrel::cli::run_export (apps/common/run_export.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) { return kestrel::cli::main_entry("kestrel-export", kestrel::cli::run_export, argc, argv); }
