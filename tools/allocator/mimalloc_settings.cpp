// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// mimalloc's settings for spirv-conv's executables, applied as the process
// starts, before mimalloc itself (cmake/SpirvConvAllocator.cmake compiles
// this file into every executable that links mimalloc; the library never
// does).
//
// A run of spirv-conv is short, so memory handed back to the operating
// system during the run is only faulted in again, a page at a time:
//   - allow_decommit = 0: keep freed memory until exit (mimalloc would
//     decommit it after a delay);
//   - large_os_pages = 1 when the input files add up to 256 KiB or more: ask
//     for 2 MiB pages (transparent huge pages where the kernel allows them
//     on request, as Debian's default "madvise" does), one fault where
//     there were 512. The price is more peak memory, so small inputs keep
//     4 KiB pages (docs/performance.md, "Memory allocator", has the
//     measurements).

#include <mimalloc.h>
#include <sys/stat.h>

#include <cstring>

namespace {

// True if |envp| (the environment the process started with) names
// |variable| ("MIMALLOC_...").
bool InEnvironment(char** envp, const char* variable) {
  const size_t length = std::strlen(variable);
  for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, variable, length) == 0 && (*entry)[length] == '=') return true;
  }
  return false;
}

// Whether the files the arguments name add up to a large input, for which
// 2 MiB pages pay: a small module touches a few MiB in all, and each 2 MiB
// page is zeroed whole when first touched, and copied whole when written
// after a fork (the guarded optimizer's child process).
bool LargeInput(int argc, char** argv) {
  constexpr off_t kLarge = 256 * 1024;
  off_t total = 0;
  for (int i = 1; i < argc; ++i) {
    struct stat info;
    if (stat(argv[i], &info) == 0 && S_ISREG(info.st_mode)) total += info.st_size;
  }
  return total >= kLarge;
}

// Runs from the executable's .preinit_array: before the constructors of
// every shared library, mimalloc's own and libstdc++'s included. It has to:
// mimalloc fixes whether a segment may be decommitted when it creates the
// segment, and libstdc++'s start-up allocations (its exception pool) create
// the first one. A static constructor comes too late for that segment,
// whose freed spans mimalloc then goes on handing back to the kernel, to be
// faulted in again by the next analysis (cli_test.py's
// test_mimalloc_keeps_memory_from_the_start).
//
// mi_option_set only stores the value and marks the option read, so it is
// safe before mimalloc has started, and mimalloc then does not read that
// option from the environment: an option the user named there
// (MIMALLOC_ALLOW_DECOMMIT, MIMALLOC_LARGE_OS_PAGES) is left for mimalloc
// to read as usual.
void ApplySettings(int argc, char** argv, char** envp) {
  if (!InEnvironment(envp, "MIMALLOC_ALLOW_DECOMMIT")) mi_option_set(mi_option_allow_decommit, 0);
  if (!InEnvironment(envp, "MIMALLOC_LARGE_OS_PAGES")) {
    mi_option_set(mi_option_large_os_pages, LargeInput(argc, argv) ? 1 : 0);
  }
}

}  // namespace

// The .preinit_array entry (ELF executables only, which is all this file is
// compiled into).
using PreinitFunction = void (*)(int argc, char** argv, char** envp);
__attribute__((section(".preinit_array"), used)) const PreinitFunction kMimallocSettings =
    &ApplySettings;
