# CPack: a Debian package of the whole install (scripts/package.sh configures with
# KESTREL_DEBIAN_LAYOUT=ON, then runs cpack; docs/install.md).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kestrel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the kestrel authors")
set(CPACK_PACKAGE_CONTACT "kestrel maintainers <kestrel@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "classical machine learning from the command line")
# The extended description (CPack puts the summary above it as the synopsis line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "kestrel trains, scores, cross-validates and grid-searches classical machine
learning models (linear and kernel models, support vector machines, trees,
forests, boosting, k-NN) on CSV or LIBSVM files, from a shell script or a
Makefile, in the manner of the LIBSVM and LIBLINEAR tools.
.
This package holds the commands kestrel-train, kestrel-predict, kestrel-cv,
kestrel-gridsearch, kestrel-select, kestrel-explain, kestrel-auto and
kestrel-export with
their manual pages and bash and zsh completions, and the static C++ library
with its headers, CMake package and pkg-config file.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends on the shared libraries the executables link (libc, libstdc++, libgomp...),
# computed by dpkg-shlibdeps (dpkg-dev) ...
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# ... plus what kestrel dlopen()s on first use, which dpkg-shlibdeps cannot see: CLP
# (libClp.so.1, lib/src/optim/lp_solver.cpp) and OpenBLAS (libopenblas.so.0,
# lib/src/kernel_methods/blas_runtime.cpp).
# And the glibc that reads packed relative relocations (DT_RELR, apps/CMakeLists.txt): the
# symbol version GLIBC_ABI_DT_RELR arrived in 2.36, which Debian 12's shlibs file for
# libc6 does not know, so dpkg-shlibdeps alone would say 2.34.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "coinor-libclp1, libopenblas0 | libopenblas0-pthread")
if(KESTREL_HAVE_PACKED_RELOCS)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libc6 (>= 2.36)")
endif()
# For the library: its headers include Eigen's and nlohmann_json's.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libeigen3-dev (>= 3.4), nlohmann-json3-dev (>= 3.10), pkgconf")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
