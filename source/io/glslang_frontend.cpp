// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// glslang configured like `glslangValidator -V`, for GLSL and HLSL input.

#include "io/glslang_frontend.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "glslang/Public/ResourceLimits.h"
#include "glslang/Public/ShaderLang.h"
#include "glslang/SPIRV/GlslangToSpv.h"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace io {
namespace {

// Standard output goes to /dev/null while one is alive: glslang prints its
// built-in declarations there when it cannot parse them (a `#version 110`
// shader for OpenGL SPIR-V), which would corrupt a report on stdout. Counted,
// because `lint -j` compiles on several threads; reports are written after.
class QuietStdout {
 public:
  QuietStdout() {
    State& state = Shared();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.count++ != 0) return;
    std::fflush(stdout);
    state.saved = dup(STDOUT_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      close(null);
    }
  }
  ~QuietStdout() {
    State& state = Shared();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (--state.count != 0) return;
    std::fflush(stdout);
    if (state.saved >= 0) {
      dup2(state.saved, STDOUT_FILENO);
      close(state.saved);
    }
  }
  QuietStdout(const QuietStdout&) = delete;
  QuietStdout& operator=(const QuietStdout&) = delete;

 private:
  struct State {
    std::mutex mutex;
    int count = 0;   // live QuietStdout objects
    int saved = -1;  // the real stdout while count > 0
  };
  static State& Shared() {
    static State state;
    return state;
  }
};

}  // namespace

std::optional<EShLanguage> GlslangStageFromName(const std::string& stage) {
  static const std::map<std::string, EShLanguage> kStages = {
      {"vert", EShLangVertex},    {"tesc", EShLangTessControl}, {"tese", EShLangTessEvaluation},
      {"geom", EShLangGeometry},  {"frag", EShLangFragment},    {"comp", EShLangCompute},
      {"mesh", EShLangMesh},      {"task", EShLangTask},        {"rgen", EShLangRayGen},
      {"rint", EShLangIntersect}, {"rahit", EShLangAnyHit},     {"rchit", EShLangClosestHit},
      {"rmiss", EShLangMiss},     {"rcall", EShLangCallable}};
  auto it = kStages.find(stage);
  if (it == kStages.end()) return std::nullopt;
  return it->second;
}

namespace {

// The client (Vulkan or OpenGL) glslang compiles for, given the target env.
struct GlslangTarget {
  glslang::EShClient client;
  glslang::EShTargetClientVersion client_version;
  glslang::EShTargetLanguageVersion spirv_version;
};

std::optional<GlslangTarget> GlslangTargetFor(spv_target_env env) {
  // glslang encodes SPIR-V versions exactly as the module header does.
  const auto spirv = static_cast<glslang::EShTargetLanguageVersion>(SpirvVersionWordOf(env));
  switch (env) {
    case SPV_ENV_VULKAN_1_0:
      return GlslangTarget{glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0, spirv};
    case SPV_ENV_VULKAN_1_1:
    case SPV_ENV_VULKAN_1_1_SPIRV_1_4:
      return GlslangTarget{glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, spirv};
    case SPV_ENV_VULKAN_1_2:
      return GlslangTarget{glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2, spirv};
    case SPV_ENV_VULKAN_1_3:
      return GlslangTarget{glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3, spirv};
    case SPV_ENV_OPENGL_4_0:
    case SPV_ENV_OPENGL_4_1:
    case SPV_ENV_OPENGL_4_2:
    case SPV_ENV_OPENGL_4_3:
    case SPV_ENV_OPENGL_4_5:
      return GlslangTarget{glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450,
                           glslang::EShTargetSpv_1_0};
    default:
      return std::nullopt;
  }
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Resolves #include (GL_GOOGLE_include_directive): "..." relative to the
// including file, then the -I directories; <...> in the -I directories.
// Every file it opens is recorded, for dependency files. An unsaved buffer
// stands in for its file, which need not exist.
class Includer : public glslang::TShader::Includer {
 public:
  Includer(const std::vector<std::string>& dirs, const UnsavedFiles& unsaved,
           std::vector<std::string>* opened)
      : dirs_(dirs), unsaved_(unsaved), opened_(opened) {}

  IncludeResult* includeLocal(const char* header, const char* includer, size_t) override {
    if (IncludeResult* found = TryOpen(DirectoryOf(includer) + "/" + header)) return found;
    return includeSystem(header, includer, 0);
  }

  IncludeResult* includeSystem(const char* header, const char*, size_t) override {
    for (const std::string& dir : dirs_) {
      if (IncludeResult* found = TryOpen(dir + "/" + header)) return found;
    }
    return nullptr;
  }

  void releaseInclude(IncludeResult* result) override {
    if (result == nullptr) return;
    delete static_cast<std::string*>(result->userData);
    delete result;
  }

 private:
  IncludeResult* TryOpen(const std::string& path) {
    std::string* text = nullptr;
    if (!unsaved_.empty()) {
      auto buffer = unsaved_.find(UnsavedFileKey(path));
      if (buffer != unsaved_.end()) text = new std::string(buffer->second);
    }
    if (text == nullptr) {
      std::ifstream in(path, std::ios::binary);
      if (!in) return nullptr;
      text =
          new std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    opened_->push_back(path);
    return new IncludeResult(path, text->data(), text->size(), text);
  }

  const std::vector<std::string>& dirs_;
  const UnsavedFiles& unsaved_;
  std::vector<std::string>* opened_;
};

// glslang's process-wide state is set up once and kept for the process.
void InitializeGlslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

// "ERROR: file:3: 'x' : undeclared identifier" lines, without the summary
// ("ERROR: 1 compilation errors.  No code generated.").
std::string CompilerMessages(const char* log) {
  std::istringstream lines(log ? log : "");
  std::string line, result;
  while (std::getline(lines, line)) {
    if (line.empty() || line.find("compilation errors") != std::string::npos ||
        line.find("No code generated") != std::string::npos) {
      continue;
    }
    result += "\n  " + line;
  }
  return result;
}

}  // namespace

namespace {

Expected<CompiledSource> CompileInProcess(const std::string& name, const std::string& source,
                                          spv_target_env env, const ShaderSourceOptions& options,
                                          const GlslangJob& job) {
  const bool hlsl = job.language == glslang::EShSourceHlsl;
  const std::string language = hlsl ? "HLSL" : "GLSL";
  const std::optional<GlslangTarget> target = GlslangTargetFor(env);
  if (!target) {
    return MakeError(ExitCode::kBadInput, name,
                     language + " compiles only for a Vulkan or OpenGL target env, not '" +
                         TargetEnvName(env) + "'");
  }
  InitializeGlslang();

  std::string preamble;
  for (const std::string& define : options.defines) {
    const size_t eq = define.find('=');
    preamble +=
        "#define " +
        (eq == std::string::npos ? define : define.substr(0, eq) + " " + define.substr(eq + 1)) +
        "\n";
  }
  preamble += job.preamble;

  glslang::TShader shader(job.stage);
  const char* text = source.c_str();
  const int length = static_cast<int>(source.size());
  const char* file_name = name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &file_name, 1);
  shader.setPreamble(preamble.c_str());
  if (hlsl) shader.setEntryPoint(job.entry_point.c_str());
  shader.setEnvInput(job.language, job.stage, target->client, 100);
  shader.setEnvClient(target->client, target->client_version);
  shader.setEnvTarget(glslang::EShTargetSpv, target->spirv_version);

  auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (target->client == glslang::EShClientOpenGL) messages = EShMsgSpvRules;
  if (hlsl) messages = static_cast<EShMessages>(messages | EShMsgReadHlsl);
  if (options.debug_info) messages = static_cast<EShMessages>(messages | EShMsgDebugInfo);

  CompiledSource result;
  result.source_files.push_back(name);
  Includer includer(options.include_dirs, options.unsaved_files, &result.source_files);
  const QuietStdout quiet;
  if (!shader.parse(GetDefaultResources(), 100, false, messages, includer)) {
    return MakeError(ExitCode::kBadInput, name,
                     language + " compilation failed:" + CompilerMessages(shader.getInfoLog()));
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    return MakeError(ExitCode::kBadInput, name,
                     language + " link failed:" + CompilerMessages(program.getInfoLog()));
  }
  glslang::TIntermediate& tree = *program.getIntermediate(job.stage);
  if (job.rewrite) {
    if (std::optional<std::string> failure = job.rewrite(tree)) {
      return MakeError(ExitCode::kBadInput, name, *failure);
    }
  }

  glslang::SpvOptions spv_options;
  spv_options.generateDebugInfo = options.debug_info;
  // The module as generated; HLSL is legalized by job.legalize.
  spv_options.disableOptimizer = true;
  spv::SpvBuildLogger logger;
  glslang::GlslangToSpv(tree, result.words, &logger, &spv_options);
  const std::string errors = logger.getAllMessages();
  if (result.words.empty()) {
    return MakeError(ExitCode::kBadInput, name,
                     language + " to SPIR-V translation failed: " + errors);
  }
  if (job.legalize) {
    if (std::optional<std::string> failure = job.legalize(&result.words)) {
      return MakeError(ExitCode::kBadInput, name, language + " legalization failed: " + *failure);
    }
  }
  return result;
}

void AppendWord(std::string* bytes, uint32_t word) {
  bytes->append(reinterpret_cast<const char*>(&word), sizeof(word));
}

void AppendString(std::string* bytes, const std::string& text) {
  AppendWord(bytes, static_cast<uint32_t>(text.size()));
  bytes->append(text);
}

// A compilation's outcome as bytes: 'O', the words, the source files; or
// 'E', the exit code, the message.
std::string Serialize(const Expected<CompiledSource>& compiled) {
  std::string bytes;
  if (!compiled) {
    bytes += 'E';
    AppendWord(&bytes, static_cast<uint32_t>(compiled.error().code));
    AppendString(&bytes, compiled.error().message);
    return bytes;
  }
  bytes += 'O';
  AppendWord(&bytes, static_cast<uint32_t>(compiled->words.size()));
  bytes.append(reinterpret_cast<const char*>(compiled->words.data()), compiled->words.size() * 4);
  AppendWord(&bytes, static_cast<uint32_t>(compiled->source_files.size()));
  for (const std::string& file : compiled->source_files) AppendString(&bytes, file);
  return bytes;
}

// Reads what Serialize wrote; nullopt when |bytes| is cut short.
std::optional<Expected<CompiledSource>> Deserialize(const std::string& bytes) {
  size_t at = 1;
  auto word = [&](uint32_t* out) {
    if (at + 4 > bytes.size()) return false;
    std::memcpy(out, bytes.data() + at, 4);
    at += 4;
    return true;
  };
  auto text = [&](std::string* out) {
    uint32_t size = 0;
    if (!word(&size) || at + size > bytes.size()) return false;
    *out = bytes.substr(at, size);
    at += size;
    return true;
  };
  if (bytes.empty()) return std::nullopt;
  if (bytes[0] == 'E') {
    uint32_t code = 0;
    Error error;
    if (!word(&code) || !text(&error.message)) return std::nullopt;
    error.code = static_cast<ExitCode>(code);
    return Expected<CompiledSource>(error);
  }
  CompiledSource compiled;
  uint32_t count = 0;
  if (bytes[0] != 'O' || !word(&count) || at + size_t{count} * 4 > bytes.size()) {
    return std::nullopt;
  }
  compiled.words.resize(count);
  std::memcpy(compiled.words.data(), bytes.data() + at, size_t{count} * 4);
  at += size_t{count} * 4;
  if (!word(&count)) return std::nullopt;
  compiled.source_files.resize(count);
  for (std::string& file : compiled.source_files) {
    if (!text(&file)) return std::nullopt;
  }
  return Expected<CompiledSource>(std::move(compiled));
}

// Runs |compile| in a forked child and returns its outcome; a child that
// dies (a signal, no complete answer) is bad input naming the signal.
Expected<CompiledSource> InChildProcess(const std::string& name, const std::string& language,
                                        const std::function<Expected<CompiledSource>()>& compile) {
  int fds[2];
  if (pipe(fds) != 0) return compile();  // no isolation rather than no compilation
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return compile();
  }
  if (child == 0) {
    close(fds[0]);
    const std::string bytes = Serialize(compile());
    for (size_t written = 0; written < bytes.size();) {
      const ssize_t n = write(fds[1], bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(1);
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (std::optional<Expected<CompiledSource>> outcome = Deserialize(bytes)) return *outcome;
  }
  // A sanitizer turns the signal into an exit status of its own.
  const std::string how = WIFSIGNALED(status)
                              ? std::string("signal ") + std::to_string(WTERMSIG(status)) + ", " +
                                    strsignal(WTERMSIG(status))
                          : WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "no answer";
  return MakeError(ExitCode::kBadInput, name,
                   language + " compilation failed: glslang crashed (" + how + "); its " +
                       language +
                       " front end does on some malformed input (glslangValidator too): "
                       "compile with DXC (-spirv) for its error message, and pass the .spv");
}

}  // namespace

Expected<CompiledSource> CompileWithGlslang(const std::string& name, const std::string& source,
                                            spv_target_env env, const ShaderSourceOptions& options,
                                            const GlslangJob& job) {
  if (job.language == glslang::EShSourceHlsl) {
    return InChildProcess(name, "HLSL",
                          [&] { return CompileInProcess(name, source, env, options, job); });
  }
  return CompileInProcess(name, source, env, options, job);
}

}  // namespace io
}  // namespace spirv_conv
