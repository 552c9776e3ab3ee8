#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build Release, and
# run spirv-conv on the bundled shaders (validate + round-trip through the
# pass pipeline, one line per shader).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$repo/scripts/setup-deps.sh"
"$repo/scripts/build.sh" release spirv-conv >&2

spirv_conv="$repo/build/release/tools/spirv-conv/spirv-conv"
out="$repo/build/release/shaders-out"
mkdir -p "$out"
status=0
for shader in "$repo"/shaders/*.*; do
  "$spirv_conv" opt --verbose "$shader" -o "$out/$(basename "$shader").spv" 2>&1 |
    sed "s|$repo/||g" || status=1
done
exit $status
