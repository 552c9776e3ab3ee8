# spirv_conv_check_shaders(): build steps that compile, lint and optimize a
# project's shaders with spirv-conv (docs/cmake.md). Shipped in the CMake
# package; included by spirv_convConfig.cmake.
