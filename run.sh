#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build Release, and
# run spirv-conv on the bundled shaders: validate, optimize with spirv-opt -O's
# passes each checked for convergence (docs/motion.md; a rolled-back pass is
# a warning), validate the result (one line per shader, with what the passes
# did), then the convergence lint report.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$repo/scripts/setup-deps.sh"
"$repo/scripts/build.sh" release spirv-conv >&2

spirv_conv="$repo/build/release/tools/spirv-conv/spirv-conv"
out="$repo/build/release/shaders-out"
mkdir -p "$out"
status=0
for shader in "$repo"/shaders/*.*; do
  "$spirv_conv" opt -O --verbose "$shader" -o "$out/$(basename "$shader").spv" 2>&1 |
    sed "s|$repo/||g" || status=1
done

# The lint of the top-level shaders (shaders/lint/ is the lint's own test
# corpus). Some demo shaders have deliberate bugs, so exit 1 ("findings
# reported") is expected; 2 and above mean the lint itself failed.
echo
echo "== spirv-conv lint -g shaders/*.*"
lint_status=0
(cd "$repo" && "$spirv_conv" lint -g -j "$(nproc)" shaders/*.*) ||
  lint_status=$?
[ "$lint_status" -le 1 ] || status=1
exit $status
