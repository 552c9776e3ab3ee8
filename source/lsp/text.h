// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Documents as the Language Server Protocol addresses them: file URIs, and
// positions as a 0-based line and a column counted in UTF-16 code units.

#ifndef SOURCE_LSP_TEXT_H_
#define SOURCE_LSP_TEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace spirv_conv {
namespace lsp {

// The path of a "file://" URI (percent-decoded); nullopt for other schemes.
std::optional<std::string> PathOfUri(const std::string& uri);
// The "file://" URI of an absolute |path| (percent-encoded as VS Code does).
std::string UriOfPath(const std::string& path);

// The lines of a text: split at "\n", a "\r" before it dropped.
std::vector<std::string> SplitLines(const std::string& text);

// The UTF-16 length of the first |bytes| bytes of UTF-8 |line|.
uint32_t Utf16Column(const std::string& line, size_t bytes);
// The byte offset in |line| of UTF-16 column |column| (clamped to the line).
size_t ByteOfUtf16Column(const std::string& line, uint32_t column);

// An LSP Range on one line, from byte |begin| to byte |end| of |line_text|.
nlohmann::json LineRange(uint32_t line, const std::string& line_text, size_t begin, size_t end);
// The range a finding at 1-based |line| underlines: the code on the line,
// without its indentation and a trailing comment; the start of the file for
// line 0 or a line past the end.
nlohmann::json CodeRange(const std::vector<std::string>& lines, uint32_t line);

// The identifier (letters, digits, '_') around byte |at| of |line|, or "".
std::string WordAt(const std::string& line, size_t at);

}  // namespace lsp
}  // namespace spirv_conv

#endif  // SOURCE_LSP_TEXT_H_
