// kestrel-select: the body is kestrel::cli::run_select (apps/common/run_select.cpp), tested in process.
#include "common/commands.hpp"

int main(int argc, char** argv) {
    return kestrel::cli::main_entry("kestrel-select", kestrel::cli::run_select, argc, argv);
}
