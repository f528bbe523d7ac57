# Flags every kestrel target gets.
add_library(kestrel_flags INTERFACE)
target_compile_options(kestrel_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
if(KESTREL_WERROR)
  # Every warning is an error: the Release build and the demo's print none. GCC 12's false
  # positives are answered where they occur (the AVX-512 walk's zero-masked intrinsics, the
  # string appends of GCC bug 105651), not by demoting the warning for the whole build.
  target_compile_options(kestrel_flags INTERFACE -Werror)
endif()
if(KESTREL_NATIVE)
  target_compile_options(kestrel_flags INTERFACE -march=native)
endif()
if(KESTREL_SANITIZE)
  target_compile_options(kestrel_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(kestrel_flags INTERFACE -fsanitize=address,undefined)
endif()
