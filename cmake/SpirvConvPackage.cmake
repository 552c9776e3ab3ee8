# The Debian packages (docs/install.md), one per install component of
# cmake/SpirvConvInstall.cmake, as Debian splits a tool from its -dev package:
#   spirv-conv      (tool) the command and its man page; Depends: what
#                   dpkg-shlibdeps finds the binary links
#   spirv-conv-dev  (dev) library, headers, CMake package; Depends: glslang-dev
#                   (its users link glslang) and spirv-conv of the same version
#                   (the package's spirv_conv::spirv-conv)
#
#   cpack --config <build>/CPackConfig.cmake -B <dir>   (after building)
# Included by the top-level CMakeLists.txt after cmake/SpirvConvInstall.cmake.

set(SPIRV_CONV_PACKAGE_CONTACT
    "spirv-conv maintainers <maintainers@users.noreply.a-seed-ed49bb33.example>"
    CACHE STRING "Maintainer field of the .deb packages")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME spirv-conv)
set(CPACK_PACKAGE_VENDOR "The spirv-conv authors")
set(CPACK_PACKAGE_CONTACT "${SPIRV_CONV_PACKAGE_CONTACT}")
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL tool dev)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME spirv-conv)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOL_PACKAGE_SHLIBDEPS ON)
string(CONCAT CPACK_COMPONENT_TOOL_DESCRIPTION
    "convergence and uniformity tools for SPIR-V\n"
    "spirv-conv validates, analyses (dynamic uniformity, convergence lint), transforms and\n"
    "simulates SPIR-V modules, from binaries, assembly or GLSL.")

# The archive holds objects compiled against this glslang's headers: the same major version.
math(EXPR _glslang_next_major "${glslang_VERSION_MAJOR} + 1")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME spirv-conv-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "glslang-dev (>= ${glslang_VERSION}), glslang-dev (<< ${_glslang_next_major})")
set(CPACK_COMPONENT_DEV_DEPENDS tool)
string(CONCAT CPACK_COMPONENT_DEV_DESCRIPTION
    "convergence and uniformity analyses for SPIR-V (development files)\n"
    "The spirv_conv static library with the SPIRV-Tools it is built on, its headers, and the\n"
    "CMake package spirv_conv (find_package(spirv_conv CONFIG)).")

include(CPack)
