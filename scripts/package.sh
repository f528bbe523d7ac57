#!/usr/bin/env bash
# Builds the Debian package with CPack and checks it (scripts/check_deb.sh):
#   scripts/package.sh [BUILD_DIR]   (default build/, built Release first if absent)
# The three .deb files (kestrel, libkestrel0, python3-kestrel) land in BUILD_DIR/package/. The build directory is configured with
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
# CPack 3.25 calls ldconfig from libkestrel0's postinst and postrm; Debian wants the
# ldconfig trigger instead (lintian: lacks-ldconfig-trigger, maintscript-calls-ldconfig), so
# the package is rebuilt with the trigger and without those two scripts.
shlib_debs=("$dir"/package/libkestrel0_*.deb)
repack=$(mktemp -d "${TMPDIR:-/tmp}/kestrel-repack.XXXXXX")
dpkg-deb -R "${shlib_debs[0]}" "$repack/pkg"
rm -f "$repack/pkg/DEBIAN/postinst" "$repack/pkg/DEBIAN/postrm"
echo "activate-noawait ldconfig" >"$repack/pkg/DEBIAN/triggers"
chmod 0644 "$repack/pkg/DEBIAN/triggers"
dpkg-deb --root-owner-group -Zgzip -b "$repack/pkg" "${shlib_debs[0]}" >/dev/null
rm -rf "$repack"
ls "$dir"/package/*.deb
scripts/check_deb.sh "$dir/package"
