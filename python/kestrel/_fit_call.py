"""Runs a fitting C call (kestrel_model_train, kestrel_cross_validate) so that Ctrl-C stops
it, its warnings become KestrelWarning and its progress reaches a Python callable.

The call runs in a worker thread and the calling thread waits for it. Python runs its SIGINT
handler only in the main thread and only between bytecodes, never during a foreign call; a
wait on an event is interruptible, so Ctrl-C raises KeyboardInterrupt in the waiting thread,
which asks the library to stop (kestrel_interrupt), waits for the fit to unwind (it stops at
its next interruption point, having made nothing) and raises KeyboardInterrupt again."""
import os
import sys
import threading
import warnings

from . import _lib
from .errors import KestrelWarning, raise_for


def run_fit(function, *args, progress=None, error=None, result=None):
    """Calls the C function `function` with `args` in a worker thread; `progress`, when given,
    is called as progress(label, done, total) from the library's threads (with the GIL).
    `result`, when given, is called in the worker after the call succeeded, and run_fit
    returns what it returns: the C interface's output texts live per thread."""
    messages = []

    def on_warning(message, _user_data):
        messages.append(message.decode("utf-8", "replace"))  # list.append holds the GIL: thread-safe

    def on_progress(label, done, total, _user_data):
        progress(label.decode("utf-8", "replace"), int(done), int(total))

    # Kept alive by this frame until the worker has ended.
    warning_callback = _lib.WARNING_CALLBACK(on_warning)
    progress_callback = _lib.PROGRESS_CALLBACK(on_progress) if progress else _lib.PROGRESS_CALLBACK()
    outcome = {}

    finished = threading.Event()

    def work():
        # The callbacks and the error message are the C interface's per thread: set and read here.
        _lib.lib.kestrel_set_callbacks(warning_callback, progress_callback, None)
        try:
            code = getattr(_lib.lib, function)(*args)
            if code != 0:
                outcome["message"] = _lib.lib.kestrel_last_error().decode("utf-8", "replace")
            elif result is not None:
                outcome["value"] = result()
            outcome["code"] = code
        finally:
            _lib.lib.kestrel_set_callbacks(_lib.WARNING_CALLBACK(), _lib.PROGRESS_CALLBACK(), None)
            finished.set()

    worker = threading.Thread(target=work, name="kestrel-fit", daemon=True)
    worker.start()
    interrupted = _wait_for(finished)
    worker.join()  # its last step, the event set: no wait
    if interrupted:
        raise KeyboardInterrupt
    for message in dict.fromkeys(messages):
        warnings.warn(message, KestrelWarning, stacklevel=_first_frame_outside_the_package())
    code = outcome.get("code")
    if code is None:
        raise RuntimeError(f"kestrel: {function} ended without a result")
    if code != 0:
        raise_for(code, outcome["message"], error)
    return outcome.get("value")


def _wait_for(finished):
    """Waits until the fit has finished; on Ctrl-C asks the library to stop and keeps
    waiting. Whether an interrupt came.

    The fit's own event, not Thread.join: in Python 3.11 a KeyboardInterrupt that lands in
    Thread.join can leave is_alive() False while the thread still runs. The wait wakes every
    tenth of a second, so a SIGINT the kernel gave to another of the process's threads is
    still handled here, by the interpreter's check between bytecodes. A Ctrl-C may land
    anywhere in this loop: each asks again (the request stands until the fit has ended)."""
    interrupted = False
    while True:
        try:
            if interrupted:
                _lib.lib.kestrel_interrupt()
            while not finished.wait(0.1):
                pass
            return interrupted
        except KeyboardInterrupt:
            interrupted = True


def _first_frame_outside_the_package():
    """The stacklevel of the user's line that started the fit, through any of the package's
    own frames (estimator, Model.train, this module)."""
    package = os.path.dirname(os.path.abspath(__file__))
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


class StderrProgress:
    """The estimators' verbose=1: the fit's progress on standard error, as the commands show it
    on a terminal (one line rewritten in place), or a line per tenth of the work elsewhere (a
    notebook, a log)."""

    def __init__(self, stream=None):
        self._stream = stream or sys.stderr
        self._tty = hasattr(self._stream, "isatty") and self._stream.isatty()
        self._lock = threading.Lock()
        self._shown = {}

    def __call__(self, label, done, total):
        with self._lock:
            if self._tty:
                end = "\n" if total and done >= total else ""
                self._stream.write(f"\rkestrel: {label} {done}/{total}{end}")
                self._stream.flush()
                return
            tenth = (10 * done // total) if total else 0
            if self._shown.get(label) == tenth:
                return
            self._shown[label] = tenth
            self._stream.write(f"kestrel: {label} {done}/{total}\n")
            self._stream.flush()
