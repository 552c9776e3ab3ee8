#!/usr/bin/env bash
# Configures and builds one spirv-conv configuration with Ninja and ccache.
#
#   scripts/build.sh [release|debug|asan] [ninja targets...]
#
# Build trees: build/<config> (SPIRV_CONV_BUILD_DIR overrides). Compiler: clang (libFuzzer targets need it);
# override with CC/CXX. SPIRV-Tools is always built Release.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
config=${1:-release}
shift || true

case "$config" in
  release) cmake_args=(-DCMAKE_BUILD_TYPE=Release) ;;
  debug) cmake_args=(-DCMAKE_BUILD_TYPE=Debug) ;;
  # ASan+UBSan over everything (SPIRV-Tools too), coverage for libFuzzer.
  asan) cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPIRV_CONV_SANITIZE=address,undefined
                    -DSPIRV_CONV_FUZZING=ON) ;;
  *) echo "build.sh: unknown configuration '$config' (release, debug, asan)" >&2; exit 2 ;;
esac

# ccache: paths relative to the repository, so every build tree and every
# clone at the same depth shares the cache.
export CCACHE_BASEDIR="$repo"
export CCACHE_NOHASHDIR=1

build_dir="${SPIRV_CONV_BUILD_DIR:-$repo/build/$config}"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$repo" -B "$build_dir" -G Ninja \
    -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
    "${cmake_args[@]}" ${SPIRV_CONV_CMAKE_ARGS:-} >/dev/null
fi
# Quiet when there is nothing to do; ninja's own exit status decides.
set +e
ninja -C "$build_dir" "$@" | grep -Ev '^ninja: (no work to do|Entering directory)|Re-checking globbed directories'
status=${PIPESTATUS[0]}
exit "$status"
