# Compile options shared by every target of spirv-conv's own code, and the
# instrumentation flags that also apply to the SPIRV-Tools subproject.

option(SPIRV_CONV_FUZZING
       "Coverage-instrument everything for libFuzzer and build the fuzz targets as fuzzers (Clang)"
       OFF)
if(SPIRV_CONV_FUZZING AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SPIRV_CONV_FUZZING needs Clang (libFuzzer)")
endif()

# Flags for all code in the process, SPIRV-Tools included: sanitizers see
# SPIRV-Tools' memory too, and the fuzzer sees its coverage.
set(SPIRV_CONV_INSTRUMENT_FLAGS "")
if(SPIRV_CONV_SANITIZE)
  string(APPEND SPIRV_CONV_INSTRUMENT_FLAGS
         " -fsanitize=${SPIRV_CONV_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all")
endif()
if(SPIRV_CONV_FUZZING)
  string(APPEND SPIRV_CONV_INSTRUMENT_FLAGS " -fsanitize=fuzzer-no-link")
endif()
string(STRIP "${SPIRV_CONV_INSTRUMENT_FLAGS}" SPIRV_CONV_INSTRUMENT_FLAGS)
separate_arguments(SPIRV_CONV_INSTRUMENT_LIST UNIX_COMMAND "${SPIRV_CONV_INSTRUMENT_FLAGS}")

# spirv_conv_target_options(TARGET): C++17, warnings (as errors), instrumentation.
function(spirv_conv_target_options target)
  target_compile_features(${target} PRIVATE cxx_std_17)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                           -Wno-missing-field-initializers)
  if(SPIRV_CONV_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(SPIRV_CONV_INSTRUMENT_LIST)
    target_compile_options(${target} PRIVATE ${SPIRV_CONV_INSTRUMENT_LIST})
    target_link_options(${target} PRIVATE ${SPIRV_CONV_INSTRUMENT_LIST})
  endif()
endfunction()
