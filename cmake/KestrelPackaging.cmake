# CPack: three Debian packages from the install's components (scripts/package.sh configures
# with KESTREL_DEBIAN_LAYOUT=ON, then runs cpack; docs/install.md):
#   kestrel          the commands and the C++ library (components runtime, development)
#   libkestrel0      the C interface's shared library libkestrel.so.0 (component shlib)
#   python3-kestrel  the Python package over it (component python)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kestrel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the kestrel authors")
set(CPACK_PACKAGE_CONTACT "kestrel maintainers <kestrel@localhost>")
# Each package's description starts with its synopsis line. CPACK_PACKAGE_DESCRIPTION_SUMMARY
# stays CPack's default, which CPack would otherwise put above every package's description.
set(kestrel_description "classical machine learning from the command line
kestrel trains, scores, cross-validates and grid-searches classical machine
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
set(kestrel_dlopened "coinor-libclp1, libopenblas0 | libopenblas0-pthread")
set(CPACK_DEBIAN_MAIN_PACKAGE_DEPENDS "${kestrel_dlopened}")
if(KESTREL_HAVE_PACKED_RELOCS)  # the commands only: the shared library is linked without
  string(APPEND CPACK_DEBIAN_MAIN_PACKAGE_DEPENDS ", libc6 (>= 2.36)")
endif()
# For the library: its headers include Eigen's and nlohmann_json's.
set(CPACK_DEBIAN_MAIN_PACKAGE_SUGGESTS "libeigen3-dev (>= 3.4), nlohmann-json3-dev (>= 3.10), pkgconf")

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
include(CPackComponent)
cpack_add_component_group(main)
cpack_add_component_group(shlib)
cpack_add_component_group(python)
cpack_add_component(runtime GROUP main)
cpack_add_component(development GROUP main)
cpack_add_component(shlib GROUP shlib)
cpack_add_component(python GROUP python)
set(CPACK_DEBIAN_MAIN_PACKAGE_NAME kestrel)
set(CPACK_DEBIAN_MAIN_DESCRIPTION "${kestrel_description}")

# libkestrel0: the shared library only, named after its soname as Debian's policy wants,
# with a shlibs file and the ldconfig trigger (CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS). It
# dlopen()s what the commands do.
set(CPACK_DEBIAN_SHLIB_PACKAGE_NAME libkestrel0)
set(CPACK_DEBIAN_SHLIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_SHLIB_PACKAGE_DEPENDS "${kestrel_dlopened}")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# Its symbols file (dpkg-gensymbols' format) from lib/c_api.symbols, the list the
# c_api_symbols test holds the library to: every function since 0.1.0, in version node
# KESTREL_0 (lib/capi/kestrel.map). A function added later gets the version it came in.
file(STRINGS ${PROJECT_SOURCE_DIR}/lib/c_api.symbols kestrel_c_functions REGEX "^kestrel_")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lib/c_api.symbols)
set(kestrel_symbols "libkestrel.so.0 libkestrel0 #MINVER#\n* Build-Depends-Package: kestrel\n KESTREL_0@KESTREL_0 0.1.0\n")
foreach(function ${kestrel_c_functions})
  string(APPEND kestrel_symbols " ${function}@KESTREL_0 0.1.0\n")
endforeach()
file(WRITE ${PROJECT_BINARY_DIR}/debian/libkestrel0/symbols "${kestrel_symbols}")
set(CPACK_DEBIAN_SHLIB_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/libkestrel0/symbols)
set(CPACK_DEBIAN_SHLIB_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_SHLIB_DESCRIPTION "kestrel's C interface, a shared library
The C interface of kestrel (kestrel/c_api.h): opaque handles for datasets
and models, train any of kestrel's models by name with the commands'
parameters, predict, cross-validate, save and load the commands' model files.
.
This package holds libkestrel.so.0, which exports only the C functions
kestrel_*; the header is in the kestrel package.")

# python3-kestrel: plain Python files over libkestrel.so.0 through ctypes, for every
# Python 3 (architecture all), the exact library version they were made with.
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-kestrel)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "libkestrel0 (= ${PROJECT_VERSION}), python3:any, python3-numpy")
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "python3-sklearn, python3-scipy, python3-pandas")
set(CPACK_DEBIAN_PYTHON_DESCRIPTION "kestrel's models for Python, scikit-learn estimators
kestrel's models from Python 3: kestrel.Classifier, kestrel.Regressor and
kestrel.Ranker are scikit-learn estimators (fit, predict, predict_proba,
get_params, pipelines, grid search, pickling) over any of kestrel's models,
with numpy, scipy sparse and pandas input; kestrel.load_model reads the model
files the kestrel commands write.")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
