// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The JSON of `spirv-conv opt --report` (docs/passes.md#report). Field names
// are a contract: add, never rename.

#include "spirv_conv/pass_report.h"

#include <utility>

#include "nlohmann/json.hpp"
#include "report/finding_json.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace {

using nlohmann::json;

using report::OrNull;

json ChangeJson(const PassChange& change) {
  return {{"pass", change.pass},
          {"action", change.action},
          {"id", OrNull(change.id)},
          {"opcode", OrNull(change.opcode)},
          {"detail", OrNull(change.detail)},
          {"file", OrNull(change.file)},
          {"line", OrNull(change.line)}};
}

json OptimizerPassJson(const OptimizerPassResult& pass) {
  json findings = json::array();
  for (const Finding& finding : pass.findings) findings.push_back(report::FindingJson(finding));
  return {{"pass", pass.flag},
          {"outcome", OutcomeName(pass.outcome)},
          {"reason", OrNull(pass.reason)},
          {"findings", findings},
          {"pass_ms", pass.pass_ms},
          {"check_ms", pass.check_ms}};
}

}  // namespace

std::string RenderPassReport(const std::vector<ModuleChanges>& modules) {
  json entries = json::array();
  for (const ModuleChanges& module : modules) {
    json changes = json::array();
    for (const PassChange& change : module.changes) changes.push_back(ChangeJson(change));
    json optimizer = json::array();
    for (const OptimizerPassResult& pass : module.optimizer) {
      optimizer.push_back(OptimizerPassJson(pass));
    }
    json entry = {{"input", module.input},
                  {"output", OrNull(module.output)},
                  {"changes", std::move(changes)},
                  {"optimizer", std::move(optimizer)}};
    if (!module.error.empty()) entry["error"] = module.error;
    entries.push_back(std::move(entry));
  }
  json report = {
      {"tool", "spirv-conv"}, {"version", VersionNumber()}, {"modules", std::move(entries)}};
  return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spirv_conv
