#!/usr/bin/env bash
# ctest "c_api_symbols": libkestrel.so.0 exports exactly the functions lib/c_api.symbols
# lists (the C interface's binary promise, docs/c-api.md), each declared by
# kestrel/c_api.h, and its soname is libkestrel.so.0. Removing, renaming or adding an
# export without updating the list fails here.
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
echo "c_api_symbols: $(echo "$listed" | wc -l) kestrel_* functions exported, as listed"
