// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The SARIF 2.1.0 log of docs/sarif.md ("spirv-conv lint --format sarif"),
// in the subset GitHub code scanning reads: rules with help text, results
// with a physical location, notes as related locations and as a code flow,
// and the inputs that could not be linted as tool execution notifications.

#include <map>

#include "nlohmann/json.hpp"
#include "report/module_position.h"
#include "report/sarif_artifact.h"
#include "spirv_conv/report.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace {

using nlohmann::json;

constexpr char kSchema[] = "https://json.schemastore.org/sarif-2.1.0.json";

// "derivative-divergent-cf" -> "DerivativeDivergentCf", the rule's name.
std::string PascalCase(const std::string& id) {
  std::string name;
  bool upper = true;
  for (const char c : id) {
    if (c == '-') {
      upper = true;
    } else {
      name += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
      upper = false;
    }
  }
  return name;
}

// The summary as a sentence.
std::string Sentence(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
  return text.empty() || text.back() == '.' ? text : text + ".";
}

// A rule documented elsewhere than docs/rules/ and not configurable.
json OtherRuleJson(const RuleInfo& rule, const std::string& doc) {
  const std::string id = rule.id;
  const std::string summary = Sentence(rule.summary);
  const std::string see = " See " + doc + " in the spirv-conv documentation.";
  return {{"id", id},
          {"name", PascalCase(id)},
          {"shortDescription", {{"text", summary}}},
          {"fullDescription", {{"text", summary}}},
          {"help", {{"text", summary + see}, {"markdown", "**" + id + "**: " + summary + see}}},
          {"defaultConfiguration", {{"level", SeverityName(rule.default_severity)}}}};
}

json RuleJson(const RuleInfo& rule) {
  const std::string id = rule.id;
  const std::string level = SeverityName(rule.default_severity);
  const std::string summary = Sentence(rule.summary);
  const std::string doc = "docs/rules/" + id + ".md";
  const std::string setting = "--rule " + id + "=off|note|warning|error";
  const std::string comment = "// spirv-conv: allow(" + id + ")";
  const std::string see =
      " in the spirv-conv documentation: what the rule finds, the specification "
      "text behind it, examples and fixes.";
  const std::string text = summary + " See " + doc + see + " Change its level with " + setting +
                           "; allow it on one source line with a comment '" + comment +
                           "' (docs/rules/README.md).";
  const std::string markdown = "**" + id + "**: " + summary + "\n\nSee `" + doc + "`" + see +
                               "\n\nChange its level with `" + setting +
                               "`; allow it on one source line with a comment `" + comment +
                               "` (`docs/rules/README.md`).";
  return {{"id", id},
          {"name", PascalCase(id)},
          {"shortDescription", {{"text", summary}}},
          {"fullDescription",
           {{"text", summary + " Reported at level " + level +
                         " by default (the highest level the rule uses); change it with " +
                         setting + "."}}},
          {"help", {{"text", text}, {"markdown", markdown}}},
          {"defaultConfiguration", {{"level", level}}}};
}

// Where |at| is: its source file and line when known (else the input
// |file| as a whole) and, when the module names them, the function, block
// and instruction as a logical location.
json LocationJson(const Location& at, const std::string& file, const SarifOptions& options) {
  json location = json::object();
  const std::string& artifact = at.file.empty() ? file : at.file;
  if (artifact != "-") {  // standard input has no artifact to point at
    json physical = {{"artifactLocation", report::ArtifactLocation(artifact, options.source_root)}};
    if (at.line != 0) {
      physical["region"] = {{"startLine", at.line}};
      if (at.column != 0) physical["region"]["startColumn"] = at.column;
      // The region runs from the column (else the line's start) to the line's end.
      if (at.column <= at.source_line.size() && !at.source_line.empty()) {
        const size_t start = at.column == 0 ? 0 : at.column - 1;
        physical["region"]["snippet"] = {{"text", at.source_line.substr(start)}};
      }
    }
    location["physicalLocation"] = physical;
  }
  if (!at.function.empty() || !at.block.empty() || !at.instruction.empty()) {
    json logical = {{"kind", "function"}};
    if (!at.function.empty()) logical["name"] = at.function;
    json properties = json::object();
    if (!at.block.empty()) properties["block"] = at.block;
    if (!at.instruction.empty()) properties["instruction"] = at.instruction;
    if (!properties.empty()) logical["properties"] = properties;
    location["logicalLocations"] = json::array({logical});
  }
  return location;
}

// |text|, and where in the module it is when there is no source line.
json MessageJson(const std::string& text, const Location& at) {
  const std::string where = at.line == 0 ? report::ModulePosition(at) : "";
  return {{"text", where.empty() ? text : text + " (" + where + ")"}};
}

json ResultJson(const Finding& finding, const std::string& file, const SarifOptions& options) {
  json result = {{"ruleId", finding.rule},
                 {"level", SeverityName(finding.severity)},
                 {"message", MessageJson(finding.message, finding.location)},
                 {"locations", json::array({LocationJson(finding.location, file, options)})}};
  const std::vector<RuleInfo>& rules = options.rules ? *options.rules : LintRules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (finding.rule == rules[i].id) result["ruleIndex"] = i;
  }
  if (file != "-") result["analysisTarget"] = report::ArtifactLocation(file, options.source_root);
  if (finding.notes.empty()) return result;

  // The notes run from the finding back to the source of non-uniformity; the
  // code flow goes the other way, ending at the finding.
  json related = json::array();
  json flow = json::array();
  for (size_t i = 0; i < finding.notes.size(); ++i) {
    const Note& note = finding.notes[i];
    json location = LocationJson(note.location, file, options);
    location["message"] = MessageJson(note.message, note.location);
    flow.insert(flow.begin(), json::object({{"location", location}}));
    location["id"] = i + 1;
    related.push_back(location);
  }
  // Further sites with the same cause: related locations the message links
  // to ("[line 27](5)", SARIF 3.11.6 embedded links).
  if (!finding.more_sites.empty()) {
    std::string links;
    for (const Note& site : finding.more_sites) {
      json location = LocationJson(site.location, file, options);
      location["message"] = MessageJson("the same cause here: " + site.message, site.location);
      location["id"] = related.size() + 1;
      const std::string where =
          site.location.line != 0 ? "line " + std::to_string(site.location.line) : "here";
      links += (links.empty() ? "" : ", ") +
               ("[" + where + "](" + std::to_string(related.size() + 1) + ")");
      related.push_back(location);
    }
    result["message"]["text"] =
        result["message"]["text"].get<std::string>() + " (also " + links + ", with the same cause)";
  }
  json last = LocationJson(finding.location, file, options);
  last["message"] = MessageJson(finding.message, finding.location);
  flow.push_back(json::object({{"location", last}}));
  result["relatedLocations"] = related;
  const json thread_flow = json::object({{"locations", flow}});
  result["codeFlows"] = json::array({json::object({{"threadFlows", json::array({thread_flow})}})});
  return result;
}

// One invocation; each input that could not be linted is an error
// notification about that input, and makes the execution unsuccessful.
json InvocationJson(const std::vector<FileFindings>& files, const SarifOptions& options) {
  json notifications = json::array();
  for (const FileFindings& file : files) {
    if (!file.error) continue;
    json notification = {{"level", "error"}, {"message", {{"text", file.error->message}}}};
    if (file.file != "-") {
      notification["locations"] = json::array(
          {{{"physicalLocation",
             {{"artifactLocation", report::ArtifactLocation(file.file, options.source_root)}}}}});
    }
    notifications.push_back(notification);
  }
  json invocation = {{"executionSuccessful", notifications.empty()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  return invocation;
}

}  // namespace

std::string RenderSarif(const std::vector<FileFindings>& files, const SarifOptions& options) {
  json rules = json::array();
  if (options.rules == nullptr) {
    for (const RuleInfo& rule : LintRules()) rules.push_back(RuleJson(rule));
  } else {
    for (const RuleInfo& rule : *options.rules) {
      rules.push_back(OtherRuleJson(rule, options.rules_doc));
    }
  }
  json results = json::array();
  for (const FileFindings& file : files) {
    for (const Finding& finding : file.findings) {
      results.push_back(ResultJson(finding, file.file, options));
    }
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", "spirv-conv"},
                  {"version", VersionNumber()},
                  {"semanticVersion", VersionNumber()},
                  {"rules", rules}}}}},
              {"invocations", json::array({InvocationJson(files, options)})},
              {"results", results}};
  if (!options.source_root.empty()) {
    run["originalUriBaseIds"] = {
        {report::kSourceRootId, {{"uri", report::DirectoryUri(options.source_root)}}}};
  }
  json log = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  // Strings from the module (OpString, OpName, source text) need not be UTF-8:
  // glslang 12 mangles non-ASCII file names. Such bytes become U+FFFD.
  return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spirv_conv
