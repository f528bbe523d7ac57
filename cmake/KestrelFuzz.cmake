# libFuzzer builds (KESTREL_FUZZ=ON, clang only; scripts/fuzz.sh drives them).
# Everything kestrel compiles gets coverage instrumentation plus ASan and UBSan, so
# a fuzz target reports memory errors and undefined behaviour inside the library,
# not only crashes; the fuzz executables themselves link libFuzzer's main. Build with
# CMAKE_BUILD_TYPE=Debug (scripts/fuzz.sh sets -O1): Eigen's index asserts and
# libstdc++'s (_GLIBCXX_ASSERTIONS) then turn a bad index into a finding too.
if(KESTREL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KESTREL_FUZZ needs clang: configure with CC=clang CXX=clang++ (see scripts/fuzz.sh)")
  endif()
  target_compile_options(kestrel_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                 -fno-sanitize-recover=all -fno-omit-frame-pointer -g
                                                 -D_GLIBCXX_ASSERTIONS)
  target_link_options(kestrel_flags INTERFACE -fsanitize=address,undefined)
endif()
