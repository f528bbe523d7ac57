#!/usr/bin/env bash
# Checks kestrel's three .deb files (scripts/package.sh calls this):
#   scripts/check_deb.sh PACKAGE_DIR    (kestrel_*.deb, libkestrel0_*.deb, python3-kestrel_*.deb)
# kestrel: its Depends hold the linked libraries (dpkg-shlibdeps) and the dlopen()ed ones;
# once unpacked into a scratch root (dpkg -x, no root needed) the commands run from there: a
# train/predict round trip on a bundled dataset, an LP model (CLP, dlopen()ed), a
# cross-validation under mpirun (the MPI module, dlopen()ed), and `man -l` on an installed
# page without a warning. libkestrel0: the shared library with its shlibs and symbols files,
# exporting exactly lib/c_api.symbols; examples/c_train_predict.c built against the unpacked
# header and library predicts what kestrel-predict does. python3-kestrel: imported from the
# unpacked tree, it finds the unpacked library and predicts what kestrel-predict does.
# lintian reports nothing on the three that is not overridden with a reason
# (packaging/debian/lintian-overrides, docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "check_deb: $*" >&2; exit 1; }
dir=$(realpath "$1")
one_deb() {
  local found=("$dir"/"$1"_*.deb)
  [ -f "${found[0]}" ] || fail "no $1_*.deb in $dir"
  echo "${found[0]}"
}
deb=$(one_deb kestrel)
shlib_deb=$(one_deb libkestrel0)
python_deb=$(one_deb python3-kestrel)
root=$(mktemp -d "${TMPDIR:-/tmp}/kestrel-deb.XXXXXX")
trap 'rm -rf "$root"' EXIT

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

# --- libkestrel0: the C interface's shared library ---
shlib_depends=$(dpkg-deb -f "$shlib_deb" Depends)
for dep in libc6 libstdc++6 libgomp1 coinor-libclp1 libopenblas0; do
  grep -q "\b$dep\b" <<<"$shlib_depends" || fail "libkestrel0's Depends lacks $dep: $shlib_depends"
done
dpkg-deb -x "$shlib_deb" "$root/fs"
dpkg-deb -e "$shlib_deb" "$root/shlib-control"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=$root/fs/usr/lib/$multiarch
[ -f "$libdir/libkestrel.so.0" ] || fail "libkestrel0 has no usr/lib/$multiarch/libkestrel.so.0"
version=$(dpkg-deb -f "$shlib_deb" Version)
grep -qx "libkestrel 0 libkestrel0 (>= $version)" "$root/shlib-control/shlibs" || fail "libkestrel0's shlibs: $(cat "$root/shlib-control/shlibs")"
grep -qx "activate-noawait ldconfig" "$root/shlib-control/triggers" || fail "libkestrel0 has no ldconfig trigger"
exported=$(nm -D --defined-only "$libdir/libkestrel.so.0" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort)
listed=$(grep -E '^kestrel_' lib/c_api.symbols | sort)
[ "$exported" = "$listed" ] || fail "libkestrel.so.0 exports other functions than lib/c_api.symbols: $(diff <(echo "$listed") <(echo "$exported") | head -5)"
tracked=$(sed -nE 's/^ (kestrel_[a-z0-9_]+)@KESTREL_0 .*/\1/p' "$root/shlib-control/symbols" | sort)
[ "$tracked" = "$listed" ] || fail "libkestrel0's symbols file is not lib/c_api.symbols"
cc -std=c99 -Wall -Wextra -Werror -pedantic examples/c_train_predict.c -I"$root/fs/usr/include" -L"$libdir" \
  -l:libkestrel.so.0 -Wl,-rpath,"$libdir" -o "$root/c_train_predict" || fail "examples/c_train_predict.c does not build against the packages"
"$root/c_train_predict" data/iris/train.csv data/iris/test.csv "$root/c_iris.json" >"$root/c_predicted.txt" \
  || fail "c_train_predict fails against the packaged library"
"$bin/kestrel-predict" "$root/c_iris.json" data/iris/test.csv -q | tail -n +2 | cut -d, -f1 >"$root/command.txt"
cmp -s "$root/c_predicted.txt" "$root/command.txt" || fail "c_train_predict (libkestrel0) and kestrel-predict differ"

# --- python3-kestrel: the Python package ---
[ "$(dpkg-deb -f "$python_deb" Architecture)" = all ] || fail "python3-kestrel is not Architecture: all"
python_depends=$(dpkg-deb -f "$python_deb" Depends)
grep -q "libkestrel0 (= $version)" <<<"$python_depends" || fail "python3-kestrel's Depends lacks libkestrel0 (= $version): $python_depends"
grep -q "python3-numpy" <<<"$python_depends" || fail "python3-kestrel's Depends lacks python3-numpy: $python_depends"
dpkg-deb -x "$python_deb" "$root/fs"
site=$root/fs/usr/lib/python3/dist-packages
[ -f "$site/kestrel/__init__.py" ] || fail "python3-kestrel has no usr/lib/python3/dist-packages/kestrel"
# Installed, the library is on the loader's path (ld.so.cache); unpacked, LD_LIBRARY_PATH stands for it.
(cd "$root" && env -u KESTREL_LIBRARY PYTHONPATH="$site" LD_LIBRARY_PATH="$libdir" /usr/bin/python3 \
   "$OLDPWD/tests/install/python_labels.py" "$site" "$root/c_iris.json" "$OLDPWD/data/iris/test.csv" \
   >"$root/py_predicted.txt"
) || fail "import kestrel from python3-kestrel fails"
cmp -s "$root/py_predicted.txt" "$root/command.txt" || fail "python3-kestrel and kestrel-predict differ"

if command -v lintian >/dev/null; then
  # Any tag shown is one that no override (with its reason) covers.
  # (CI runs as root: lintian's advice against that is not a finding about the package.)
  report=$(lintian --tag-display-limit 0 "$deb" "$shlib_deb" "$python_deb" 2>&1 |
           grep -vx 'running with root privileges is not recommended!') || true
  if [ -n "$report" ]; then
    echo "$report" >&2
    fail "lintian reports the above"
  fi
else
  fail "lintian is not installed (scripts/setup.sh installs it)"
fi
echo "check_deb: ok ($(basename "$deb"): $depends; $(basename "$shlib_deb"): $shlib_depends; $(basename "$python_deb"): $python_depends)"
