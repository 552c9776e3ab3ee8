# The memory allocator of spirv-conv's executables (docs/performance.md,
# "Memory allocator", has the measurements): the analysis and the SPIRV-Tools
# IR make millions of small allocations, which Debian's mimalloc serves much
# faster than glibc's malloc.
#
# SPIRV_CONV_ALLOCATOR:
#   auto     - mimalloc when Debian's libmimalloc-dev is installed and no
#              sanitizer or fuzzer instruments the build, else the C library's
#   mimalloc - mimalloc; configuring fails without it
#   system   - the C library's malloc
# Only executables link it (the library leaves the choice to its embedder).
set(SPIRV_CONV_ALLOCATOR auto CACHE STRING "Allocator of the executables: auto, mimalloc or system")
set_property(CACHE SPIRV_CONV_ALLOCATOR PROPERTY STRINGS auto mimalloc system)

set(SPIRV_CONV_USE_MIMALLOC OFF)
if(SPIRV_CONV_ALLOCATOR STREQUAL "mimalloc")
  if(SPIRV_CONV_SANITIZE OR SPIRV_CONV_FUZZING)
    message(FATAL_ERROR "SPIRV_CONV_ALLOCATOR=mimalloc cannot be combined with sanitizers "
                        "or fuzzing (they replace malloc themselves)")
  endif()
  find_package(mimalloc 2 CONFIG REQUIRED)
  set(SPIRV_CONV_USE_MIMALLOC ON)
elseif(SPIRV_CONV_ALLOCATOR STREQUAL "auto")
  if(NOT SPIRV_CONV_SANITIZE AND NOT SPIRV_CONV_FUZZING)
    find_package(mimalloc 2 CONFIG QUIET)
    if(mimalloc_FOUND)
      set(SPIRV_CONV_USE_MIMALLOC ON)
    endif()
  endif()
elseif(NOT SPIRV_CONV_ALLOCATOR STREQUAL "system")
  message(FATAL_ERROR "SPIRV_CONV_ALLOCATOR must be auto, mimalloc or system, "
                      "not '${SPIRV_CONV_ALLOCATOR}'")
endif()

if(SPIRV_CONV_USE_MIMALLOC)
  message(STATUS "spirv-conv allocator: mimalloc ${mimalloc_VERSION}")
  set(SPIRV_CONV_ALLOCATOR_NAME mimalloc)
else()
  message(STATUS "spirv-conv allocator: system malloc")
  set(SPIRV_CONV_ALLOCATOR_NAME system)
endif()

# spirv_conv_link_allocator(TARGET): link the chosen allocator into an
# executable. mimalloc's shared library replaces malloc/free (and so
# operator new/delete) for the whole process when it comes before the C
# library in the link order, which linking it first guarantees;
# SPIRV_CONV_MIMALLOC lets the executable report whether it is in effect,
# and tools/allocator/mimalloc_settings.cpp tunes it for a short run.
set(SPIRV_CONV_MIMALLOC_SETTINGS "${CMAKE_CURRENT_LIST_DIR}/../tools/allocator/mimalloc_settings.cpp")
function(spirv_conv_link_allocator target)
  if(SPIRV_CONV_USE_MIMALLOC)
    target_link_libraries(${target} PRIVATE mimalloc)
    target_compile_definitions(${target} PRIVATE SPIRV_CONV_MIMALLOC=1)
    target_sources(${target} PRIVATE ${SPIRV_CONV_MIMALLOC_SETTINGS})
  endif()
endfunction()
