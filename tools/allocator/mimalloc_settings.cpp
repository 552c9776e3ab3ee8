// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// mimalloc's settings for spirv-conv's executables, applied before main
// (cmake/SpirvConvAllocator.cmake compiles this file into every executable
// that links mimalloc; the library never does).
//
// A run of spirv-conv is short, so memory handed back to the operating
// system during the run is only faulted in again, a page at a time:
//   - allow_decommit = 0: keep freed memory until exit (mimalloc would
//     decommit it after a delay);
//   - large_os_pages = 1: ask for 2 MiB pages (transparent huge pages where
//     the kernel allows them on request, as Debian's default "madvise"
//     does), one fault where there were 512.
// On reducible_100k this cut the page faults of `spirv-conv uniformity`
// from 161,659 to 8,447 (docs/performance.md, "Memory allocator"), at 7 to
// 14 % more peak memory on large modules.

#include <mimalloc.h>

#include <cstdlib>

namespace {

void SetUnlessInEnvironment(mi_option_t option, const char* variable, long value) {
  if (std::getenv(variable) == nullptr) mi_option_set(option, value);
}

// mimalloc reads its environment while the process starts, before any
// static constructor of the program runs, so setting an option here would
// also overwrite what the user put in the environment (MIMALLOC_...): an
// option named there is left as the user set it.
struct ApplySettings {
  ApplySettings() {
    SetUnlessInEnvironment(mi_option_allow_decommit, "MIMALLOC_ALLOW_DECOMMIT", 0);
    SetUnlessInEnvironment(mi_option_large_os_pages, "MIMALLOC_LARGE_OS_PAGES", 1);
  }
};
const ApplySettings kApplySettings;

}  // namespace
