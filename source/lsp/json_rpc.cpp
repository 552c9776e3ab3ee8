// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lsp/json_rpc.h"

#include <algorithm>
#include <cctype>

namespace spirv_conv {
namespace lsp {
namespace {

// The value of header |name| (case-insensitive) in |headers|, or nullopt.
std::optional<std::string> HeaderValue(const std::string& headers, const std::string& name) {
  size_t start = 0;
  while (start < headers.size()) {
    size_t end = headers.find("\r\n", start);
    if (end == std::string::npos) end = headers.size();
    const std::string line = headers.substr(start, end - start);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string key = line.substr(0, colon);
      std::transform(key.begin(), key.end(), key.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (key == name) {
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        value.erase(value.find_last_not_of(" \t") + 1);
        return value;
      }
    }
    start = end + 2;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Incoming> MessageReader::Next() {
  if (skip_ > 0) {
    const size_t dropped = std::min(skip_, buffer_.size());
    buffer_.erase(0, dropped);
    skip_ -= dropped;
    if (skip_ > 0) return std::nullopt;
  }
  const size_t end = buffer_.find("\r\n\r\n");
  if (end == std::string::npos) {
    // A header block is a few dozen bytes; this many without its end is
    // not one.
    if (buffer_.size() > 4096) {
      buffer_.clear();
      return Incoming{std::nullopt, "no header block ends in the last 4096 bytes"};
    }
    return std::nullopt;
  }
  const std::string headers = buffer_.substr(0, end);
  const std::optional<std::string> length_text = HeaderValue(headers, "content-length");
  size_t length = 0;
  bool valid = length_text.has_value() && !length_text->empty() && length_text->size() <= 12 &&
               std::all_of(length_text->begin(), length_text->end(),
                           [](unsigned char c) { return std::isdigit(c) != 0; });
  if (valid) length = std::stoull(*length_text);
  if (!valid) {
    buffer_.erase(0, end + 4);
    return Incoming{std::nullopt, "a header block without a valid Content-Length"};
  }
  if (length > kMaxBodyBytes) {
    buffer_.erase(0, end + 4);
    skip_ = length;
    return Incoming{std::nullopt, "a message of " + std::to_string(length) +
                                      " bytes, more than the limit of " +
                                      std::to_string(kMaxBodyBytes)};
  }
  if (buffer_.size() < end + 4 + length) return std::nullopt;
  const std::string body = buffer_.substr(end + 4, length);
  buffer_.erase(0, end + 4 + length);
  nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return Incoming{std::nullopt, "the message is not valid JSON"};
  return Incoming{std::move(message), ""};
}

std::string Frame(const nlohmann::json& message) {
  // Invalid UTF-8 in a source line must not make the dump throw.
  const std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

nlohmann::json Response(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json ErrorResponse(const nlohmann::json& id, RpcError code, const std::string& message) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

nlohmann::json Notification(const std::string& method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace lsp
}  // namespace spirv_conv
