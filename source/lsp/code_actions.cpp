// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Quick fixes for findings where the fix is mechanical (docs/editor.md):
// qualify a descriptor index as non-uniform, compute an implicit-LOD
// sample's gradients before the divergent statement around it, or allow the
// rule at the line. Each is a text edit on the lines the lint pointed at,
// offered only when the text there has the shape the edit expects.

#include <regex>

#include "lsp/features.h"
#include "lsp/text.h"

namespace spirv_conv {
namespace lsp {

using nlohmann::json;

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsHlsl(const std::string& path) { return EndsWith(path, ".hlsl") || EndsWith(path, ".hlsli"); }

bool IsSpirv(const std::string& path) {
  return EndsWith(path, ".spv") || EndsWith(path, ".spirv") || EndsWith(path, ".spvasm") ||
         EndsWith(path, ".spvas");
}

std::string Indentation(const std::string& line) {
  return line.substr(0, line.find_first_not_of(" \t") == std::string::npos
                            ? line.size()
                            : line.find_first_not_of(" \t"));
}

std::string Trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") + 1 - begin);
}

json Replace(uint32_t line, const std::string& text, size_t begin, size_t end,
             const std::string& replacement) {
  return {{"range", LineRange(line, text, begin, end)}, {"newText", replacement}};
}

json InsertLines(uint32_t line, const std::string& lines) {
  const json at = {{"line", line}, {"character", 0}};
  return {{"range", {{"start", at}, {"end", at}}}, {"newText", lines}};
}

json QuickFix(const std::string& title, const json& diagnostic, json changes, bool preferred) {
  json action = {{"title", title},
                 {"kind", "quickfix"},
                 {"diagnostics", json::array({diagnostic})},
                 {"edit", {{"changes", std::move(changes)}}}};
  if (preferred) action["isPreferred"] = true;
  return action;
}

// The end of the bracketed or parenthesized text that starts after byte
// |open| of |line| (the byte of its closing bracket), or npos when it does
// not close on the line.
size_t Closing(const std::string& line, size_t open) {
  int depth = 0;
  for (size_t i = open; i < line.size(); ++i) {
    if (line[i] == '(' || line[i] == '[') ++depth;
    if (line[i] == ')' || line[i] == ']') {
      if (--depth == 0) return i;
    }
  }
  return std::string::npos;
}

// The top-level comma-separated arguments between |open| and |close|, as
// byte ranges.
std::vector<std::pair<size_t, size_t>> Arguments(const std::string& line, size_t open,
                                                 size_t close) {
  std::vector<std::pair<size_t, size_t>> arguments;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i < close; ++i) {
    if (line[i] == '(' || line[i] == '[') ++depth;
    if (line[i] == ')' || line[i] == ']') --depth;
    if (line[i] == ',' && depth == 0) {
      arguments.push_back({start, i});
      start = i + 1;
    }
  }
  arguments.push_back({start, close});
  return arguments;
}

// Every start of identifier |word| in |line|, followed (after spaces) by
// |next|.
std::vector<size_t> Occurrences(const std::string& line, const std::string& word, char next) {
  std::vector<size_t> found;
  for (size_t at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
    if (at > 0 && IsWordChar(line[at - 1])) continue;
    size_t after = at + word.size();
    if (after < line.size() && IsWordChar(line[after])) continue;
    while (after < line.size() && line[after] == ' ') ++after;
    if (after < line.size() && line[after] == next) found.push_back(at);
  }
  return found;
}

// A name like |base| that the document does not use yet.
std::string FreshName(const std::vector<std::string>& lines, const std::string& base) {
  auto used = [&](const std::string& name) {
    const std::regex word("\\b" + name + "\\b");
    for (const std::string& line : lines) {
      if (std::regex_search(line, word)) return true;
    }
    return false;
  };
  if (!used(base)) return base;
  for (int n = 2;; ++n) {
    if (!used(base + std::to_string(n))) return base + std::to_string(n);
  }
}

class Fixes {
 public:
  Fixes(const json& result, const std::string& main_path, const FeatureContext& context)
      : result_(result), main_path_(main_path), context_(context) {}

  // `textures[i]` -> `textures[nonuniformEXT(i)]`, and the GLSL extension.
  void NonUniform(const Site& site, const json& diagnostic, json* actions) const {
    static const std::regex kAccess("accesses '([A-Za-z_][A-Za-z0-9_]*)'");
    std::smatch match;
    if (!std::regex_search(site.message, match, kAccess)) return;
    const std::string variable = match[1].str();
    // The note at the access chain names the line that indexes.
    const json* at = site.location;
    for (const json& note : site.finding->at("notes")) {
      if (note.at("message").get<std::string>().rfind("the descriptor is selected here", 0) == 0 &&
          note.at("location").value("line", json()).is_number()) {
        at = &note.at("location");
        break;
      }
    }
    const std::string path = FileKey(at->value("file", json()));
    const std::vector<std::string>& lines = context_.lines_of(path);
    const uint32_t line =
        at->value("line", json()).is_number() ? at->at("line").get<uint32_t>() : 0;
    if (line == 0 || line > lines.size()) return;
    const std::string& text = lines[line - 1];
    const std::vector<size_t> uses = Occurrences(text, variable, '[');
    if (uses.size() != 1) return;
    const bool hlsl = IsHlsl(main_path_);
    const std::string qualifier = hlsl ? "NonUniformResourceIndex" : "nonuniformEXT";
    json changes;
    std::string title = "Qualify the index of '" + variable + "' as " + qualifier + "(...)";
    // GLSL's combined sampler constructor, sampler2D(textures[i], s), makes
    // the value that accesses the image: it is what must be non-uniform
    // (glslang does not carry the index's qualifier over to it).
    static const std::regex kConstructor(R"((^|[^A-Za-z0-9_])([iu]?sampler[A-Za-z0-9]*)\s*\(\s*$)");
    std::smatch constructor;
    const std::string before = text.substr(0, uses[0]);
    if (!hlsl && std::regex_search(before, constructor, kConstructor)) {
      const size_t start = static_cast<size_t>(constructor.position(2));
      const size_t end = Closing(text, text.find('(', start));
      if (end == std::string::npos) return;
      if (Trimmed(text.substr(0, start)).size() >= qualifier.size() + 1 &&
          EndsWith(Trimmed(text.substr(0, start)), qualifier + "(")) {
        return;
      }
      changes[UriOfPath(path)] =
          json::array({Replace(line - 1, text, start, end + 1,
                               qualifier + "(" + text.substr(start, end + 1 - start) + ")")});
      title = "Qualify the sampler made from '" + variable + "' as " + qualifier + "(...)";
    } else {
      const size_t open = text.find('[', uses[0]);
      const size_t close = Closing(text, open);
      if (close == std::string::npos) return;
      const std::string index = Trimmed(text.substr(open + 1, close - open - 1));
      if (index.empty() || index.rfind(qualifier + "(", 0) == 0) return;
      changes[UriOfPath(path)] =
          json::array({Replace(line - 1, text, open + 1, close, qualifier + "(" + index + ")")});
    }
    if (!hlsl) AddNonUniformExtension(&changes);
    actions->push_back(QuickFix(title, diagnostic, std::move(changes), true));
  }

  // texture(s, uv) in divergent control flow -> textureGrad(s, uv, dx, dy)
  // with dx and dy computed before the statement.
  void HoistGradients(const Site& site, const json& diagnostic, json* actions) const {
    const std::string path = FileKey(site.location->value("file", json()));
    const json& line_json = site.location->value("line", json());
    if (!line_json.is_number()) return;
    const uint32_t line = line_json.get<uint32_t>();
    const json* hoist = nullptr;
    for (const json& h : result_.at("hoists")) {
      if (FileKey(h.at("sample").value("file", json())) == path &&
          h.at("sample").value("line", json()) == line) {
        if (hoist != nullptr) return;  // two samples on the line: which one is unclear
        hoist = &h;
      }
    }
    if (hoist == nullptr) return;
    const std::vector<std::string>& lines = context_.lines_of(path);
    const uint32_t before = hoist->at("before_line").get<uint32_t>();
    if (line > lines.size() || before == 0 || before >= line) return;
    const std::string& text = lines[line - 1];
    const std::string& statement = lines[before - 1];
    static const std::regex kStatement(R"(^\s*(\[[^\]]*\]\s*)*(if|for|while|switch|do)\b.*)");
    if (!std::regex_match(statement, kStatement)) return;

    const bool hlsl = IsHlsl(main_path_);
    const std::vector<size_t> calls = Occurrences(text, hlsl ? "Sample" : "texture", '(');
    // HLSL's is a method of the texture, GLSL's a function.
    if (calls.size() != 1 || hlsl != (calls[0] > 0 && text[calls[0] - 1] == '.')) return;
    const size_t open = text.find('(', calls[0]);
    const size_t close = Closing(text, open);
    if (close == std::string::npos) return;
    const auto arguments = Arguments(text, open, close);
    if (arguments.size() != 2) return;
    const std::string coordinate =
        Trimmed(text.substr(arguments[1].first, arguments[1].second - arguments[1].first));
    if (coordinate.empty()) return;

    // The analysis proved the value the same before the statement; the text
    // must name the same variables there too: none is declared or assigned
    // between the statement and the sample (legalized HLSL and optimized
    // code keep no variables the analysis could tell this from).
    static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
    for (auto it = std::sregex_iterator(coordinate.begin(), coordinate.end(), kIdentifier);
         it != std::sregex_iterator(); ++it) {
      const std::string name = it->str();
      const std::regex changes[] = {
          // name = ..., name += ..., name.x = ..., name[i] = ..., name++
          std::regex("(^|[^A-Za-z0-9_.])" + name +
                     R"((\s*\.\s*[A-Za-z_]+|\s*\[[^\]]*\])?\s*([-+*/%&|^]?=[^=]|\+\+|--))"),
          // ++name, --name
          std::regex(R"((\+\+|--)\s*)" + name + "\\b"),
          // a declaration: a type name, then the name
          std::regex("\\b[A-Za-z_][A-Za-z0-9_]*\\s+" + name + R"(\s*(=|;|,|\[|\)|:))")};
      for (uint32_t l = before; l < line; ++l) {
        for (const std::regex& change : changes) {
          if (std::regex_search(lines[l - 1], change)) return;
        }
      }
    }
    const uint32_t components = hoist->at("gradient_components").get<uint32_t>();
    const bool identifier = std::regex_match(coordinate, std::regex("[A-Za-z_][A-Za-z0-9_]*"));
    std::string value = identifier ? coordinate : "(" + coordinate + ")";
    if (components < hoist->at("coordinate_components").get<uint32_t>()) {
      value += std::string(".") + std::string("xyz").substr(0, components);
    }
    const std::string base = identifier ? coordinate : "coord";
    const std::string dx = FreshName(lines, base + "_dx");
    const std::string dy = FreshName(lines, base + "_dy");
    static const char* const kGlslTypes[] = {"float", "vec2", "vec3"};
    static const char* const kHlslTypes[] = {"float", "float2", "float3"};
    if (components == 0 || components > 3) return;
    const std::string type = (hlsl ? kHlslTypes : kGlslTypes)[components - 1];
    const std::string indent = Indentation(statement);
    const std::string declarations = indent + type + " " + dx + " = " + (hlsl ? "ddx(" : "dFdx(") +
                                     value + ");\n" + indent + type + " " + dy + " = " +
                                     (hlsl ? "ddy(" : "dFdy(") + value + ");\n";
    const std::string call = std::string(hlsl ? "SampleGrad" : "textureGrad") +
                             text.substr(open, arguments[1].second - open) + ", " + dx + ", " + dy +
                             ")";
    json changes;
    changes[UriOfPath(path)] = json::array({InsertLines(before - 1, declarations),
                                            Replace(line - 1, text, calls[0], close + 1, call)});
    actions->push_back(QuickFix(std::string("Compute the gradients before the ") +
                                    "divergent statement on line " + std::to_string(before) +
                                    (hlsl ? " (SampleGrad)" : " (textureGrad)"),
                                diagnostic, std::move(changes), true));
  }

  // "// spirv-conv: allow(rule)" alone on the line before the site, or the
  // rule added to such a comment there.
  void Allow(const Site& site, const json& diagnostic, json* actions) const {
    const std::string rule = site.finding->at("rule").get<std::string>();
    const std::string path = FileKey(site.location->value("file", json()));
    const std::vector<std::string>& lines = context_.lines_of(path);
    const json& line_json = site.location->value("line", json());
    if (!line_json.is_number()) return;
    const uint32_t line = line_json.get<uint32_t>();
    if (line == 0 || line > lines.size()) return;
    json edit;
    static const std::regex kComment(R"(^\s*//\s*spirv-conv:\s*allow\(([^)]*)\)\s*$)");
    std::smatch match;
    if (line > 1 && std::regex_match(lines[line - 2], match, kComment)) {
      const std::string& previous = lines[line - 2];
      const size_t close = previous.rfind(')');
      edit = Replace(line - 2, previous, close, close, ", " + rule);
    } else {
      edit = InsertLines(line - 1,
                         Indentation(lines[line - 1]) + "// spirv-conv: allow(" + rule + ")\n");
    }
    json changes;
    changes[UriOfPath(path)] = json::array({edit});
    actions->push_back(QuickFix("Allow " + rule + " on this line (// spirv-conv: allow)",
                                diagnostic, std::move(changes), false));
  }

 private:
  // `#extension GL_EXT_nonuniform_qualifier : require` after #version,
  // unless the document has it.
  void AddNonUniformExtension(json* changes) const {
    const std::vector<std::string>& lines = context_.lines_of(main_path_);
    uint32_t after = 0;
    for (uint32_t i = 0; i < lines.size(); ++i) {
      if (lines[i].find("GL_EXT_nonuniform_qualifier") != std::string::npos) return;
      if (after == 0 && Trimmed(lines[i]).rfind("#version", 0) == 0) after = i + 1;
    }
    json& edits = (*changes)[UriOfPath(main_path_)];
    if (edits.is_null()) edits = json::array();
    edits.push_back(InsertLines(after, "#extension GL_EXT_nonuniform_qualifier : require\n"));
  }

  const json& result_;
  const std::string& main_path_;
  const FeatureContext& context_;
};

}  // namespace

json CodeActions(const json& result, const std::string& main_path, const std::string& path,
                 uint32_t first_line, uint32_t last_line, const FeatureContext& context) {
  json actions = json::array();
  if (IsSpirv(main_path)) return actions;  // no source to edit
  const Fixes fixes(result, main_path, context);
  for (const Site& site : SitesOf(result)) {
    if (FileKey(site.location->value("file", json())) != path) continue;
    const json& line = site.location->value("line", json());
    if (!line.is_number() || line.get<uint32_t>() == 0) continue;
    const uint32_t at = line.get<uint32_t>() - 1;
    if (at < first_line || at > last_line) continue;
    const json diagnostic = DiagnosticOf(site, context);
    const std::string rule = site.finding->at("rule").get<std::string>();
    if (rule == "nonuniform-missing-decoration") fixes.NonUniform(site, diagnostic, &actions);
    if (rule == "derivative-divergent-cf") fixes.HoistGradients(site, diagnostic, &actions);
    fixes.Allow(site, diagnostic, &actions);
  }
  return actions;
}

}  // namespace lsp
}  // namespace spirv_conv
