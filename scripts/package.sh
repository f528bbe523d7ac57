#!/usr/bin/env bash
# Builds the Debian package with CPack and checks it (scripts/check_deb.sh):
#   scripts/package.sh [BUILD_DIR]   (default build/, built Release first if absent)
# The .deb lands in BUILD_DIR/package/. The build directory is configured with
# KESTREL_DEBIAN_LAYOUT=ON for the packaging (gzipped man pages, Debian changelog) and
# set back to OFF afterwards, so a later `cmake --install` is a plain install again.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
[ -f "$dir/CMakeCache.txt" ] || scripts/build.sh "$dir" -DKESTREL_TESTS=OFF
# Debian puts an architecture's libraries (and so kestrel.pc and the CMake package) in
# the multiarch directory, lib/x86_64-linux-gnu; the build's own choice is restored after.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$dir/CMakeCache.txt")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
restore() { cmake -S . -B "$dir" -DKESTREL_DEBIAN_LAYOUT=OFF "-DCMAKE_INSTALL_LIBDIR=${libdir:-lib}" >/dev/null; }
trap restore EXIT
cmake -S . -B "$dir" -DKESTREL_DEBIAN_LAYOUT=ON "-DCMAKE_INSTALL_LIBDIR=lib/$multiarch" >/dev/null
cmake --build "$dir" -j"$(nproc)"
rm -rf "$dir/package"
(cd "$dir" && cpack -G DEB >cpack.log 2>&1) || { cat "$dir/cpack.log"; exit 1; }
debs=("$dir"/package/kestrel_*.deb)
[ -f "${debs[0]}" ] || { echo "package.sh: cpack made no .deb" >&2; exit 1; }
echo "package.sh: ${debs[0]}"
scripts/check_deb.sh "${debs[0]}"
