# fluxion_set_warnings(<target>): the project's warning flags, errors with FLUXION_WERROR.
function(fluxion_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Woverloaded-virtual)
  # GCC 12 reports false -Wrestrict positives on std::string concatenation at -O3 (GCC PR 105329).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(FLUXION_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(FLUXION_SANITIZERS)
    # UBSan's vptr check misfires on classes whose typeinfo lives in a plugin: disable only that.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize=vptr
                                             -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize=vptr)
  endif()
endfunction()
