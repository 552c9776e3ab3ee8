// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Keeps the first error SPIRV-Tools reports through a MessageConsumer, so it
// can become the one-line message of an Error.

#ifndef SOURCE_IO_MESSAGE_CAPTURE_H_
#define SOURCE_IO_MESSAGE_CAPTURE_H_

#include <memory>
#include <string>

#include "spirv-tools/libspirv.hpp"

namespace spirv_conv {
namespace io {

class MessageCapture {
 public:
  // A consumer that records the first message at error level or worse. The
  // consumer may outlive neither this object nor its copies' use.
  spvtools::MessageConsumer Consumer() {
    return [this](spv_message_level_t level, const char*, const spv_position_t& position,
                  const char* message) {
      if (!first_.empty() || level > SPV_MSG_ERROR) return;
      first_ = message;
      position_ = position;
    };
  }

  bool empty() const { return first_.empty(); }
  // The first error on one line, or |fallback| if there was none.
  std::string First(const std::string& fallback) const {
    return empty() ? fallback : OneLine(first_);
  }
  const spv_position_t& position() const { return position_; }

 private:
  // SPIRV-Tools' messages may span lines (the validator appends the offending
  // instruction; the assembler quotes a string with its newline). Error
  // messages are one line: line breaks become " | ", runs of blanks one blank.
  static std::string OneLine(const std::string& message) {
    std::string result;
    for (char c : message) {
      const bool blank = c == ' ' || c == '\t' || c == '\r';
      if (c == '\n') {
        while (!result.empty() && result.back() == ' ') result.pop_back();
        result += " | ";
      } else if (!blank || (!result.empty() && result.back() != ' ')) {
        result += blank ? ' ' : c;
      }
    }
    while (!result.empty() && (result.back() == ' ' || result.back() == '|')) result.pop_back();
    return result;
  }

  std::string first_;
  spv_position_t position_{};
};

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_MESSAGE_CAPTURE_H_
