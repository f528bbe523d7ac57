#!/usr/bin/env bash
# ctest "c_api_symbols": libkestrel.so.0 exports exactly the functions lib/c_api.symbols
# lists (the C interface's binary promise, docs/c-api.md), each declared by
# kestrel/c_api.h with the type tests/c_api/abi_signatures.c gives it, and its soname is
# libkestrel.so.0. Removing, renaming, retyping or adding an export without updating the
# lists fails here.
#   check_symbols.sh LIBRARY SOURCE_DIR
set -euo pipefail
lib=$1
src=$2
fail() { echo "c_api_symbols: $*" >&2; exit 1; }
[ -f "$lib" ] || fail "$lib is not built"
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libkestrel.so.0" ] || fail "soname is '$soname', not libkestrel.so.0"
# Defined dynamic symbols, without their version (name@@KESTREL_0) and the version node.
exported=$(nm -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u)
listed=$(grep -v '^#' "$src/lib/c_api.symbols" | sort -u)
declared=$(grep -oE '^KESTREL_API [^(]*\(' "$src/lib/include/kestrel/c_api.h" | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u)
if [ "$exported" != "$listed" ]; then
  diff <(echo "$listed") <(echo "$exported") >&2 || true
  fail "the exported symbols differ from lib/c_api.symbols (< listed, > exported)"
fi
if [ "$declared" != "$listed" ]; then
  diff <(echo "$listed") <(echo "$declared") >&2 || true
  fail "kestrel/c_api.h declares other functions than lib/c_api.symbols lists (< listed, > declared)"
fi
# Each listed function keeps the type it was released with: abi_signatures.c holds it and
# compiles only while the header declares the same.
checked=$(grep -oE '= kestrel_[a-z0-9_]+;' "$src/tests/c_api/abi_signatures.c" | sed -E 's/= (.*);/\1/' | sort -u)
if [ "$checked" != "$listed" ]; then
  diff <(echo "$listed") <(echo "$checked") >&2 || true
  fail "tests/c_api/abi_signatures.c checks other functions than lib/c_api.symbols lists (< listed, > checked)"
fi
cc -std=c99 -Wall -Werror -pedantic -fsyntax-only -I"$src/lib/include" "$src/tests/c_api/abi_signatures.c" ||
  fail "a function's type in kestrel/c_api.h differs from the one released (tests/c_api/abi_signatures.c)"
echo "c_api_symbols: $(echo "$listed" | wc -l) kestrel_* functions exported, as listed, with their released types"
