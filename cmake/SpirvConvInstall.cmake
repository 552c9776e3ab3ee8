# Install rules (docs/install.md), in two components:
#   tool  bin/spirv-conv, its man page (help2man, from --help), SPIRV-Tools' licence
#   dev   lib/libspirv_conv.a (every layer and the bundled SPIRV-Tools), the public
#         headers, the SPIRV-Tools headers they include, the CMake package spirv_conv
#
# Included by the top-level CMakeLists.txt after source/ and tools/, and only in
# builds without sanitizers or fuzzing: their objects need the instrumenting
# compiler's runtimes.
#
# Provides:
#   spirv_conv_package  the merged static library (file libspirv_conv.a,
#                       spirv_conv::spirv_conv in the installed package)

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SPIRV_CONV_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/spirv_conv")
# The SPIRV-Tools headers the public ones include (spirv-tools/*.h, source/**/*.h, the
# generated headers, the overlay's spirv/unified1/*): below include/spirv_conv/, so
# that they never shadow, or collide with, Debian's spirv-tools and spirv-headers.
set(SPIRV_CONV_BUNDLED_INCLUDE_DIR "${CMAKE_INSTALL_INCLUDEDIR}/spirv_conv/spirv-tools")

# The library users link: the objects of every layer and of the SPIRV-Tools
# targets they link (spirv_conv::spirv_tools), in one archive. SPIRV-Tools
# travels inside it because the layers are compiled against this very build
# of it (its grammar tables come from the headers overlay of
# cmake/SpirvTools.cmake; Debian's libSPIRV-Tools is another library) and
# because its opt IR has no stable ABI.
get_target_property(SPIRV_CONV_BUNDLED_SPIRV_TOOLS spirv_conv_spirv_tools INTERFACE_LINK_LIBRARIES)
get_property(_layers GLOBAL PROPERTY SPIRV_CONV_LAYERS)
list(TRANSFORM _layers PREPEND spirv_conv_ OUTPUT_VARIABLE _bundled)
list(APPEND _bundled ${SPIRV_CONV_BUNDLED_SPIRV_TOOLS})
add_library(spirv_conv_package STATIC)
set_target_properties(spirv_conv_package PROPERTIES
  OUTPUT_NAME spirv_conv EXPORT_NAME spirv_conv LINKER_LANGUAGE CXX)
# What the bundled targets link from outside the archive (glslang, librt),
# read from their own link lists so that a dependency added to a layer
# reaches the package too; header-only libraries (nlohmann_json) are inside
# the objects already. Library users link these, so every package named here
# needs its find_dependency() in spirv_convConfig.cmake.in.
set(SPIRV_CONV_PACKAGE_DEPENDENCIES Threads glslang)
set(_external)
foreach(target IN LISTS _bundled)
  target_sources(spirv_conv_package PRIVATE $<TARGET_OBJECTS:${target}>)
  get_target_property(_links ${target} LINK_LIBRARIES)
  foreach(item IN LISTS _links)
    if(NOT item OR item IN_LIST _bundled OR item STREQUAL "spirv_conv::spirv_tools")
      continue()
    endif()
    if(TARGET ${item})
      get_target_property(_type ${item} TYPE)
      get_target_property(_item_links ${item} INTERFACE_LINK_LIBRARIES)
      if(_type STREQUAL "INTERFACE_LIBRARY" AND NOT _item_links)
        continue()
      endif()
      get_target_property(_imported ${item} IMPORTED)
      if(NOT _imported)
        message(FATAL_ERROR "${target} links ${item}, a library of this build that "
                            "libspirv_conv.a does not hold: users could not link it")
      endif()
    endif()
    if(item MATCHES "^([^:]+)::" AND NOT CMAKE_MATCH_1 IN_LIST SPIRV_CONV_PACKAGE_DEPENDENCIES)
      message(FATAL_ERROR "${target} links ${item}: add find_dependency(${CMAKE_MATCH_1}) to "
                          "cmake/spirv_convConfig.cmake.in and ${CMAKE_MATCH_1} to "
                          "SPIRV_CONV_PACKAGE_DEPENDENCIES in cmake/SpirvConvInstall.cmake")
    endif()
    list(APPEND _external ${item})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _external)
target_link_libraries(spirv_conv_package PRIVATE ${_external})
target_compile_features(spirv_conv_package INTERFACE cxx_std_17)
target_include_directories(spirv_conv_package INTERFACE
  "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>"
  "$<INSTALL_INTERFACE:${SPIRV_CONV_BUNDLED_INCLUDE_DIR}>")

install(TARGETS spirv-conv EXPORT spirv_conv_targets
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tool)
install(FILES "${SPIRV_TOOLS_SOURCE_DIR}/LICENSE" RENAME LICENSE.spirv-tools
        DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT tool)
# The rule pages `spirv-conv lsp` links its diagnostics to (docs/editor.md).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/rules"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT tool FILES_MATCHING PATTERN "*.md")
install(TARGETS spirv_conv_package EXPORT spirv_conv_targets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)

# Headers.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/spirv_conv"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${SPIRV_TOOLS_SOURCE_DIR}/include/spirv-tools"
        DESTINATION "${SPIRV_CONV_BUNDLED_INCLUDE_DIR}" COMPONENT dev)
# All of SPIRV-Tools' internal headers, not only those include/spirv_conv
# reaches: a pass written against spirv_conv's pass headers uses more of source/opt.
install(DIRECTORY "${SPIRV_TOOLS_SOURCE_DIR}/source"
        DESTINATION "${SPIRV_CONV_BUNDLED_INCLUDE_DIR}" COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${SPIRV_CONV_HEADERS_OVERLAY}/include/spirv/unified1"
        DESTINATION "${SPIRV_CONV_BUNDLED_INCLUDE_DIR}/spirv" COMPONENT dev
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.hpp11")
# The headers SPIRV-Tools generates at the top of its build tree (*.h, *.inc)
# exist only once it is built: listed when installing.
install(CODE "
  file(GLOB _spirv_conv_generated \"${PROJECT_BINARY_DIR}/spirv-tools/*.h\"
                                  \"${PROJECT_BINARY_DIR}/spirv-tools/*.inc\")
  file(INSTALL \${_spirv_conv_generated}
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${SPIRV_CONV_BUNDLED_INCLUDE_DIR}\")"
  COMPONENT dev)

# The man page, from the command's own --help: help2man formats the top
# level, cmake/spirv_conv_man_commands.py every subcommand (COMMANDS).
find_program(SPIRV_CONV_HELP2MAN help2man DOC "help2man, which writes spirv-conv.1 from --help")
if(NOT SPIRV_CONV_HELP2MAN)
  message(FATAL_ERROR "help2man (Debian's help2man) writes the man page: run "
                      "scripts/setup-deps.sh, or configure with -DSPIRV_CONV_INSTALL=OFF")
endif()
set(SPIRV_CONV_MAN_PAGE "${PROJECT_BINARY_DIR}/man/spirv-conv.1")
add_custom_command(
  OUTPUT "${SPIRV_CONV_MAN_PAGE}.gz"
  COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/spirv_conv_man_commands.py"
          $<TARGET_FILE:spirv-conv> "${SPIRV_CONV_MAN_PAGE}.commands.h2m"
  # The version as the project names it: --version also names the build's
  # SPIRV-Tools commit and allocator, which have no place in the page.
  COMMAND "${SPIRV_CONV_HELP2MAN}" --no-info --section=1 --version-string=${PROJECT_VERSION}
          "--name=convergence and uniformity tools for SPIR-V"
          "--include=${SPIRV_CONV_MAN_PAGE}.commands.h2m"
          "--output=${SPIRV_CONV_MAN_PAGE}" $<TARGET_FILE:spirv-conv>
  # -n: no name or time stamp in the gzip header.
  COMMAND gzip -9nf "${SPIRV_CONV_MAN_PAGE}"
  DEPENDS spirv-conv "${CMAKE_CURRENT_LIST_DIR}/spirv_conv_man_commands.py"
  COMMENT "Generating the man page spirv-conv.1 with help2man"
  VERBATIM)
add_custom_target(spirv_conv_man_page ALL DEPENDS "${SPIRV_CONV_MAN_PAGE}.gz")
install(FILES "${SPIRV_CONV_MAN_PAGE}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT tool)

# The CMake package: spirv_conv::spirv_conv, spirv_conv::spirv-conv, spirv_conv_check_shaders().
install(EXPORT spirv_conv_targets NAMESPACE spirv_conv:: FILE spirv_convTargets.cmake
        DESTINATION "${SPIRV_CONV_PACKAGE_DIR}" COMPONENT dev)
configure_file("${CMAKE_CURRENT_LIST_DIR}/spirv_convConfig.cmake.in"
               "${PROJECT_BINARY_DIR}/package/spirv_convConfig.cmake" @ONLY)
# 0.x: a new minor version may change the API.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/spirv_convConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/spirv_convConfig.cmake"
              "${PROJECT_BINARY_DIR}/package/spirv_convConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/SpirvConvShaders.cmake"
        DESTINATION "${SPIRV_CONV_PACKAGE_DIR}" COMPONENT dev)
