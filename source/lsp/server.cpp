// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The language server: one thread polling the client's stream, the lint
// children and the debounce deadlines. Documents are linted in child
// processes (lsp/lint_job.h); a newer text kills the child of an older one.
// Requests about a document whose lint is under way wait for its result, so
// that code actions edit the text they were computed on.

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/input_formats.h"
#include "lsp/features.h"
#include "lsp/json_rpc.h"
#include "lsp/lint_job.h"
#include "lsp/text.h"
#include "spirv_conv/lsp.h"
#include "spirv_conv/target_env.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace lsp {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The client's settings (docs/editor.md#settings).
struct Settings {
  LintOptions lint;  // rule levels
  std::vector<std::string> include_paths;
  std::vector<std::string> defines;
  std::optional<spv_target_env> target_env;
  int debounce_ms = 300;
  int timeout_ms = 30000;
  std::optional<std::string> rule_docs;
};

// |settings| updated from the client's JSON: {"spirv-conv": {...}}, or the
// object itself. Returns the problems found; a setting with a problem keeps
// its old value.
std::vector<std::string> ApplySettings(const json& given, Settings* settings) {
  std::vector<std::string> problems;
  const json* object = &given;
  if (given.is_object() && given.contains("spirv-conv")) object = &given.at("spirv-conv");
  if (!object->is_object()) return problems;
  auto strings = [&](const char* key, std::vector<std::string>* out) {
    if (!object->contains(key)) return;
    const json& list = object->at(key);
    std::vector<std::string> values;
    for (const json& item : list.is_array() ? list : json::array({list})) {
      if (!item.is_string()) {
        problems.push_back(std::string(key) + ": expected a list of strings");
        return;
      }
      values.push_back(item.get<std::string>());
    }
    *out = values;
  };
  strings("includePaths", &settings->include_paths);
  strings("defines", &settings->defines);
  if (object->contains("rules")) {
    const json& rules = object->at("rules");
    LintOptions lint;
    bool valid = rules.is_object();
    if (!valid) problems.push_back("rules: expected an object of rule id to level");
    for (auto it = rules.begin(); valid && it != rules.end(); ++it) {
      const Status status =
          ParseRuleLevel(it.key() + "=" + (it->is_string() ? it->get<std::string>() : ""), &lint);
      if (!status) {
        problems.push_back("rules: " + status.error().message);
        valid = false;
      }
    }
    if (valid) settings->lint.rule_levels = lint.rule_levels;
  }
  if (object->contains("targetEnv")) {
    const json& env = object->at("targetEnv");
    if (env.is_null() || (env.is_string() && env.get<std::string>().empty())) {
      settings->target_env.reset();
    } else if (std::optional<spv_target_env> parsed =
                   env.is_string() ? ParseTargetEnv(env.get<std::string>()) : std::nullopt) {
      settings->target_env = parsed;
    } else {
      problems.push_back("targetEnv: expected one of " + TargetEnvNameList());
    }
  }
  auto milliseconds = [&](const char* key, int* out) {
    if (!object->contains(key)) return;
    const json& value = object->at(key);
    if (value.is_number_integer() && value.get<int64_t>() >= 0 && value.get<int64_t>() <= 3600000) {
      *out = value.get<int>();
    } else {
      problems.push_back(std::string(key) + ": expected milliseconds (0 to 3600000)");
    }
  };
  milliseconds("debounceMs", &settings->debounce_ms);
  milliseconds("timeoutMs", &settings->timeout_ms);
  if (object->contains("ruleDocs")) {
    const json& docs = object->at("ruleDocs");
    if (docs.is_string()) {
      settings->rule_docs = docs.get<std::string>();
    } else {
      problems.push_back("ruleDocs: expected a URI prefix");
    }
  }
  return problems;
}

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Files the server lints on their own: those the lint takes from a
// directory (a stage in the name); headers are linted through the files
// that include them.
bool IsLintable(const std::string& path) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (EndsWith(name, ".spvasm") || EndsWith(name, ".spvas")) return true;
  if (EndsWith(name, ".hlsl")) return !io::HlslStageFromFileName(name).empty();
  return !io::GlslStageFromFileName(name).empty();
}

struct Document {
  std::string uri;
  std::string text;
  std::vector<std::string> lines;
  int64_t version = 0;
};

// The lint state of one open, lintable document.
struct LintState {
  uint64_t generation = 0;         // bumped by every change that affects the lint
  uint64_t result_generation = 0;  // the generation |result| is for (0: none)
  json result;
  std::set<std::string> source_files;  // the document and what it #includes, per |result|
  std::optional<Clock::time_point> due;
  std::unique_ptr<LintProcess> running;
  uint64_t running_generation = 0;
  Clock::time_point started;
};

// A request that waits for a lint result.
struct Deferred {
  json id;
  std::string method;
  json params;
  std::string main;  // the document whose lint it waits for
};

class Server {
 public:
  Server(int input, int output, const LanguageServerOptions& options)
      : input_(input), output_(output), options_(options) {}

  int Run() {
    while (!exited_) {
      std::vector<pollfd> fds;
      if (!input_closed_) fds.push_back({input_, POLLIN, 0});
      std::vector<std::string> children;
      for (auto& [path, state] : lints_) {
        if (state.running && !state.running->done()) {
          fds.push_back({state.running->fd(), POLLIN, 0});
          children.push_back(path);
        }
      }
      if (input_closed_ && children.empty()) break;
      const int ready = poll(fds.data(), fds.size(), Timeout());
      if (ready < 0 && errno != EINTR) break;
      size_t next = 0;
      if (!input_closed_) {
        if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) ReadInput();
        next = 1;
      }
      for (size_t i = 0; i < children.size(); ++i) {
        if (ready > 0 && fds[next + i].revents != 0) Collect(children[i]);
      }
      KillOverdue();
      StartDue();
      if (input_closed_) break;  // nobody left to answer
    }
    for (auto& [path, state] : lints_) {
      if (state.running) state.running->Kill();
    }
    return exited_ && shutdown_ ? 0 : 1;
  }

 private:
  // ---- the stream ----

  void ReadInput() {
    char buffer[1 << 16];
    const ssize_t n = read(input_, buffer, sizeof(buffer));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
      input_closed_ = true;
      return;
    }
    reader_.Append(buffer, static_cast<size_t>(n));
    while (!exited_) {
      std::optional<Incoming> incoming = reader_.Next();
      if (!incoming) break;
      if (!incoming->message) {
        Send(ErrorResponse(nullptr, RpcError::kParseError, incoming->error));
        continue;
      }
      Dispatch(*incoming->message);
    }
  }

  void Send(const json& message) {
    const std::string bytes = Frame(message);
    for (size_t written = 0; written < bytes.size();) {
      const ssize_t n = write(output_, bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {  // the client is gone
        input_closed_ = true;
        return;
      }
      written += static_cast<size_t>(n);
    }
  }

  void Dispatch(const json& message) {
    const bool valid_id = message.is_object() && message.contains("id") &&
                          (message["id"].is_number_integer() || message["id"].is_string());
    const json id = valid_id ? message["id"] : json();
    if (!message.is_object() || !message.contains("method") || !message["method"].is_string() ||
        (message.contains("id") && !valid_id)) {
      // A response to a request of ours (we send none) is ignored.
      if (message.is_object() && message.contains("id") &&
          (message.contains("result") || message.contains("error"))) {
        return;
      }
      Send(ErrorResponse(id, RpcError::kInvalidRequest,
                         "expected a JSON-RPC request or notification object with a method"));
      return;
    }
    const std::string method = message["method"].get<std::string>();
    const json params = message.value("params", json::object());
    const bool request = valid_id;
    try {
      if (request) {
        HandleRequest(id, method, params);
      } else {
        HandleNotification(method, params);
      }
    } catch (const json::exception& e) {
      if (request) {
        Send(ErrorResponse(id, RpcError::kInvalidParams, method + ": " + e.what()));
      } else {
        std::cerr << "spirv-conv lsp: " << method << ": " << e.what() << "\n";
      }
    }
  }

  // ---- requests ----

  void HandleRequest(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") {
      Initialize(id, params);
      return;
    }
    if (!initialized_) {
      Send(ErrorResponse(id, RpcError::kServerNotInitialized, "initialize first"));
      return;
    }
    if (shutdown_) {
      Send(ErrorResponse(id, RpcError::kInvalidRequest, "the server is shutting down"));
      return;
    }
    if (method == "shutdown") {
      shutdown_ = true;
      Send(Response(id, nullptr));
      return;
    }
    if (method == "textDocument/codeAction" || method == "textDocument/hover") {
      const std::optional<std::string> path =
          PathOfUri(params.at("textDocument").at("uri").get<std::string>());
      const std::string main = path ? MainOf(UnsavedFileKey(*path)) : std::string();
      if (!main.empty() && Pending(main)) {
        deferred_.push_back({id, method, params, main});
        return;
      }
      Answer(id, method, params);
      return;
    }
    Send(ErrorResponse(id, RpcError::kMethodNotFound, "unknown method '" + method + "'"));
  }

  void Initialize(const json& id, const json& params) {
    if (initialized_) {
      Send(ErrorResponse(id, RpcError::kInvalidRequest, "initialize was already sent"));
      return;
    }
    initialized_ = true;
    std::optional<std::string> root;
    if (params.contains("rootUri") && params["rootUri"].is_string()) {
      root = PathOfUri(params["rootUri"].get<std::string>());
    } else if (params.contains("rootPath") && params["rootPath"].is_string()) {
      root = params["rootPath"].get<std::string>();
    }
    if (root) root_ = *root;
    if (params.contains("initializationOptions")) {
      ReportProblems(ApplySettings(params["initializationOptions"], &settings_));
    }
    const json capabilities = {
        {"textDocumentSync",
         {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
        {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
        {"hoverProvider", true}};
    Send(Response(id, {{"capabilities", capabilities},
                       {"serverInfo", {{"name", "spirv-conv"}, {"version", VersionNumber()}}}}));
  }

  // Answers a code action or hover request from the current lint result.
  void Answer(const json& id, const std::string& method, const json& params) {
    const std::optional<std::string> uri_path =
        PathOfUri(params.at("textDocument").at("uri").get<std::string>());
    const std::string path = uri_path ? UnsavedFileKey(*uri_path) : std::string();
    const std::string main = path.empty() ? std::string() : MainOf(path);
    auto state = lints_.find(main);
    const bool have = state != lints_.end() && state->second.result.is_object();
    if (method == "textDocument/hover") {
      const json& position = params.at("position");
      Send(Response(id, have
                            ? Hover(state->second.result, path, position.at("line").get<uint32_t>(),
                                    position.at("character").get<uint32_t>(), Context())
                            : json()));
      return;
    }
    const json& range = params.at("range");
    Send(Response(id, have ? CodeActions(state->second.result, main, path,
                                         range.at("start").at("line").get<uint32_t>(),
                                         range.at("end").at("line").get<uint32_t>(), Context())
                           : json::array()));
  }

  // ---- notifications ----

  void HandleNotification(const std::string& method, const json& params) {
    if (method == "exit") {
      exited_ = true;
      return;
    }
    if (!initialized_) return;  // the protocol drops notifications before initialize
    if (method == "$/cancelRequest") {
      Cancel(params.at("id"));
    } else if (method == "textDocument/didOpen") {
      const json& item = params.at("textDocument");
      Open(item.at("uri").get<std::string>(), item.at("text").get<std::string>(),
           item.value("version", int64_t{0}));
    } else if (method == "textDocument/didChange") {
      Change(params.at("textDocument").at("uri").get<std::string>(),
             params.at("textDocument").value("version", int64_t{0}), params.at("contentChanges"));
    } else if (method == "textDocument/didSave") {
      Touched(params.at("textDocument").at("uri").get<std::string>(), 0);
    } else if (method == "textDocument/didClose") {
      Close(params.at("textDocument").at("uri").get<std::string>());
    } else if (method == "workspace/didChangeConfiguration") {
      ReportProblems(ApplySettings(params.value("settings", json()), &settings_));
      for (auto& [path, state] : lints_) Schedule(path, 0);
    }
  }

  void Cancel(const json& id) {
    for (auto it = deferred_.begin(); it != deferred_.end(); ++it) {
      if (it->id == id) {
        Send(ErrorResponse(id, RpcError::kRequestCancelled, "cancelled"));
        deferred_.erase(it);
        return;
      }
    }
  }

  void Open(const std::string& uri, const std::string& text, int64_t version) {
    const std::optional<std::string> path = PathOfUri(uri);
    if (!path) return;  // untitled buffers and other schemes are not files to compile
    const std::string key = UnsavedFileKey(*path);
    Document& document = documents_[key];
    document.uri = uri;
    document.text = text;
    document.lines = SplitLines(text);
    document.version = version;
    if (IsLintable(key)) lints_[key];
    Touched(uri, 0);
  }

  void Change(const std::string& uri, int64_t version, const json& changes) {
    const std::optional<std::string> path = PathOfUri(uri);
    if (!path) return;
    auto it = documents_.find(UnsavedFileKey(*path));
    if (it == documents_.end()) return;
    Document& document = it->second;
    for (const json& change : changes) {
      const std::string replacement = change.at("text").get<std::string>();
      if (!change.contains("range")) {
        document.text = replacement;
      } else {
        const size_t begin = Offset(document.text, change["range"]["start"]);
        const size_t end = std::max(begin, Offset(document.text, change["range"]["end"]));
        document.text.replace(begin, end - begin, replacement);
      }
    }
    document.lines = SplitLines(document.text);
    document.version = version;
    Touched(uri, settings_.debounce_ms);
  }

  // The byte offset of LSP Position |position| in |text|.
  static size_t Offset(const std::string& text, const json& position) {
    const uint32_t line = position.at("line").get<uint32_t>();
    size_t start = 0;
    for (uint32_t i = 0; i < line; ++i) {
      const size_t newline = text.find('\n', start);
      if (newline == std::string::npos) return text.size();
      start = newline + 1;
    }
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    return start + ByteOfUtf16Column(text.substr(start, end - start),
                                     position.at("character").get<uint32_t>());
  }

  void Close(const std::string& uri) {
    const std::optional<std::string> path = PathOfUri(uri);
    if (!path) return;
    const std::string key = UnsavedFileKey(*path);
    auto lint = lints_.find(key);
    if (lint != lints_.end()) {
      if (lint->second.running) lint->second.running->Kill();
      Publish(key, json());  // its diagnostics go with it
      lints_.erase(lint);
    }
    for (auto it = deferred_.begin(); it != deferred_.end();) {
      if (it->main == key) {
        Send(Response(it->id, it->method == "textDocument/hover" ? json() : json::array()));
        it = deferred_.erase(it);
      } else {
        ++it;
      }
    }
    documents_.erase(key);
    Touched(uri, 0);  // the files that include it read it from disk now
  }

  // The text of |uri| changed (or was saved, or closed): lint it and every
  // open document that includes it, after |delay_ms|.
  void Touched(const std::string& uri, int delay_ms) {
    const std::optional<std::string> path = PathOfUri(uri);
    if (!path) return;
    const std::string key = UnsavedFileKey(*path);
    for (auto& [main, state] : lints_) {
      if (main == key || state.source_files.count(key) != 0) Schedule(main, delay_ms);
    }
  }

  void Schedule(const std::string& main, int delay_ms) {
    LintState& state = lints_.at(main);
    ++state.generation;
    const Clock::time_point due = Clock::now() + std::chrono::milliseconds(delay_ms);
    state.due = state.due ? std::min(*state.due, due) : due;
    if (delay_ms > 0) state.due = due;  // typing pushes the lint back
  }

  // ---- lint children ----

  int Timeout() const {
    std::optional<Clock::time_point> next;
    for (const auto& [path, state] : lints_) {
      if (state.due) next = next ? std::min(*next, *state.due) : *state.due;
      if (state.running) {
        const Clock::time_point end =
            state.started + std::chrono::milliseconds(settings_.timeout_ms);
        next = next ? std::min(*next, end) : end;
      }
    }
    if (!next) return -1;
    const auto wait =
        std::chrono::duration_cast<std::chrono::milliseconds>(*next - Clock::now()).count();
    return static_cast<int>(std::clamp<int64_t>(wait + 1, 0, 60000));
  }

  void StartDue() {
    const Clock::time_point now = Clock::now();
    size_t running = 0;
    for (const auto& [path, state] : lints_) running += state.running ? 1 : 0;
    for (auto& [path, state] : lints_) {
      if (!state.due || *state.due > now) continue;
      if (state.running) {  // superseded: the text it lints is gone
        state.running->Kill();
        state.running.reset();
        --running;
      }
      if (running >= std::max(1u, options_.jobs)) continue;
      state.due.reset();
      state.running = std::make_unique<LintProcess>(Request(path));
      state.running_generation = state.generation;
      state.started = now;
      ++running;
      if (state.running->done()) Collect(path);
    }
  }

  void KillOverdue() {
    const Clock::time_point now = Clock::now();
    for (auto& [path, state] : lints_) {
      if (!state.running || now - state.started < std::chrono::milliseconds(settings_.timeout_ms)) {
        continue;
      }
      state.running->Kill();
      state.running.reset();
      json result = {
          {"error", path + ": the lint took longer than " + std::to_string(settings_.timeout_ms) +
                        " ms (the timeoutMs setting) and was stopped"},
          {"source_files", json::array()},
          {"findings", json::array()},
          {"values", json::array()},
          {"hoists", json::array()}};
      Finished(path, std::move(result), state.running_generation);
    }
  }

  void Collect(const std::string& path) {
    LintState& state = lints_.at(path);
    if (!state.running->Read()) return;
    json result = state.running->Finish();
    state.running.reset();
    Finished(path, std::move(result), state.running_generation);
  }

  void Finished(const std::string& path, json result, uint64_t generation) {
    LintState& state = lints_.at(path);
    state.result = std::move(result);
    state.result_generation = generation;
    std::set<std::string> sources = {path};
    for (const json& file : state.result.at("source_files")) {
      sources.insert(file.get<std::string>());
    }
    state.source_files = std::move(sources);
    disk_lines_.clear();  // files on disk may have changed since
    Publish(path, state.result);
    if (Pending(path)) return;
    for (auto it = deferred_.begin(); it != deferred_.end();) {
      if (it->main == path) {
        const Deferred request = *it;
        it = deferred_.erase(it);
        Answer(request.id, request.method, request.params);
      } else {
        ++it;
      }
    }
  }

  LintRequest Request(const std::string& path) const {
    LintRequest request;
    request.path = path;
    request.text = documents_.at(path).text;
    ShaderSourceOptions& source = request.input.module.load.source;
    for (const std::string& dir : settings_.include_paths) {
      source.include_dirs.push_back(
          dir.empty() || dir[0] == '/' || root_.empty() ? dir : root_ + "/" + dir);
    }
    source.defines = settings_.defines;
    source.debug_info = true;
    for (const auto& [key, document] : documents_) source.unsaved_files[key] = document.text;
    request.input.module.load.target_env = settings_.target_env;
    request.lint = settings_.lint;
    request.lint.input_path = path;
    request.lint.unsaved_files = source.unsaved_files;
    return request;
  }

  // A lint of |main| is scheduled or running for a newer text than its
  // result's.
  bool Pending(const std::string& main) const {
    auto it = lints_.find(main);
    return it != lints_.end() && it->second.result_generation != it->second.generation &&
           (it->second.due || it->second.running);
  }

  // The document whose lint covers |path|: itself when it is linted, else
  // the first open document that includes it.
  std::string MainOf(const std::string& path) const {
    if (lints_.count(path) != 0) return path;
    for (const auto& [main, state] : lints_) {
      if (state.source_files.count(path) != 0) return main;
    }
    return "";
  }

  // ---- diagnostics ----

  // Replaces |main|'s diagnostics with those of |result| (null: none) and
  // publishes every file whose diagnostics changed: each file's are the
  // union over the documents whose lint reaches it.
  void Publish(const std::string& main, const json& result) {
    std::map<std::string, json> by_file;
    if (result.is_object()) by_file = DiagnosticsByFile(result, main, Context());
    std::set<std::string> files = {main};
    for (const auto& [file, from] : contributions_) {
      if (from.count(main) != 0) files.insert(file);
    }
    for (const auto& [file, list] : by_file) files.insert(file);
    for (const std::string& file : files) {
      auto found = by_file.find(file);
      if (found != by_file.end()) {
        contributions_[file][main] = found->second;
      } else if (contributions_.count(file) != 0) {
        contributions_[file].erase(main);
      }
      json all = json::array();
      for (const auto& [from, list] : contributions_[file]) {
        for (const json& diagnostic : list) all.push_back(diagnostic);
      }
      if (contributions_[file].empty()) contributions_.erase(file);
      auto document = documents_.find(file);
      json params = {{"uri", document != documents_.end() ? document->second.uri : UriOfPath(file)},
                     {"diagnostics", all}};
      if (document != documents_.end()) params["version"] = document->second.version;
      Send(Notification("textDocument/publishDiagnostics", std::move(params)));
    }
  }

  FeatureContext Context() {
    FeatureContext context;
    context.lines_of = [this](const std::string& path) -> const std::vector<std::string>& {
      auto document = documents_.find(path);
      if (document != documents_.end()) return document->second.lines;
      auto cached = disk_lines_.find(path);
      if (cached == disk_lines_.end()) {
        std::ifstream in(path, std::ios::binary);
        std::vector<std::string> lines;
        if (in) {
          lines = SplitLines(
              std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
        }
        cached = disk_lines_.emplace(path, std::move(lines)).first;
      }
      return cached->second;
    };
    context.rule_docs = settings_.rule_docs.value_or(options_.rule_docs);
    return context;
  }

  void ReportProblems(const std::vector<std::string>& problems) {
    for (const std::string& problem : problems) {
      Send(Notification("window/showMessage",
                        {{"type", 1}, {"message", "spirv-conv settings: " + problem}}));
    }
  }

  const int input_;
  const int output_;
  const LanguageServerOptions options_;
  MessageReader reader_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  bool input_closed_ = false;
  std::string root_;
  Settings settings_;
  std::map<std::string, Document> documents_;  // open documents by path
  std::map<std::string, LintState> lints_;     // the open documents that are linted
  std::vector<Deferred> deferred_;
  // File -> the documents whose lint put diagnostics there -> those.
  std::map<std::string, std::map<std::string, json>> contributions_;
  std::map<std::string, std::vector<std::string>> disk_lines_;
};

}  // namespace
}  // namespace lsp

int RunLanguageServer(int input_fd, int output_fd, const LanguageServerOptions& options) {
  // A client that goes away must end the server with an error, not a signal.
  signal(SIGPIPE, SIG_IGN);
  return lsp::Server(input_fd, output_fd, options).Run();
}

}  // namespace spirv_conv
