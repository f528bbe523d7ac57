# Every dependency is a Debian package installed by scripts/setup.sh.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(FastFloat REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_path(LBFGSPP_INCLUDE_DIR LBFGS.h PATH_SUFFIXES include REQUIRED)  # liblbfgspp-dev, header-only
add_library(kestrel_lbfgspp INTERFACE)
target_include_directories(kestrel_lbfgspp SYSTEM INTERFACE ${LBFGSPP_INCLUDE_DIR})
find_path(SPECTRA_INCLUDE_DIR Spectra/SymEigsSolver.h PATH_SUFFIXES include REQUIRED)  # libspectra-dev, header-only
add_library(kestrel_spectra INTERFACE)
target_include_directories(kestrel_spectra SYSTEM INTERFACE ${SPECTRA_INCLUDE_DIR})
find_path(NANOFLANN_INCLUDE_DIR nanoflann.hpp PATH_SUFFIXES include REQUIRED)  # libnanoflann-dev, header-only
add_library(kestrel_nanoflann INTERFACE)
target_include_directories(kestrel_nanoflann SYSTEM INTERFACE ${NANOFLANN_INCLUDE_DIR})
# coinor-libclp-dev: COIN-OR CLP, the simplex solver behind the LP models (lad, quantile,
# lp_svm). Headers only at build time: its C interface is dlopen()ed on first use
# (lib/src/optim/lp_solver.cpp; core/shared_library.hpp says why).
find_path(CLP_INCLUDE_DIR Clp_C_Interface.h PATH_SUFFIXES coin coin-or REQUIRED)
add_library(kestrel_clp INTERFACE)
target_include_directories(kestrel_clp SYSTEM INTERFACE ${CLP_INCLUDE_DIR})
target_link_libraries(kestrel_clp INTERFACE ${CMAKE_DL_LIBS})
# OpenBLAS (BLAS + Fortran LAPACK) for the tile kernels of the dense SPD solver
# (lib/src/kernel_methods/spd_solve.cpp). Only the headers are used at build time
# (libopenblas-dev: cblas.h; liblapacke-dev: lapack.h): the library is dlopen()ed on
# first use (blas_runtime.cpp), so no other kestrel process pays its start-up cost.
find_path(OPENBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES x86_64-linux-gnu/openblas-pthread openblas-pthread openblas REQUIRED)
find_path(LAPACK_INCLUDE_DIR lapack.h REQUIRED)
add_library(kestrel_lapack INTERFACE)
target_include_directories(kestrel_lapack SYSTEM INTERFACE ${OPENBLAS_INCLUDE_DIR} ${LAPACK_INCLUDE_DIR})
target_link_libraries(kestrel_lapack INTERFACE ${CMAKE_DL_LIBS})
# Compressed input (lib/src/io/compression.hpp): gzip, zstd, xz and bzip2 data files are
# decompressed as they are read. zlib1g-dev, libzstd-dev, liblzma-dev and libbz2-dev ship
# the CMake modules or package files found here; the shared libraries are linked (every
# kestrel command reads data), so dpkg-shlibdeps adds them to the package's Depends.
find_package(ZLIB REQUIRED)
find_package(BZip2 REQUIRED)
find_package(LibLZMA REQUIRED)
find_package(zstd CONFIG REQUIRED)
