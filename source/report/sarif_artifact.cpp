// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "report/sarif_artifact.h"

#include <filesystem>

namespace spirv_conv {
namespace report {
namespace {

namespace fs = std::filesystem;

bool Unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// |dir| without a trailing separator, so that it compares as a directory.
fs::path Directory(const std::string& dir) {
  fs::path path = fs::path(dir).lexically_normal();
  return path.has_filename() || path == path.root_path() ? path : path.parent_path();
}

}  // namespace

std::string EscapeUriPath(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (Unreserved(c) || c == '/') {
      uri += ch;
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

std::string DirectoryUri(const std::string& dir) {
  std::string path = Directory(dir).generic_string();
  if (path.empty() || path.back() != '/') path += '/';
  return "file://" + EscapeUriPath(path);
}

nlohmann::json ArtifactLocation(const std::string& path, const std::string& source_root) {
  fs::path file = fs::path(path).lexically_normal();
  if (!source_root.empty()) {
    const fs::path root = Directory(source_root);
    if (file.is_relative()) file = (root / file).lexically_normal();
    const fs::path relative = file.lexically_relative(root);
    if (!relative.empty() && *relative.begin() != ".." && relative != ".") file = relative;
  }
  if (file.is_absolute()) return {{"uri", "file://" + EscapeUriPath(file.generic_string())}};
  return {{"uri", EscapeUriPath(file.generic_string())}, {"uriBaseId", kSourceRootId}};
}

}  // namespace report
}  // namespace spirv_conv
