#pragma once
// How the executables end on signals. SIGINT, SIGTERM and SIGHUP remove the
// temporary files of outputs being written (so no partial model is ever left), say
// "<program>: interrupted" on stderr and exit with 128 + the signal number (130 for
// Ctrl-C), as shells report it. SIGPIPE keeps its default action: a reader that goes
// away (`kestrel-predict ... | head -1`) ends the process quietly, as it ends `cat`.
namespace kestrel::cli {

// `program` must outlive the process (a string literal). A signal the parent set to
// be ignored (nohup, a background job of a non-interactive shell) stays ignored.
void install_signal_handlers(const char* program);

// A rank of an MPI run ends without the "interrupted" line: mpirun, which forwarded the
// signal or ended the group after another rank failed, says what happened (once).
void quiet_interrupt_message();

}  // namespace kestrel::cli
