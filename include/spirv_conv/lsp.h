// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv lsp: a Language Server Protocol server for GLSL, HLSL and
// SPIR-V assembly that publishes the convergence lint's findings as
// diagnostics, with their explanations as related information, offers the
// mechanical fixes as code actions and the uniformity of what is under the
// cursor as hover (docs/editor.md).

#ifndef INCLUDE_SPIRV_CONV_LSP_H_
#define INCLUDE_SPIRV_CONV_LSP_H_

#include <string>

namespace spirv_conv {

struct LanguageServerOptions {
  // The prefix of the rule documentation's URIs ("file:///usr/share/doc/
  // spirv-conv/rules/"): the rule id and ".md" follow. Empty: diagnostics
  // carry no link. The client's "ruleDocs" setting overrides it.
  std::string rule_docs;
  // Documents linted at the same time, each in a child process.
  unsigned jobs = 2;
};

// Serves one client on |input_fd| and |output_fd| until it sends "exit" or
// closes its end. Returns 0 after "shutdown" then "exit", 1 otherwise (as
// the protocol asks of the process's exit code).
int RunLanguageServer(int input_fd, int output_fd, const LanguageServerOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_LSP_H_
