// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which memory allocator serves this process (cmake/SpirvConvAllocator.cmake).

#ifndef SPIRV_CONV_TOOLS_ALLOCATOR_H_
#define SPIRV_CONV_TOOLS_ALLOCATOR_H_

#include <string>

namespace spirv_conv::cli {

// "mimalloc 2.0.9, 2 MiB pages, memory kept until exit" when mimalloc is
// linked and malloc really returns its memory (the settings named are those
// in effect); "system malloc" when the build chose the C library's allocator;
// "system malloc (mimalloc linked but not in effect)" when linking it did not
// replace malloc (e.g. the library was dropped or preloaded over).
std::string AllocatorDescription();

}  // namespace spirv_conv::cli

#endif  // SPIRV_CONV_TOOLS_ALLOCATOR_H_
