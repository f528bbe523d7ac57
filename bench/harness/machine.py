"""What the figures were measured on: CPU, cores, memory, compiler, kestrel and anchor versions."""

import os
import platform
import re
import subprocess

# Debian packages whose versions the report names (the anchors and what they run on).
ANCHOR_PACKAGES = [
    "libsvm-tools", "liblinear-tools", "python3-sklearn", "python3-xgboost", "xgboost",
    "r-base-core", "r-cran-ranger", "r-cran-glmnet", "r-cran-data.table", "python3-numpy",
    "python3-pandas", "python3-scipy", "libopenblas0-pthread", "hyperfine", "time",
]


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib():
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return None


def _compiler(build_dir):
    cache = os.path.join(build_dir, "CMakeCache.txt")
    try:
        with open(cache) as fh:
            text = fh.read()
    except OSError:
        return "unknown (no build)"
    m = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.+)$", text, re.M)
    compiler = m.group(1).strip() if m else "c++"
    first = _run([compiler, "--version"]).splitlines()
    flags = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", text, re.M)
    return f"{first[0] if first else compiler} ({flags.group(1) if flags else '?'})"


def package_versions():
    out = {}
    for pkg in ANCHOR_PACKAGES:
        v = _run(["dpkg-query", "-W", "-f=${Version}", pkg])
        out[pkg] = v or "not installed"
    return out


def kestrel_version(repo, build_dir):
    rev = _run(["git", "-C", repo, "rev-parse", "--short", "HEAD"]) or "no commit"
    dirty = _run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"])
    version = "unknown"
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as fh:
            m = re.search(r"^CMAKE_PROJECT_VERSION:\w+=(.+)$", fh.read(), re.M)
            version = m.group(1).strip() if m else version
    except OSError:
        pass
    return {"git": rev + ("+dirty" if dirty else ""), "version": version}


def load_average():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def describe(repo, build_dir):
    return {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": _run(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]) or platform.platform(),
        "kernel": platform.release(),
        "compiler": _compiler(build_dir),
        "kestrel": kestrel_version(repo, build_dir),
        "packages": package_versions(),
    }
