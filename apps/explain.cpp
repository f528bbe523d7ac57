// kestrel-explain: the body is kestrel::cli::run_explain (apps/common/run_explain.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) {
    return kestrel::cli::main_entry("kestrel-explain", kestrel::cli::run_explain, argc, argv);
}
