#!/usr/bin/env bash
# The test suite on a fresh machine: install what is missing, build, and run
# every test through ctest.
#
#   ./test.sh            Release build, then the same suite under ASan+UBSan
#   ./test.sh --quick    Release build only
#   ./test.sh -R REGEX   only the tests whose names match (passed to ctest)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
configs=(release asan)
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) configs=(release) ;;
    *) ctest_args+=("$1") ;;
  esac
  shift
done

"$repo/scripts/setup-deps.sh"
for config in "${configs[@]}"; do
  echo "== $config: build" >&2
  "$repo/scripts/build.sh" "$config" >&2
  echo "== $config: test" >&2
  ctest --test-dir "$repo/build/$config" --output-on-failure -j "$(nproc)" "${ctest_args[@]}"
done
