#!/usr/bin/env bash
# ctest "install" (tests/CMakeLists.txt): what a user gets from `cmake --install`.
#   check_install.sh BUILD_DIR SOURCE_DIR
# Installs into a scratch prefix (no root), then: the executables run from there; the
# program in examples/ configures with find_package(kestrel CONFIG REQUIRED) against the
# prefix, builds, trains, saves, loads and predicts a bundled dataset (and streams its
# predictions through the task floor, the bytes of kestrel-predict); pkg-config gives
# flags that compile and link; examples/c_train_predict.c builds against libkestrel.so.0
# and predicts what kestrel-predict predicts with the model it saved; every man page is clean under `groff -ww -z` and `man -l`
# and has EXIT STATUS, EXAMPLES and SEE ALSO; the bash completion, driven through
# COMP_WORDS / COMP_CWORD, offers exactly the expected words; the zsh one parses.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kestrel-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null

# --- the layout ---
for f in bin/kestrel-train bin/kestrel-predict bin/kestrel-cv bin/kestrel-gridsearch bin/kestrel-select bin/kestrel-explain bin/kestrel-auto bin/kestrel-export \
         include/kestrel/core/error.hpp share/man/man1/kestrel-train.1 share/man/man7/kestrel-models.7 \
         share/bash-completion/completions/kestrel-train share/zsh/vendor-completions/_kestrel \
         share/doc/kestrel/README.md share/doc/kestrel/cli.md share/doc/kestrel/copyright; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
libdir=$(dirname "$(find "$prefix" -name libkestrel.a | head -1)")
[ -f "$libdir/libkestrel.a" ] || fail "libkestrel.a is not installed"
[ -f "$libdir/cmake/kestrel/kestrelConfig.cmake" ] || fail "the CMake package is not installed"
[ -f "$libdir/pkgconfig/kestrel.pc" ] || fail "kestrel.pc is not installed"

# --- the executables, from the prefix ---
"$prefix/bin/kestrel-train" --version | grep -q '^kestrel-train [0-9]' || fail "kestrel-train --version"

# --- find_package(kestrel) from an outside program (examples/) ---
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" >"$work/example.log" 2>&1 \
  || { cat "$work/example.log"; fail "examples/ does not configure against the prefix"; }
cmake --build "$work/example" >>"$work/example.log" 2>&1 || { cat "$work/example.log"; fail "examples/ does not build"; }
out=$("$work/example/train_predict" "$src/data/iris/train.csv" "$src/data/iris/test.csv" "$work/iris.json")
echo "$out" | grep -Eq '^logistic accuracy (0\.9|1)' || fail "example: unexpected output: $out"
# A model saved by the library is a model for the commands.
"$prefix/bin/kestrel-predict" "$work/iris.json" "$src/data/iris/test.csv" --metrics --json -q >"$work/metrics.json"
grep -q '"accuracy"' "$work/metrics.json" || fail "kestrel-predict on the example's model"
# The task floor streams the same bytes as kestrel-predict on the same model and rows.
"$work/example/stream_predict" "$src/data/iris/train.csv" "$src/data/iris/test.csv" "$work/stream.json" \
  >"$work/stream.csv" 2>"$work/stream.err" || { cat "$work/stream.err"; fail "stream_predict fails"; }
grep -Eq '^logistic accuracy (0\.9|1)' "$work/stream.err" || fail "stream_predict: unexpected report: $(cat "$work/stream.err")"
"$prefix/bin/kestrel-predict" "$work/stream.json" "$src/data/iris/test.csv" --proba -q >"$work/command.csv"
cmp -s "$work/stream.csv" "$work/command.csv" || fail "stream_predict and kestrel-predict differ: $(diff "$work/stream.csv" "$work/command.csv" | head -5)"

# --- the C interface: libkestrel.so.0 beside the archive, a C program built against it ---
[ -f "$libdir/libkestrel.so.0" ] || fail "libkestrel.so.0 is not installed"
[ ! -e "$libdir/libkestrel.so" ] || fail "libkestrel.so is installed: -lkestrel must stay the C++ archive"
[ -f "$prefix/include/kestrel/c_api.h" ] || fail "kestrel/c_api.h is not installed"
cc -std=c99 -Wall -Wextra -Werror -pedantic "$src/examples/c_train_predict.c" -I"$prefix/include" -L"$libdir" \
  -l:libkestrel.so.0 -Wl,-rpath,"$libdir" -o "$work/c_train_predict" || fail "examples/c_train_predict.c does not build"
"$work/c_train_predict" "$src/data/iris/train.csv" "$src/data/iris/test.csv" "$work/c_iris.json" \
  >"$work/c_predicted.txt" 2>"$work/c.err" || { cat "$work/c.err"; fail "c_train_predict fails"; }
# Its predictions are kestrel-predict's on the model it saved.
"$prefix/bin/kestrel-predict" "$work/c_iris.json" "$src/data/iris/test.csv" -q | tail -n +2 | cut -d, -f1 >"$work/c_command.txt"
[ "$(wc -l <"$work/c_predicted.txt")" = 30 ] || fail "c_train_predict printed $(wc -l <"$work/c_predicted.txt") predictions, not 30"
cmp -s "$work/c_predicted.txt" "$work/c_command.txt" || fail "c_train_predict and kestrel-predict differ: $(diff "$work/c_predicted.txt" "$work/c_command.txt" | head -5)"

# --- the Python package: imported from the prefix, it finds the installed library and
# predicts what kestrel-predict predicts with the same model (docs/python.md) ---
pkgfile=$(find "$prefix" -path '*/kestrel/_install_location.py' | head -1)
[ -n "$pkgfile" ] || fail "the Python package is not installed"
python=""
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c 'import numpy' 2>/dev/null; then python=$py; break; fi
done
if [ -n "$python" ]; then
  # From $work, without KESTREL_LIBRARY: only the installed package and its library can be found.
  (cd "$work" && env -u KESTREL_LIBRARY PYTHONPATH="$(dirname "$(dirname "$pkgfile")")" "$python" \
     "$src/tests/install/python_labels.py" "$prefix" "$work/c_iris.json" "$src/data/iris/test.csv" \
     >"$work/py_predicted.txt" 2>"$work/py.err"
  ) || { cat "$work/py.err"; fail "import kestrel from the prefix fails"; }
  cmp -s "$work/py_predicted.txt" "$work/c_command.txt" || fail "the installed Python package and kestrel-predict differ: $(diff "$work/py_predicted.txt" "$work/c_command.txt" | head -5)"
else
  echo "check_install: no python3 with numpy: the Python package's import is not checked" >&2
fi

# --- pkg-config ---
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --exists kestrel || fail "pkg-config does not find kestrel"
[ "$(pkg-config --modversion kestrel)" = "$("$prefix/bin/kestrel-train" --version | cut -d' ' -f2)" ] || fail "pkg-config version"
cat >"$work/pc.cpp" <<'CPP'
#include <iostream>
#include "kestrel/core/error.hpp"
int main() { std::cout << kestrel::SourceLocation{"f.csv", 3, 2}.to_string() << "\n"; }
CPP
# shellcheck disable=SC2046
c++ -std=c++20 "$work/pc.cpp" -o "$work/pc" $(pkg-config --cflags --libs kestrel) || fail "pkg-config flags do not build"
[ "$("$work/pc")" = "f.csv:3:2" ] || fail "the pkg-config build runs wrong"

# --- man pages ---
for page in "$prefix"/share/man/man1/*.1 "$prefix"/share/man/man7/*.7; do
  name=$(basename "$page")
  warnings=$(groff -ww -z -man "$page" 2>&1) || fail "$name: groff fails"
  [ -z "$warnings" ] || fail "$name: groff -ww: $warnings"
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) || fail "$name: man -l fails"
  [ -z "$warnings" ] || fail "$name: man -l: $warnings"
  for section in NAME SYNOPSIS DESCRIPTION '"EXIT STATUS"' EXAMPLES '"SEE ALSO"'; do
    grep -q "^\.SH $section\$" "$page" || fail "$name has no $section section"
  done
done
# Each page documents every flag its command's --help shows (both come from the same declarations).
for tool in train predict cv gridsearch select explain auto export; do
  # The option column of --help: "  -m,--model TEXT  description".
  for flag in $("$prefix/bin/kestrel-$tool" --help | grep -E '^ +-' | sed -E 's/^ +//; s/  .*//' \
                | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    grep -qF -- "\\fB$(sed 's/-/\\-/g' <<<"$flag")\\fR" "$prefix/share/man/man1/kestrel-$tool.1" \
      || fail "kestrel-$tool.1 does not document $flag"
  done
done
for model in $("$prefix/bin/kestrel-train" --list-models | cut -d' ' -f1); do
  grep -q "^\.SS $model\$" "$prefix/share/man/man7/kestrel-models.7" || fail "kestrel-models.7 lacks $model"
done

# --- completion ---
bash "$src/tests/install/completion_test.sh" "$prefix" "$work"
if command -v zsh >/dev/null; then
  zsh -n "$prefix/share/zsh/vendor-completions/_kestrel" || fail "_kestrel does not parse in zsh"
fi
echo "check_install: ok ($prefix)"
