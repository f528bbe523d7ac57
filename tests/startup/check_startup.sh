#!/usr/bin/env bash
# What every command's start costs, as a property of the build (issue 23's tiny files;
# docs/benchmarks.md "Start-up"): checked on the executables, not timed.
#   check_startup.sh BUILD_DIR STATIC_RUNTIME(ON|OFF) PACKED_RELOCS(ON|OFF)
# - No command carries libgcc's CPU-model constructor (__cpu_indicator_init): it runs a
#   dozen cpuid instructions before main, each a trap to the host in a virtual machine.
#   kestrel reads the features it dispatches on itself, lazily (common/cpu_features).
# - With the static runtime (the default build), no command needs libstdc++, libgcc_s or
#   libgomp as a shared library.
# - Where the linker can pack relative relocations (DT_RELR), every command has them packed:
#   the loader reads a 1 KB table at start instead of 143 KB.
# - Each command still starts and answers --version.
set -euo pipefail
build=$1
static=$2
packed=${3:-OFF}
fail() { echo "check_startup: $*" >&2; exit 1; }
for tool in train predict cv gridsearch select explain auto export; do
  exe=$build/apps/kestrel-$tool
  [ -x "$exe" ] || fail "$exe is missing"
  if nm "$exe" 2>/dev/null | grep -q '__cpu_indicator_init'; then
    fail "kestrel-$tool links libgcc's __cpu_indicator_init (a __builtin_cpu_supports or target_clones crept in)"
  fi
  needed=$(readelf -d "$exe" | awk '/NEEDED/ {print $NF}' | tr -d '[]' | tr '\n' ' ')
  if [ "$static" = ON ]; then
    for lib in libstdc++ libgcc_s libgomp; do
      case " $needed" in *" $lib"*) fail "kestrel-$tool needs $lib as a shared library: $needed" ;; esac
    done
  fi
  if [ "$packed" = ON ] && ! readelf -d "$exe" | grep -q '(RELR)'; then
    fail "kestrel-$tool has no packed relative relocations (DT_RELR)"
  fi
  "$exe" --version | grep -q "^kestrel-$tool [0-9]" || fail "kestrel-$tool --version"
done
echo "check_startup: ok (static runtime $static, packed relocations $packed)"
