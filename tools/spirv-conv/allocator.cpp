// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "allocator.h"

#include <cstdlib>

#if SPIRV_CONV_MIMALLOC
#include <mimalloc.h>
#endif

namespace spirv_conv::cli {

std::string AllocatorDescription() {
#if SPIRV_CONV_MIMALLOC
  // Ask mimalloc whether a block from plain malloc lies in its heap: the
  // override works only if the dynamic linker bound malloc to mimalloc.
  void* probe = std::malloc(64);
  const bool in_effect = probe != nullptr && mi_is_in_heap_region(probe);
  std::free(probe);
  if (!in_effect) return "system malloc (mimalloc linked but not in effect)";
  const int version = mi_version();  // major * 100 + minor * 10 + patch
  std::string text = "mimalloc " + std::to_string(version / 100) + "." +
                     std::to_string(version / 10 % 10) + "." + std::to_string(version % 10);
  // The settings in effect (tools/allocator/mimalloc_settings.cpp, unless
  // the environment overrides them).
  if (mi_option_is_enabled(mi_option_large_os_pages)) text += ", 2 MiB pages";
  if (!mi_option_is_enabled(mi_option_allow_decommit)) text += ", memory kept until exit";
  return text;
#else
  return "system malloc";
#endif
}

}  // namespace spirv_conv::cli
