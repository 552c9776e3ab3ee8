# Compile options shared by every target of spirv-conv's own code (not by the
# SPIRV-Tools subproject).

# Fuzz targets link libFuzzer when the compiler is Clang; with GCC they build as
# a replay driver that runs the seed corpus (test/fuzz/replay_main.cpp).
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(SPIRV_CONV_HAVE_LIBFUZZER ON)
else()
  set(SPIRV_CONV_HAVE_LIBFUZZER OFF)
endif()

# spirv_conv_target_options(TARGET): C++17, warnings (as errors), sanitizers.
function(spirv_conv_target_options target)
  target_compile_features(${target} PRIVATE cxx_std_17)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                           -Wno-missing-field-initializers)
  if(SPIRV_CONV_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(SPIRV_CONV_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${SPIRV_CONV_SANITIZE}
                                             -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${SPIRV_CONV_SANITIZE})
  endif()
endfunction()
