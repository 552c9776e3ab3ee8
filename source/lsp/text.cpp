// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lsp/text.h"

#include <cctype>

namespace spirv_conv {
namespace lsp {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The number of bytes of the UTF-8 sequence |lead| starts (1 for a stray
// continuation byte, so that every byte is counted once).
size_t SequenceBytes(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::optional<std::string> PathOfUri(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0) return std::nullopt;
  std::string rest = uri.substr(scheme.size());
  // "file://host/path": only the local host is a file here.
  const size_t slash = rest.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  rest = rest.substr(slash);
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && HexValue(rest[i + 1]) >= 0 &&
        HexValue(rest[i + 2]) >= 0) {
      path += static_cast<char>(HexValue(rest[i + 1]) * 16 + HexValue(rest[i + 2]));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

std::string UriOfPath(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[byte >> 4];
      uri += kHex[byte & 15];
    }
  }
  return uri;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

uint32_t Utf16Column(const std::string& line, size_t bytes) {
  uint32_t column = 0;
  for (size_t i = 0; i < bytes && i < line.size();) {
    const size_t n = SequenceBytes(static_cast<unsigned char>(line[i]));
    column += n == 4 ? 2 : 1;  // outside the BMP: a surrogate pair
    i += n;
  }
  return column;
}

size_t ByteOfUtf16Column(const std::string& line, uint32_t column) {
  size_t i = 0;
  for (uint32_t units = 0; i < line.size() && units < column;) {
    const size_t n = SequenceBytes(static_cast<unsigned char>(line[i]));
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return i < line.size() ? i : line.size();
}

nlohmann::json LineRange(uint32_t line, const std::string& line_text, size_t begin, size_t end) {
  return {{"start", {{"line", line}, {"character", Utf16Column(line_text, begin)}}},
          {"end", {{"line", line}, {"character", Utf16Column(line_text, end)}}}};
}

nlohmann::json CodeRange(const std::vector<std::string>& lines, uint32_t line) {
  if (line == 0 || line > lines.size()) return LineRange(0, "", 0, 0);
  const std::string& text = lines[line - 1];
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return LineRange(line - 1, text, 0, text.size());
  size_t end = text.find("//", begin);
  if (end == begin) end = text.size();  // a line that is only a comment
  if (end == std::string::npos) end = text.size();
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return LineRange(line - 1, text, begin, end);
}

std::string WordAt(const std::string& line, size_t at) {
  if (at > line.size()) return "";
  size_t begin = at;
  while (begin > 0 && IsWordChar(line[begin - 1])) --begin;
  size_t end = at;
  while (end < line.size() && IsWordChar(line[end])) ++end;
  return line.substr(begin, end - begin);
}

}  // namespace lsp
}  // namespace spirv_conv
