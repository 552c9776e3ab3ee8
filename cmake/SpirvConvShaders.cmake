# spirv_conv_check_shaders(): build steps that compile a project's GLSL and
# HLSL shaders to SPIR-V, lint them for convergence bugs and, optionally, run
# the convergence-safe -O (docs/cmake.md). Shipped in the CMake package and
# included by spirv_convConfig.cmake; usable from spirv-conv's own tree too.
#
#   spirv_conv_check_shaders(TARGET <name> SOURCES <shader>...
#                            [OPTIMIZE] [WERROR] [SARIF <file>] [RULES <id>=<level>...]
#                            [OUTPUT_DIRECTORY <dir>] [INCLUDE_DIRECTORIES <dir>...]
#                            [DEFINES <NAME[=VALUE]>...] [TARGET_ENV <env>]
#                            [FLAGS <spirv-conv input flag>...])
#
# Per shader, one build step: `spirv-conv lint -g` (its findings as
# compiler-style "file:line: error: ..." lines; an error, or with WERROR a
# warning, fails the step), then `spirv-conv opt [-O]` writing
# <OUTPUT_DIRECTORY>/<shader path>.spv. The step re-runs when the shader, a
# file it #includes (a depfile from the front end) or spirv-conv changes.
# The lint runs first, so a shader with an error never leaves a .spv behind
# that a later build would take as up to date.
#
# <name> is a custom target in ALL; its property SPIRV_CONV_OUTPUTS lists the
# .spv files. SARIF writes one SARIF 2.1.0 report of every shader (for code
# scanning) in a step of its own that never fails on findings.

cmake_minimum_required(VERSION 3.20)  # DEPFILE for every generator

# The spirv-conv command: the package's imported target, spirv-conv's own
# target in its build tree, else one on the PATH.
function(_spirv_conv_executable out)
  if(TARGET spirv_conv::spirv-conv)
    set(${out} "$<TARGET_FILE:spirv_conv::spirv-conv>" PARENT_SCOPE)
  elseif(TARGET spirv-conv)
    set(${out} "$<TARGET_FILE:spirv-conv>" PARENT_SCOPE)
  else()
    find_program(SPIRV_CONV_EXECUTABLE spirv-conv)
    if(NOT SPIRV_CONV_EXECUTABLE)
      message(FATAL_ERROR "spirv_conv_check_shaders: no spirv-conv: find_package(spirv_conv) "
                          "or put spirv-conv on the PATH")
    endif()
    set(${out} "${SPIRV_CONV_EXECUTABLE}" PARENT_SCOPE)
  endif()
endfunction()

function(spirv_conv_check_shaders)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "OPTIMIZE;WERROR"
                        "TARGET;SARIF;OUTPUT_DIRECTORY;TARGET_ENV"
                        "SOURCES;RULES;INCLUDE_DIRECTORIES;DEFINES;FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "spirv_conv_check_shaders: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "spirv_conv_check_shaders: TARGET <name> is required")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "spirv_conv_check_shaders(${ARG_TARGET}): SOURCES is empty")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}")
  endif()
  _spirv_conv_executable(spirv_conv)

  # Input flags, shared by the lint and the compile.
  set(input_flags ${ARG_FLAGS})
  foreach(dir IN LISTS ARG_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND input_flags -I "${dir}")
  endforeach()
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND input_flags -D "${define}")
  endforeach()
  if(ARG_TARGET_ENV)
    list(APPEND input_flags --target-env "${ARG_TARGET_ENV}")
  endif()
  set(lint_flags -g)
  if(ARG_WERROR)
    list(APPEND lint_flags --werror)
  endif()
  foreach(rule IN LISTS ARG_RULES)
    if(NOT rule MATCHES "^[a-z0-9-]+=(off|note|warning|error)$")
      message(FATAL_ERROR "spirv_conv_check_shaders(${ARG_TARGET}): RULES takes "
                          "<rule id>=off|note|warning|error, not '${rule}'")
    endif()
    list(APPEND lint_flags --rule "${rule}")
  endforeach()
  set(opt_flags)
  if(ARG_OPTIMIZE)
    list(APPEND opt_flags -O)
  endif()

  set(outputs)
  set(sources)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    list(APPEND sources "${source}")
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
    if(relative MATCHES "^\\.\\./")
      get_filename_component(relative "${source}" NAME)
    endif()
    set(output "${ARG_OUTPUT_DIRECTORY}/${relative}.spv")
    get_filename_component(output_dir "${output}" DIRECTORY)
    file(MAKE_DIRECTORY "${output_dir}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${spirv_conv}" lint ${lint_flags} ${input_flags} "${source}"
      COMMAND "${spirv_conv}" opt ${opt_flags} ${input_flags} "${source}" -o "${output}"
              --depfile "${output}.d"
      DEPENDS "${source}" "${spirv_conv}"
      DEPFILE "${output}.d"
      COMMENT "spirv-conv: checking ${relative}"
      VERBATIM)
    list(APPEND outputs "${output}")
  endforeach()

  set(reports)
  if(ARG_SARIF)
    get_filename_component(sarif "${ARG_SARIF}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    add_custom_command(
      OUTPUT "${sarif}"
      COMMAND "${spirv_conv}" lint ${lint_flags} ${input_flags} --exit-zero --format sarif
              -o "${sarif}" --depfile "${sarif}.d" ${sources}
      DEPENDS ${sources} "${spirv_conv}"
      DEPFILE "${sarif}.d"
      WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
      COMMENT "spirv-conv: SARIF report ${ARG_SARIF}"
      VERBATIM)
    list(APPEND reports "${sarif}")
  endif()

  add_custom_target(${ARG_TARGET} ALL DEPENDS ${outputs} ${reports})
  set_target_properties(${ARG_TARGET} PROPERTIES SPIRV_CONV_OUTPUTS "${outputs}")
endfunction()
