#!/usr/bin/env bash
# Takes the screenshots of docs/editor.md: Neovim with the documented
# configuration (docs/editor/spirv-conv.lua) on a bundled shader, in an xterm
# on a virtual X server (Xvfb), headless. Installs what it needs (Xvfb, xterm,
# ImageMagick, a font) from Debian's packages.
#
#   scripts/editor-screenshots.sh [OUT_DIR]    # default: docs/images
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$repo/docs/images}
spirv_conv="$repo/build/release/tools/spirv-conv/spirv-conv"
[ -x "$spirv_conv" ] || "$repo/scripts/build.sh" release spirv-conv

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for tool in Xvfb:xvfb xterm:xterm import:imagemagick nvim:neovim; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || missing+=(fonts-dejavu-core)
if [ "${#missing[@]}" -gt 0 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
sleep 1

# Each step of the driver below writes $work/ready-N when the screen shows
# shot N, and waits for $work/taken-N.
cat > "$work/driver.lua" <<'LUA'
local work = os.getenv("SHOT_DIR")
local function shot(n)
  vim.cmd("redraw!")
  local ready = io.open(work .. "/ready-" .. n, "w"); ready:close()
  vim.wait(20000, function() return vim.loop.fs_stat(work .. "/taken-" .. n) ~= nil end, 50)
end
vim.cmd("highlight NormalFloat guibg=#252526 guifg=#d4d4d4")
vim.cmd("highlight FloatBorder guibg=#252526 guifg=#808080")
vim.lsp.handlers["textDocument/hover"] =
  vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded", max_width = 110 })
local buffer = vim.api.nvim_get_current_buf()
vim.wait(30000, function() return #vim.diagnostic.get(buffer) >= 2 end, 50)
-- 1: the implicit-LOD sample in the divergent `if`, its explanation in the float.
vim.api.nvim_win_set_cursor(0, { 62, 8 })
vim.cmd("normal! zz")
vim.diagnostic.open_float(nil, { scope = "line", border = "rounded", max_width = 110 })
shot(1)
-- 2: hover on the loop's `break` condition variable.
for _, window in ipairs(vim.api.nvim_list_wins()) do
  if vim.api.nvim_win_get_config(window).relative ~= "" then vim.api.nvim_win_close(window, true) end
end
vim.api.nvim_win_set_cursor(0, { 51, 13 })
vim.lsp.buf.hover()
vim.wait(3000, function() return false end, 100)
shot(2)
vim.cmd("qall!")
LUA

(cd "$repo" && SHOT_DIR="$work" DISPLAY="$display" xterm -geometry 150x40+0+0 \
  -fa 'DejaVu Sans Mono' -fs 11 -bg '#1e1e1e' -fg '#d4d4d4' -e \
  nvim -n -u NONE --cmd "set termguicolors | let g:spirv_conv_command = '$spirv_conv'" \
    --cmd "luafile docs/editor/spirv-conv.lua" -c "syntax on | set number" \
    -c "luafile $work/driver.lua" shaders/divergent_derivative.frag) &

mkdir -p "$out"
for n in 1 2; do
  for _ in $(seq 600); do [ -f "$work/ready-$n" ] && break; sleep 0.05; done
  [ -f "$work/ready-$n" ] || { echo "editor-screenshots: Neovim never showed shot $n" >&2; exit 1; }
  sleep 0.5
  name=$([ "$n" = 1 ] && echo editor-diagnostic || echo editor-hover)
  DISPLAY="$display" import -window root -crop 1210x690+0+0 "$out/$name.png"
  touch "$work/taken-$n"
  echo "editor-screenshots: $out/$name.png"
done
wait
