#include "common/signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "kestrel/io/atomic_file.hpp"

namespace kestrel::cli {
namespace {

const char* program_name = "kestrel";
volatile sig_atomic_t say_interrupted = 1;

void write_stderr(const char* s) {
    // write(2) only: the handler may interrupt stdio or the allocator mid-call.
    const ssize_t n = ::write(STDERR_FILENO, s, std::strlen(s));
    (void)n;
}

extern "C" void on_terminating_signal(int sig) {
    remove_unfinished_outputs();
    if (say_interrupted != 0) {
        write_stderr(program_name);
        write_stderr(": interrupted\n");
    }
    ::_exit(128 + sig);
}

}  // namespace

void install_signal_handlers(const char* program) {
    program_name = program;
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = on_terminating_signal;
        ::sigemptyset(&sa.sa_mask);
        // Block the other terminating signals while one is handled: one message, one exit.
        ::sigaddset(&sa.sa_mask, SIGINT);
        ::sigaddset(&sa.sa_mask, SIGTERM);
        ::sigaddset(&sa.sa_mask, SIGHUP);
        ::sigaction(sig, &sa, nullptr);
    }
    // An inherited "ignore SIGPIPE" would turn a closed pipe into write errors;
    // the default (end quietly) is what a filter in a pipeline should do.
    ::signal(SIGPIPE, SIG_DFL);
}

void quiet_interrupt_message() { say_interrupted = 0; }

}  // namespace kestrel::cli
