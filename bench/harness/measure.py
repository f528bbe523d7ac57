"""One measured process: wall time, CPU time (user + sys) and peak resident memory.

Each command runs under GNU time (/usr/bin/time -f %M), whose peak RSS is the one reported:
a process spawned straight from this Python runner would inherit the runner's own high-water
RSS (Linux carries it over at exec, and Python spawns with vfork), so small tools would all
show ~40 MB. CPU time (user + sys) comes from wait4(2) on GNU time, at microsecond resolution,
and covers every descendant (a runner's children, Rscript's R); GNU time's own share is ~1 ms.
Wall time is taken around the process here.
"""

import json
import os
import shlex
import signal
import subprocess
import threading
import time


class Measurement(dict):
    """wall_s, user_s, sys_s, cpu_s, rss_mb, rc, timed_out, internal (the tool's own JSON line)."""


GNU_TIME = "/usr/bin/time"


def _gnu_time_rss(path):
    """Peak RSS in KB from GNU time's -o file (its last line; a killed child leaves a note first)."""
    try:
        with open(path) as fh:
            lines = [ln.strip() for ln in fh if ln.strip()]
        return int(lines[-1]) if lines and lines[-1].isdigit() else None
    except OSError:
        return None


def _last_json_line(text):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{") and line.endswith("}"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def run(command, env, cwd, timeout_s, log_dir, tag):
    """Run `command` (a shell-free command line) and measure it; output kept in log_dir/tag.*"""
    out_path = os.path.join(log_dir, tag + ".stdout")
    err_path = os.path.join(log_dir, tag + ".stderr")
    rss_path = os.path.join(log_dir, tag + ".rss")
    argv = [GNU_TIME, "-f", "%M", "-o", rss_path] + shlex.split(command)
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                    start_new_session=True)
        except OSError as e:
            return Measurement(rc=127, error=f"cannot start {argv[0]}: {e}", wall_s=0.0, timed_out=False)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout_s, kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    rss_kb = _gnu_time_rss(rss_path)
    with open(out_path, errors="replace") as fh:
        stdout = fh.read()
    with open(err_path, errors="replace") as fh:
        stderr = fh.read()
    m = Measurement(
        # Microseconds: the tiny-file rows are 4-6 ms processes, where 0.1 ms steps moved
        # their medians' ratio by 2 % (getrusage counts in microseconds too).
        wall_s=round(wall, 6),
        user_s=round(usage.ru_utime, 6),
        sys_s=round(usage.ru_stime, 6),
        cpu_s=round(usage.ru_utime + usage.ru_stime, 6),
        rss_mb=round(rss_kb / 1024.0, 1) if rss_kb is not None else None,
        rc=proc.returncode,
        timed_out=timed_out.is_set(),
    )
    internal = _last_json_line(stdout)
    if internal is not None:
        m["internal"] = internal
    if proc.returncode != 0 or timed_out.is_set():
        tail = [ln for ln in stderr.strip().splitlines() if ln.strip()][-3:]
        m["error"] = ("timed out after %d s" % timeout_s) if timed_out.is_set() else " | ".join(tail)[-400:]
    return m


def warm_page_cache(paths):
    """Read input files once so that no tool pays for the first read from disk."""
    for path in paths:
        try:
            with open(path, "rb") as fh:
                while fh.read(1 << 24):
                    pass
        except OSError:
            pass
