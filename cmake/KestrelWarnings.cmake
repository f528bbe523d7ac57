# Flags every kestrel target gets.
add_library(kestrel_flags INTERFACE)
target_compile_options(kestrel_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
if(KESTREL_WERROR)
  target_compile_options(kestrel_flags INTERFACE -Werror)
  # GCC 12 at -O3 reports impossible bounds inside libstdc++'s own string code
  # (GCC bugs 105329, 105651), and maybe-uninitialized inside Eigen's SparseMatrix held
  # in a std::variant under -fsanitize: keep them visible as warnings, not errors.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(kestrel_flags INTERFACE -Wno-error=stringop-overflow -Wno-error=restrict
                                                   -Wno-error=array-bounds -Wno-error=stringop-overread
                                                   -Wno-error=maybe-uninitialized)
  endif()
endif()
if(KESTREL_NATIVE)
  target_compile_options(kestrel_flags INTERFACE -march=native)
endif()
if(KESTREL_SANITIZE)
  target_compile_options(kestrel_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(kestrel_flags INTERFACE -fsanitize=address,undefined)
endif()
