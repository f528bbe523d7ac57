#!/usr/bin/env bash
# Checks a kestrel .deb (scripts/package.sh calls this):
#   scripts/check_deb.sh kestrel_VERSION_ARCH.deb
# Its Depends hold the linked libraries (dpkg-shlibdeps) and the dlopen()ed ones; once
# unpacked into a scratch root (dpkg -x, no root needed) the commands run from there: a
# train/predict round trip on a bundled dataset, an LP model (CLP, dlopen()ed), a
# cross-validation under mpirun (the MPI module, dlopen()ed), and
# `man -l` on an installed page without a warning; lintian reports nothing that is not
# overridden with a reason (packaging/debian/lintian-overrides, docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "$1")
root=$(mktemp -d "${TMPDIR:-/tmp}/kestrel-deb.XXXXXX")
trap 'rm -rf "$root"' EXIT
fail() { echo "check_deb: $*" >&2; exit 1; }

depends=$(dpkg-deb -f "$deb" Depends)
# zlib1g, libzstd1, liblzma5, libbz2-1.0: linked for compressed input (lib/src/io/compression.hpp).
for dep in libc6 libstdc++6 libgomp1 coinor-libclp1 libopenblas0 zlib1g libzstd1 liblzma5 libbz2-1.0; do
  grep -q "\b$dep\b" <<<"$depends" || fail "Depends lacks $dep: $depends"
done

dpkg -x "$deb" "$root/fs"
bin=$root/fs/usr/bin
# Packed relative relocations need glibc 2.36; dpkg-shlibdeps does not see that.
if readelf -d "$bin/kestrel-train" | grep -q '(RELR)'; then
  grep -q 'libc6 (>= 2.36)' <<<"$depends" || fail "the commands use DT_RELR but Depends lacks libc6 (>= 2.36): $depends"
fi
"$bin/kestrel-export" --help | grep -q -- --zipmap || fail "kestrel-export --help"
"$bin/kestrel-train" --version | grep -q '^kestrel-train [0-9]' || fail "kestrel-train --version"
"$bin/kestrel-train" -q -m logistic --scale standard data/iris/train.csv -o "$root/iris.json"
"$bin/kestrel-predict" "$root/iris.json" data/iris/test.csv --metrics --json -q >"$root/metrics.json"
grep -q '"accuracy"' "$root/metrics.json" || fail "kestrel-predict gave no accuracy"
"$bin/kestrel-train" -q -m lad data/diabetes/train.csv -o "$root/lad.json"  # CLP, dlopen()ed
# The MPI module (docs/distributed.md): in the package, its libmpi among the Depends, and
# found from the installed commands (relative to usr/bin) when mpirun launches them.
[ -n "$(find "$root/fs" -name kestrel_mpi.so)" ] || fail "the MPI module kestrel_mpi.so is not in the package"
grep -q '\blibopenmpi3\b' <<<"$depends" || fail "Depends lacks libopenmpi3: $depends"
mpirun --allow-run-as-root --oversubscribe -np 2 "$bin/kestrel-cv" -q -m logistic -k 3 data/iris/train.csv --json \
  >"$root/cv.json" || fail "kestrel-cv under mpirun -np 2"
grep -q '"accuracy"' "$root/cv.json" || fail "kestrel-cv under mpirun gave no accuracy"
for page in "$root"/fs/usr/share/man/man1/kestrel-train.1.gz "$root"/fs/usr/share/man/man7/kestrel-models.7.gz; do
  [ -f "$page" ] || fail "$page is not in the package"
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l $(basename "$page") fails"
  [ -z "$warnings" ] || fail "man -l $(basename "$page"): $warnings"
done
[ -f "$root/fs/usr/share/doc/kestrel/copyright" ] || fail "no copyright file"

if command -v lintian >/dev/null; then
  # Any tag shown is one that no override (with its reason) covers.
  # (CI runs as root: lintian's advice against that is not a finding about the package.)
  report=$(lintian --tag-display-limit 0 "$deb" 2>&1 | grep -vx 'running with root privileges is not recommended!') || true
  if [ -n "$report" ]; then
    echo "$report" >&2
    fail "lintian reports the above"
  fi
else
  fail "lintian is not installed (scripts/setup.sh installs it)"
fi
echo "check_deb: ok ($(basename "$deb"): $depends)"
