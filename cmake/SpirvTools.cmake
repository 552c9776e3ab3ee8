# Builds SPIRV-Tools (core + opt) from the pinned Debian source package as a
# subproject, so the project can use the optimizer IR (source/opt), which no
# Debian binary package ships.
#
# Inputs:
#   SPIRV_TOOLS_SOURCE_DIR  a SPIRV-Tools source tree (default: third_party/spirv-tools,
#                           unpacked there by scripts/setup-deps.sh)
# Provides:
#   spirv_conv::spirv_tools  an interface target: SPIRV-Tools-opt + SPIRV-Tools-static
#                            plus the internal include directories (source root for
#                            "source/opt/...", binary dir for the generated *.inc).

set(SPIRV_CONV_PINNED_SPIRV_TOOLS_VERSION "v2023.1")

set(SPIRV_TOOLS_SOURCE_DIR "${PROJECT_SOURCE_DIR}/third_party/spirv-tools"
    CACHE PATH "SPIRV-Tools ${SPIRV_CONV_PINNED_SPIRV_TOOLS_VERSION} source tree")

if(NOT EXISTS "${SPIRV_TOOLS_SOURCE_DIR}/CMakeLists.txt")
  message(FATAL_ERROR
    "No SPIRV-Tools source tree at '${SPIRV_TOOLS_SOURCE_DIR}'.\n"
    "Run scripts/setup-deps.sh (fetches Debian's spirv-tools source package), "
    "or pass -DSPIRV_TOOLS_SOURCE_DIR=<path to a ${SPIRV_CONV_PINNED_SPIRV_TOOLS_VERSION} checkout>.")
endif()

# Pin: the opt IR is an internal API that changes between releases. The first
# release line of CHANGES names the version the tree is.
file(STRINGS "${SPIRV_TOOLS_SOURCE_DIR}/CHANGES" _spvtools_changes
     REGEX "^v[0-9]+\\.[0-9]+(-dev)? " LIMIT_COUNT 1)
string(REGEX MATCH "^v[0-9]+\\.[0-9]+(-dev)?" SPIRV_TOOLS_VERSION "${_spvtools_changes}")
if(NOT SPIRV_TOOLS_VERSION STREQUAL SPIRV_CONV_PINNED_SPIRV_TOOLS_VERSION)
  message(FATAL_ERROR
    "SPIRV-Tools at '${SPIRV_TOOLS_SOURCE_DIR}' is '${SPIRV_TOOLS_VERSION}', "
    "spirv-conv is pinned to ${SPIRV_CONV_PINNED_SPIRV_TOOLS_VERSION}.")
endif()
message(STATUS "spirv-conv: SPIRV-Tools ${SPIRV_TOOLS_VERSION} from ${SPIRV_TOOLS_SOURCE_DIR}")

if(NOT DEFINED SPIRV-Headers_SOURCE_DIR)
  if(NOT EXISTS "/usr/include/spirv/unified1/spirv.core.grammar.json")
    message(FATAL_ERROR "Debian's spirv-headers package is missing: run scripts/setup-deps.sh")
  endif()
  set(SPIRV-Headers_SOURCE_DIR "/usr")
endif()

# The grammar SPIRV-Tools generates its tables from, with the enumerants and
# instructions the pinned headers lack (MaximallyReconvergesKHR,
# SPV_KHR_quad_control: without them SPIRV-Tools 2023.1 cannot even parse
# such a module). The tables change, and spirv.hpp11 gains their names (the
# generated tables refer to spv::Op::..., spv::Capability::...); the other
# headers are copies. See cmake/spirv_grammar_overlay.py.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(SPIRV_CONV_HEADERS_OVERLAY "${PROJECT_BINARY_DIR}/spirv-headers-overlay")
execute_process(
  COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/spirv_grammar_overlay.py"
          "${SPIRV-Headers_SOURCE_DIR}/include" "${SPIRV_CONV_HEADERS_OVERLAY}/include"
  RESULT_VARIABLE _overlay_result)
if(NOT _overlay_result EQUAL 0)
  message(FATAL_ERROR "cmake/spirv_grammar_overlay.py failed on ${SPIRV-Headers_SOURCE_DIR}/include")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/cmake/spirv_grammar_overlay.py"
             "${SPIRV-Headers_SOURCE_DIR}/include/spirv/unified1/spirv.core.grammar.json")
set(SPIRV-Headers_SOURCE_DIR "${SPIRV_CONV_HEADERS_OVERLAY}")

# Subproject settings: normal variables, honoured by option() (CMP0077).
# A function scope keeps them (and the forced Release build type) away from
# the rest of the project.
function(spirv_conv_add_spirv_tools)
  set(SPIRV_SKIP_EXECUTABLES ON)
  set(SPIRV_SKIP_TESTS ON)
  set(SPIRV_WERROR OFF)
  set(SKIP_SPIRV_TOOLS_INSTALL ON)
  set(SPIRV_BUILD_FUZZER OFF)
  set(SPIRV_TOOLS_BUILD_STATIC ON)
  set(BUILD_SHARED_LIBS OFF)
  set(ENABLE_RTTI ON)
  # Release even when spirv-conv itself is Debug or sanitized: SPIRV-Tools' own
  # Debug mode re-checks the whole IR context after every pass.
  set(CMAKE_BUILD_TYPE Release)
  # Only the instrumentation (sanitizers, fuzzer coverage) is shared with
  # the subproject; warning flags of this project stay per-target.
  set(CMAKE_CXX_FLAGS "${SPIRV_CONV_INSTRUMENT_FLAGS}")
  set(CMAKE_C_FLAGS "${SPIRV_CONV_INSTRUMENT_FLAGS}")
  add_subdirectory("${SPIRV_TOOLS_SOURCE_DIR}" "${PROJECT_BINARY_DIR}/spirv-tools" EXCLUDE_FROM_ALL)
endfunction()
spirv_conv_add_spirv_tools()

add_library(spirv_conv_spirv_tools INTERFACE)
add_library(spirv_conv::spirv_tools ALIAS spirv_conv_spirv_tools)
target_link_libraries(spirv_conv_spirv_tools INTERFACE SPIRV-Tools-opt SPIRV-Tools-static)
target_include_directories(spirv_conv_spirv_tools SYSTEM INTERFACE
  "${SPIRV_TOOLS_SOURCE_DIR}"
  "${SPIRV_TOOLS_SOURCE_DIR}/include"
  "${PROJECT_BINARY_DIR}/spirv-tools")
