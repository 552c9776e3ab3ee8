#!/usr/bin/env bash
# Fetches the public shader corpora that only the hand-judged lint precision
# uses (docs/lint-corpus.md "Precision on public corpora"), beyond the
# glslang and SPIRV-Cross sources scripts/setup-deps.sh fetches. Not part of
# the build or the test suite: nothing else needs them.
#
#   scripts/fetch-lint-corpora.sh      # -> third_party/godot
#
# Godot 4's RenderingDevice shaders (compute shaders with shared memory and
# barriers, fragment shaders with derivatives; test/corpus/godot_shaders.py)
# come from Debian's source package godot 4.6.3+ds-2, fetched with apt-get
# from unstable (the only suite with Godot 4; the archive keeps the version
# only while unstable or a later suite holds it). Pinned by the upstream
# tarball's SHA-256; only servers/rendering, modules and thirdparty/amd-fsr{,2}
# are unpacked.
#
# Environment:
#   SPIRV_CONV_THIRD_PARTY  where the corpora go (default: <repo>/third_party, git-ignored)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
third_party=${SPIRV_CONV_THIRD_PARTY:-$repo/third_party}

GODOT_DEB_VERSION=4.6.3+ds-2
GODOT_DEB_SUITE=sid
GODOT_ORIG=godot_4.6.3+ds.orig.tar.xz
GODOT_ORIG_SHA256=2c7f6b7b2566182869d3f50829b8260179137ff169c34026640f9e8f9c3c0506
GODOT_PARTS=(servers/rendering modules thirdparty/amd-fsr thirdparty/amd-fsr2)

log() { echo "fetch-lint-corpora: $*" >&2; }

# fetch_source_tarball PACKAGE VERSION SUITE ORIG SHA256 DIR PARTS...: download
# the source package with apt-get, from the Debian mirror this machine's apt
# already uses, through a private sources list for SUITE (the system's lists
# are not touched); unpack PARTS of its ORIG tarball (top folder stripped, the
# tarball checked against SHA256) into DIR, once per VERSION.
fetch_source_tarball() {
  local pkg=$1 version=$2 suite=$3 orig=$4 sha256=$5 dir=$6; shift 6
  [ -f "$dir/.spirv-conv-version" ] && [ "$(cat "$dir/.spirv-conv-version")" = "$version" ] && return 0
  local mirror
  mirror=$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null | grep -m1 '/debian/$' || true)
  if [ -z "$mirror" ]; then
    log "no Debian mirror in apt's sources (run apt-get update first)"; return 1
  fi
  log "fetching source package $pkg=$version ($suite)"
  mkdir -p "$third_party"
  local tmp; tmp=$(mktemp -d "$third_party/.fetch.XXXXXX")
  mkdir -p "$tmp/apt/lists/partial" "$tmp/apt/cache/archives/partial"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$mirror" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg >"$tmp/apt/suite.sources"
  local apt=(-o "Dir::Etc::SourceList=$tmp/apt/suite.sources" -o Dir::Etc::SourceParts=/nonexistent
             -o "Dir::State::Lists=$tmp/apt/lists" -o "Dir::Cache=$tmp/apt/cache" -q
             -o APT::Sandbox::User=root)
  if ! (cd "$tmp" && apt-get "${apt[@]}" update >/dev/null &&
        apt-get "${apt[@]}" source --download-only "$pkg=$version" >/dev/null); then
    log "cannot fetch $pkg=$version (a version the archive no longer holds? see docs/lint-corpus.md)"
    rm -rf "$tmp"; return 1
  fi
  if ! echo "$sha256  $tmp/$orig" | sha256sum --check --status; then
    log "checksum mismatch for $orig"
    rm -rf "$tmp"; return 1
  fi
  local top; top=$(tar -tf "$tmp/$orig" | sed -n 1p | cut -d/ -f1)
  mkdir "$tmp/unpacked"
  tar -xf "$tmp/$orig" -C "$tmp/unpacked" --strip-components=1 "${@/#/$top/}"
  rm -rf "$dir"
  mv "$tmp/unpacked" "$dir"
  rm -rf "$tmp"
  echo "$version" >"$dir/.spirv-conv-version"
}

fetch_source_tarball godot "$GODOT_DEB_VERSION" "$GODOT_DEB_SUITE" "$GODOT_ORIG" \
  "$GODOT_ORIG_SHA256" "$third_party/godot" "${GODOT_PARTS[@]}"
