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

}  // namespace kestrel::cli
