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
# coinor-libclp-dev: COIN-OR CLP, the simplex solver behind the LP models (lad, quantile, lp_svm).
find_path(CLP_INCLUDE_DIR ClpSimplex.hpp PATH_SUFFIXES coin coin-or REQUIRED)
find_library(CLP_LIBRARY Clp REQUIRED)
find_library(COINUTILS_LIBRARY CoinUtils REQUIRED)
add_library(kestrel_clp INTERFACE)
target_include_directories(kestrel_clp SYSTEM INTERFACE ${CLP_INCLUDE_DIR})
target_link_libraries(kestrel_clp INTERFACE ${CLP_LIBRARY} ${COINUTILS_LIBRARY})
# libopenblas-dev + liblapacke-dev: BLAS/LAPACK tile kernels of the dense SPD solver
# (lib/src/kernel_methods/spd_solve.cpp), the only code that links them.
find_path(OPENBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES x86_64-linux-gnu/openblas-pthread openblas-pthread openblas REQUIRED)
find_library(OPENBLAS_LIBRARY openblas PATH_SUFFIXES openblas-pthread REQUIRED)
find_path(LAPACKE_INCLUDE_DIR lapacke.h REQUIRED)
find_library(LAPACKE_LIBRARY lapacke REQUIRED)
add_library(kestrel_lapack INTERFACE)
target_include_directories(kestrel_lapack SYSTEM INTERFACE ${OPENBLAS_INCLUDE_DIR} ${LAPACKE_INCLUDE_DIR})
target_link_libraries(kestrel_lapack INTERFACE ${LAPACKE_LIBRARY} ${OPENBLAS_LIBRARY})
