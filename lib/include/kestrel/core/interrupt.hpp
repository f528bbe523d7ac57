#pragma once
// Stopping running work from outside it: from another thread, or from a signal handler
// (the C interface's kestrel_interrupt, which Python's Ctrl-C calls). The library's long
// loops (boosting rounds, trees, solver iterations, folds, grid points, search
// evaluations) pass interruption points between steps; a pending request makes the next
// one throw Interrupted, which unwinds the fit as any error does, so nothing half-made is
// returned or written.
//
// Requests are scoped by InterruptibleWork: a request made while no such work runs is
// ignored (a late Ctrl-C must not stop the next fit), one made while some runs stops all
// of it (and any that starts before it has all ended: a process-wide flag cannot tell two
// concurrent fits apart), and it is forgotten when the last of them ends. The commands
// run no InterruptibleWork: a signal ends them (apps/common/signals.hpp).
#include "kestrel/core/error.hpp"

namespace kestrel {

// The error an interruption point throws: exit class `interrupted` (130, as a command
// ended by SIGINT), message "interrupted".
class Interrupted : public Error {
public:
    Interrupted() : Error(ExitCode::interrupted, "interrupted") {}
};

// Asks every running InterruptibleWork to stop. Async-signal-safe (one lock-free atomic
// update), callable from any thread.
void request_interrupt() noexcept;

// Whether a request is pending (work that cannot throw where it stands: finish the step).
bool interrupt_requested() noexcept;

// Throws Interrupted when a request is pending. Costs one relaxed atomic load; never call
// it inside an OpenMP parallel region (an exception must not leave one): call it between
// the region's runs.
void interruption_point();

// Marks the lifetime of work that requests may stop (a C-interface fit, cross-validation).
class InterruptibleWork {
public:
    InterruptibleWork() noexcept;
    ~InterruptibleWork();
    InterruptibleWork(const InterruptibleWork&) = delete;
    InterruptibleWork& operator=(const InterruptibleWork&) = delete;
    InterruptibleWork(InterruptibleWork&&) = delete;
    InterruptibleWork& operator=(InterruptibleWork&&) = delete;
};

}  // namespace kestrel
