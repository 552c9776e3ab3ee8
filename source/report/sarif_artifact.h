// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// File paths as SARIF artifact locations (SARIF 2.1.0 §3.4 and §3.10 on
// URIs, §3.14.14 on originalUriBaseIds).

#ifndef SOURCE_REPORT_SARIF_ARTIFACT_H_
#define SOURCE_REPORT_SARIF_ARTIFACT_H_

#include <string>

#include "nlohmann/json.hpp"

namespace spirv_conv {
namespace report {

// The uriBaseId of paths relative to the source root.
inline constexpr char kSourceRootId[] = "%SRCROOT%";

// |path| with every byte outside RFC 3986's unreserved characters and "/"
// percent-encoded ("a b%.frag" -> "a%20b%25.frag").
std::string EscapeUriPath(const std::string& path);

// "file:///dir/" for the absolute directory |dir| (a trailing "/" added).
std::string DirectoryUri(const std::string& dir);

// {"uri", "uriBaseId"} for |path|: relative to |source_root| (see
// SarifOptions::source_root) when it is under it, else an absolute file: URI.
nlohmann::json ArtifactLocation(const std::string& path, const std::string& source_root);

}  // namespace report
}  // namespace spirv_conv

#endif  // SOURCE_REPORT_SARIF_ARTIFACT_H_
