// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Lint(): every rule over one module, then severity overrides, source-level
// suppressions and module order.

#include <algorithm>
#include <map>

#include "lint/lint_context.h"
#include "lint/rules.h"
#include "lint/suppression.h"
#include "spirv_conv/lint.h"

namespace spirv_conv {

Status ParseRuleLevel(const std::string& setting, LintOptions* options) {
  const size_t equals = setting.find('=');
  const std::string id = setting.substr(0, equals);
  std::string known;
  bool found = false;
  for (const RuleInfo& rule : LintRules()) {
    known += std::string(known.empty() ? "" : ", ") + rule.id;
    found |= id == rule.id;
  }
  if (equals == std::string::npos) {
    return Error{ExitCode::kBadInput,
                 "--rule '" + setting + "': expected ID=LEVEL (LEVEL: off, note, warning, error)"};
  }
  if (!found) {
    return Error{ExitCode::kBadInput, "--rule: unknown rule '" + id + "'; one of: " + known};
  }
  const std::string level = setting.substr(equals + 1);
  static const std::pair<const char*, std::optional<Severity>> kLevels[] = {
      {"off", std::nullopt},
      {"note", Severity::kNote},
      {"warning", Severity::kWarning},
      {"error", Severity::kError}};
  for (const auto& [name, severity] : kLevels) {
    if (level == name) {
      options->rule_levels[id] = severity;
      return Ok{};
    }
  }
  return Error{ExitCode::kBadInput, "--rule " + id + ": unknown level '" + level +
                                        "'; one of: off, note, warning, error"};
}

std::vector<Finding> Lint(spvtools::opt::IRContext& context, const UniformityInfo& info,
                          const LintOptions& options) {
  lint::LintContext lint(context, info, options.input_path, &options.unsaved_files);
  auto allowed = [&](const Finding& finding) {
    const Location& at = finding.location;
    if (at.line == 0) return false;
    const std::string previous = at.line > 1 ? lint.sources.Line(at.file, at.line - 1) : "";
    return lint::IsAllowed(finding.rule, at.source_line, previous);
  };
  lint::Findings kept;
  for (const lint::Rule& rule : lint::AllRules()) {
    auto level = options.rule_levels.find(rule.info.id);
    if (level != options.rule_levels.end() && !level->second) continue;  // off
    lint::Findings found;
    rule.check(lint, &found);
    for (lint::RuleFinding& f : found) {
      if (level != options.rule_levels.end()) f.finding.severity = *level->second;
      if (!allowed(f.finding)) kept.push_back(std::move(f));
    }
  }
  // Module order; rules in table order at the same instruction.
  std::stable_sort(kept.begin(), kept.end(),
                   [&](const lint::RuleFinding& a, const lint::RuleFinding& b) {
                     return lint.blocks.Position(*a.at) < lint.blocks.Position(*b.at);
                   });
  std::vector<Finding> findings;
  for (lint::RuleFinding& f : kept) findings.push_back(std::move(f.finding));
  return options.group_by_cause ? GroupByCause(std::move(findings)) : findings;
}

std::vector<Finding> GroupByCause(std::vector<Finding> findings) {
  // The explanation as a key: every note's message and position.
  auto key = [](const Finding& f) {
    std::string text = f.rule + '\n' + SeverityName(f.severity);
    for (const Note& note : f.notes) {
      text += '\n' + note.message + '\t' + note.location.file + ':' +
              std::to_string(note.location.line) + ':' + std::to_string(note.location.column) +
              '\t' + note.location.instruction;
    }
    return text;
  };
  std::vector<Finding> grouped;
  std::map<std::string, size_t> first;  // key -> index in |grouped|
  for (Finding& f : findings) {
    if (f.notes.empty()) {  // no cause to share
      grouped.push_back(std::move(f));
      continue;
    }
    auto [it, inserted] = first.try_emplace(key(f), grouped.size());
    if (inserted) {
      grouped.push_back(std::move(f));
    } else {
      grouped[it->second].more_sites.push_back({std::move(f.message), std::move(f.location)});
    }
  }
  return grouped;
}

}  // namespace spirv_conv
