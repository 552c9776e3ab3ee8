// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// JSON-RPC 2.0 over the Language Server Protocol's base protocol: messages
// framed by a "Content-Length: N" header block, each a JSON value
// (https://microsoft.github.io/language-server-protocol/specifications/base/0.9/specification/).

#ifndef SOURCE_LSP_JSON_RPC_H_
#define SOURCE_LSP_JSON_RPC_H_

#include <cstddef>
#include <optional>
#include <string>

#include "nlohmann/json.hpp"

namespace spirv_conv {
namespace lsp {

// JSON-RPC and LSP error codes.
enum class RpcError : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestCancelled = -32800,
};

// One message taken off the stream: its JSON, or why it is not one.
struct Incoming {
  std::optional<nlohmann::json> message;
  std::string error;  // a framing or parse error; |message| is empty
};

// Splits the bytes read from the client into messages. A header block
// without a valid Content-Length, or a body that is not JSON, becomes an
// error and the reader goes on with the next header block.
class MessageReader {
 public:
  // A body larger than this is an error and skipped.
  static constexpr size_t kMaxBodyBytes = 64u << 20;

  void Append(const char* bytes, size_t size) { buffer_.append(bytes, size); }
  // The next complete message, or nullopt when more bytes are needed.
  std::optional<Incoming> Next();
  // Bytes held back: part of a message not yet complete.
  size_t Pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
  size_t skip_ = 0;  // body bytes still to drop after an oversized header
};

// |message| framed for the stream.
std::string Frame(const nlohmann::json& message);

nlohmann::json Response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json ErrorResponse(const nlohmann::json& id, RpcError code, const std::string& message);
nlohmann::json Notification(const std::string& method, nlohmann::json params);

}  // namespace lsp
}  // namespace spirv_conv

#endif  // SOURCE_LSP_JSON_RPC_H_
