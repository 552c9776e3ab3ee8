// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Hover: the uniformity of the variable under the cursor (or of the branch
// condition on the line) and the first steps of why it is not uniform.

#include "lsp/features.h"
#include "lsp/text.h"

namespace spirv_conv {
namespace lsp {

using nlohmann::json;

namespace {

constexpr size_t kShownSteps = 4;

// The levels of docs/uniformity.md, widest last.
int Rank(const std::string& level) {
  if (level == "uniform") return 0;
  if (level == "subgroup") return 1;
  if (level == "quad") return 2;
  return 3;
}

std::string Meaning(const std::string& level) {
  if (level == "uniform") return "**dynamically uniform**: the same in every invocation";
  if (level == "subgroup") {
    return "**subgroup-uniform**: the same within a subgroup, not across the whole invocation "
           "group";
  }
  if (level == "quad") return "**quad-uniform**: the same within a quad, not across the subgroup";
  return "**divergent**: it may differ between invocations of a quad";
}

}  // namespace

json Hover(const json& result, const std::string& path, uint32_t line, uint32_t character,
           const FeatureContext& context) {
  const std::vector<std::string>& lines = context.lines_of(path);
  if (line >= lines.size()) return nullptr;
  const std::string& text = lines[line];
  const std::string word = WordAt(text, ByteOfUtf16Column(text, character));
  if (word.empty()) return nullptr;
  // The widest value the word names on the line; a branch condition when
  // it names no variable read or written there.
  const json* variable = nullptr;
  const json* condition = nullptr;
  for (const json& value : result.at("values")) {
    const json& at = value.at("location");
    if (FileKey(at.value("file", json())) != path || at.value("line", json()) != line + 1) continue;
    const std::string level = value.at("level").get<std::string>();
    const json** best = value.at("kind") == "variable"
                            ? (value.at("name") == word ? &variable : nullptr)
                            : &condition;
    if (best == nullptr) continue;
    if (*best == nullptr || Rank(level) > Rank((*best)->at("level").get<std::string>())) {
      *best = &value;
    }
  }
  const json* shown = variable != nullptr ? variable : condition;
  if (shown == nullptr) return nullptr;
  const std::string level = shown->at("level").get<std::string>();
  std::string markdown = (variable != nullptr ? "`" + word + "`" : std::string("The condition")) +
                         " is " + Meaning(level) + ".";
  const json& steps = shown->at("explanation");
  size_t count = 0;
  for (const json& step : steps) {
    if (count++ == kShownSteps) {
      markdown += "\n- … (" + std::to_string(steps.size() - kShownSteps) + " more)";
      break;
    }
    const json& at = step.at("location");
    const json& step_line = at.value("line", json());
    markdown += "\n- ";
    if (step_line.is_number()) {
      const std::string file = FileKey(at.value("file", json()));
      markdown += (file == path ? "" : file.substr(file.find_last_of('/') + 1) + ":") + "line " +
                  std::to_string(step_line.get<uint32_t>()) + ": ";
    }
    markdown += step.at("message").get<std::string>();
  }
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}};
}

}  // namespace lsp
}  // namespace spirv_conv
