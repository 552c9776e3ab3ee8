// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/suppression.h"

#include <cctype>

namespace spirv_conv {
namespace lint {
namespace {

constexpr char kMarker[] = "spirv-conv:";

std::string Trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

// Some "spirv-conv: allow(...)" in |line| lists |rule|.
bool Lists(const std::string& rule, const std::string& line) {
  for (size_t at = line.find(kMarker); at != std::string::npos; at = line.find(kMarker, at + 1)) {
    const std::string rest = Trim(line.substr(at + sizeof(kMarker) - 1));
    if (rest.rfind("allow(", 0) != 0) continue;
    const size_t close = rest.find(')');
    if (close == std::string::npos) continue;
    std::string list = rest.substr(6, close - 6);
    for (size_t start = 0; start <= list.size();) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      if (Trim(list.substr(start, comma - start)) == rule) return true;
      start = comma + 1;
    }
  }
  return false;
}

bool IsCommentOnly(const std::string& line) {
  const std::string trimmed = Trim(line);
  return trimmed.rfind("//", 0) == 0 || trimmed.rfind("/*", 0) == 0;
}

}  // namespace

bool IsAllowed(const std::string& rule, const std::string& line, const std::string& previous_line) {
  return Lists(rule, line) || (IsCommentOnly(previous_line) && Lists(rule, previous_line));
}

}  // namespace lint
}  // namespace spirv_conv
