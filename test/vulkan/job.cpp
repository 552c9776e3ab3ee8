// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "job.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "features.h"

namespace vk_runner {
namespace {

using nlohmann::json;

// Limits that keep a mistyped job from asking for gigabytes; generous for tests.
constexpr uint64_t kMaxBufferBytes = 64u << 20;
constexpr uint64_t kMaxJobBytes = 256u << 20;  // all buffers and images together
constexpr uint32_t kMaxImageSize = 4096;       // an RGBA8 image of this size without mips: 64 MiB
constexpr uint32_t kMaxDescriptorCount = 256;
constexpr uint32_t kMaxGroups = 65535;
constexpr uint32_t kMaxPushConstantBytes = 128;  // the minimum every device guarantees
constexpr uint32_t kMaxSetIndex = 7;
constexpr uint32_t kMaxLocation = 31;  // fragment input locations (maxFragmentInputComponents / 4)

[[noreturn]] void Fail(const std::string& where, const std::string& what) {
  throw JobError(where + ": " + what);
}

// Unknown keys are errors: a misspelt key would otherwise silently run a different test.
// "comment" is allowed everywhere, for notes in hand-written jobs.
void CheckObject(const json& value, const std::string& where,
                 std::initializer_list<const char*> allowed) {
  if (!value.is_object()) Fail(where, "expected an object");
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string& key = it.key();
    bool known = key == "comment";
    for (const char* name : allowed) known = known || key == name;
    if (!known) Fail(where, "unknown key \"" + key + "\"");
  }
}

const json* Find(const json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string Member(const std::string& where, const char* key) { return where + "." + key; }

std::string Index(const std::string& where, size_t i) {
  return where + "[" + std::to_string(i) + "]";
}

uint32_t ToU32(const json& value, const std::string& where, uint32_t min, uint32_t max) {
  // nlohmann::json stores non-negative integer literals as unsigned, negative ones as signed.
  if (!value.is_number_integer()) Fail(where, "expected an integer");
  if (!value.is_number_unsigned()) Fail(where, "expected a non-negative integer");
  uint64_t number = value.get<uint64_t>();
  if (number < min || number > max) {
    Fail(where, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<uint32_t>(number);
}

uint32_t GetU32(const json& object, const char* key, const std::string& where, uint32_t min,
                uint32_t max, uint32_t fallback) {
  const json* value = Find(object, key);
  return value ? ToU32(*value, Member(where, key), min, max) : fallback;
}

uint32_t RequireU32(const json& object, const char* key, const std::string& where, uint32_t min,
                    uint32_t max) {
  if (!Find(object, key)) Fail(where, std::string("missing \"") + key + "\"");
  return GetU32(object, key, where, min, max, 0);
}

std::string GetString(const json& object, const char* key, const std::string& where,
                      const std::string& fallback) {
  const json* value = Find(object, key);
  if (!value) return fallback;
  if (!value->is_string()) Fail(Member(where, key), "expected a string");
  return value->get<std::string>();
}

// |text| must be one of |choices|; returns its position.
size_t Choose(const std::string& text, const std::string& where,
              std::initializer_list<const char*> choices) {
  size_t i = 0;
  std::string list;
  for (const char* choice : choices) {
    if (text == choice) return i;
    list += (i++ ? ", " : "") + std::string(choice);
  }
  Fail(where, "\"" + text + "\" is not one of " + list);
}

const json& RequireArray(const json& value, const std::string& where) {
  if (!value.is_array()) Fail(where, "expected an array");
  return value;
}

float ToFloat(const json& value, const std::string& where) {
  if (!value.is_number()) Fail(where, "expected a number");
  double number = value.get<double>();
  if (!std::isfinite(number) || std::fabs(number) > std::numeric_limits<float>::max()) {
    Fail(where, "not representable as a 32-bit float");
  }
  return static_cast<float>(number);
}

uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The words of a {"u32"|"i32"|"f32": [...]} list; |key| says which one it is.
std::vector<uint32_t> ParseWords(const json& list, const std::string& key,
                                 const std::string& where) {
  RequireArray(list, where);
  if (list.size() * 4 > kMaxBufferBytes) Fail(where, "too much data");
  std::vector<uint32_t> words;
  words.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    const json& value = list[i];
    const std::string at = Index(where, i);
    if (key == "u32") {
      words.push_back(ToU32(value, at, 0, std::numeric_limits<uint32_t>::max()));
    } else if (key == "i32") {
      if (!value.is_number_integer()) Fail(at, "expected an integer");
      // Unsigned JSON numbers above INT64_MAX must not wrap into range.
      bool fits = value.is_number_unsigned()
                      ? value.get<uint64_t>() <= uint64_t{std::numeric_limits<int32_t>::max()}
                      : value.get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                            value.get<int64_t>() <= std::numeric_limits<int32_t>::max();
      if (!fits) Fail(at, "does not fit a 32-bit signed integer");
      words.push_back(static_cast<uint32_t>(static_cast<int32_t>(value.get<int64_t>())));
    } else {
      words.push_back(FloatBits(ToFloat(value, at)));
    }
  }
  return words;
}

// {"u32": [...]} / {"i32": [...]} / {"f32": [...]}, optionally with "size" (bytes):
// data zero-padded to the size, or a zero-filled buffer of that size.
std::vector<uint32_t> ParseBufferData(const json& object, const std::string& where) {
  CheckObject(object, where, {"u32", "i32", "f32", "size"});
  std::vector<uint32_t> words;
  int data_keys = 0;
  for (const char* key : {"u32", "i32", "f32"}) {
    if (const json* list = Find(object, key)) {
      words = ParseWords(*list, key, Member(where, key));
      ++data_keys;
    }
  }
  if (data_keys > 1) Fail(where, "give only one of \"u32\", \"i32\", \"f32\"");
  if (const json* size = Find(object, "size")) {
    uint32_t bytes = ToU32(*size, Member(where, "size"), 4, kMaxBufferBytes);
    if (bytes % 4) Fail(Member(where, "size"), "must be a multiple of 4");
    if (bytes < words.size() * 4) Fail(Member(where, "size"), "smaller than the data");
    words.resize(bytes / 4, 0);
  }
  return words;
}

SamplerDesc ParseSampler(const json& object, const std::string& where) {
  CheckObject(object, where, {"filter", "mipmap", "address"});
  SamplerDesc sampler;
  sampler.linear_filter = Choose(GetString(object, "filter", where, "nearest"),
                                 Member(where, "filter"), {"nearest", "linear"}) == 1;
  sampler.linear_mipmap = Choose(GetString(object, "mipmap", where, "nearest"),
                                 Member(where, "mipmap"), {"nearest", "linear"}) == 1;
  sampler.clamp = Choose(GetString(object, "address", where, "repeat"), Member(where, "address"),
                         {"repeat", "clamp"}) == 1;
  return sampler;
}

// One mip level: {"color": [...]} fills it, {"texels": [...]} lists every channel.
std::vector<uint8_t> ParseLevel(const json& object, const std::string& where, ImageFormat format,
                                uint32_t width, uint32_t height) {
  CheckObject(object, where, {"color", "texels"});
  const json* color = Find(object, "color");
  const json* texels = Find(object, "texels");
  if ((color != nullptr) == (texels != nullptr)) Fail(where, "give either \"color\" or \"texels\"");
  const uint32_t channels = format == ImageFormat::kRgba8 ? 4 : 1;
  const size_t texel_count = size_t{width} * height;

  // The channel values, as given: [0,1] floats (color) or bytes (texels) for RGBA8.
  const std::string list_at = Member(where, color ? "color" : "texels");
  const json& list = RequireArray(color ? *color : *texels, list_at);
  const size_t expected = color ? channels : texel_count * channels;
  if (list.size() != expected) {
    Fail(list_at,
         "expected " + std::to_string(expected) + " values, got " + std::to_string(list.size()));
  }
  std::vector<uint8_t> pattern;  // one texel (color) or all of them (texels)
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = Index(list_at, i);
    if (format == ImageFormat::kR32f) {
      uint32_t bits = FloatBits(ToFloat(list[i], at));
      const auto* bytes = reinterpret_cast<const uint8_t*>(&bits);
      pattern.insert(pattern.end(), bytes, bytes + 4);
    } else if (color) {
      float value = ToFloat(list[i], at);
      if (value < 0 || value > 1) Fail(at, "an RGBA8 color channel must be in [0, 1]");
      pattern.push_back(static_cast<uint8_t>(std::lround(value * 255.0f)));
    } else {
      pattern.push_back(static_cast<uint8_t>(ToU32(list[i], at, 0, 255)));
    }
  }
  if (texels) return pattern;
  std::vector<uint8_t> level;
  level.reserve(texel_count * pattern.size());
  for (size_t i = 0; i < texel_count; ++i)
    level.insert(level.end(), pattern.begin(), pattern.end());
  return level;
}

ImageDesc ParseImage(const json& object, const std::string& where) {
  ImageDesc image;
  image.width = RequireU32(object, "width", where, 1, kMaxImageSize);
  image.height = RequireU32(object, "height", where, 1, kMaxImageSize);
  image.format = Choose(GetString(object, "format", where, "rgba8"), Member(where, "format"),
                        {"rgba8", "r32f"}) == 0
                     ? ImageFormat::kRgba8
                     : ImageFormat::kR32f;
  const json* levels = Find(object, "levels");
  if (!levels) Fail(where, "missing \"levels\"");
  const std::string levels_at = Member(where, "levels");
  RequireArray(*levels, levels_at);
  uint32_t max_levels = 1;
  while ((std::max(image.width, image.height) >> max_levels) > 0) ++max_levels;
  if (levels->empty() || levels->size() > max_levels) {
    Fail(levels_at, "a " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                        " image has 1 to " + std::to_string(max_levels) + " mip levels");
  }
  for (size_t level = 0; level < levels->size(); ++level) {
    image.levels.push_back(ParseLevel((*levels)[level], Index(levels_at, level), image.format,
                                      std::max(1u, image.width >> level),
                                      std::max(1u, image.height >> level)));
  }
  return image;
}

Element ParseElement(const json& object, DescriptorType type, const std::string& where) {
  Element element;
  switch (type) {
    case DescriptorType::kStorageBuffer:
    case DescriptorType::kUniformBuffer:
      element.words = ParseBufferData(object, where);
      if (element.words.empty()) Fail(where, "a buffer needs data or a \"size\"");
      break;
    case DescriptorType::kSampler:
      CheckObject(object, where, {"sampler"});
      break;
    case DescriptorType::kSampledImage:
    case DescriptorType::kStorageImage:
      CheckObject(object, where, {"width", "height", "format", "levels"});
      element.image = ParseImage(object, where);
      if (type == DescriptorType::kStorageImage && element.image.levels.size() != 1) {
        Fail(where, "a storage image has exactly one level here");
      }
      break;
    case DescriptorType::kCombinedImageSampler:
      CheckObject(object, where, {"width", "height", "format", "levels", "sampler"});
      element.image = ParseImage(object, where);
      break;
  }
  if (type == DescriptorType::kSampler || type == DescriptorType::kCombinedImageSampler) {
    if (const json* sampler = Find(object, "sampler")) {
      element.sampler = ParseSampler(*sampler, Member(where, "sampler"));
    }
  }
  return element;
}

// The bytes |element| occupies in host memory (and on the device).
uint64_t ElementBytes(const Element& element) {
  uint64_t bytes = element.words.size() * 4;
  for (const std::vector<uint8_t>& level : element.image.levels) bytes += level.size();
  return bytes;
}

// |job_bytes| counts what all bindings so far hold; elements are expanded one
// at a time, so a job too large fails before it exhausts memory.
Binding ParseBinding(const json& object, const std::string& where, uint64_t* job_bytes) {
  CheckObject(object, where, {"set", "binding", "type", "count", "elements"});
  Binding binding;
  binding.set = RequireU32(object, "set", where, 0, kMaxSetIndex);
  binding.binding = RequireU32(object, "binding", where, 0, 1023);
  const std::string type = GetString(object, "type", where, "");
  if (type.empty()) Fail(where, "missing \"type\"");
  binding.type =
      static_cast<DescriptorType>(Choose(type, Member(where, "type"),
                                         {"storage_buffer", "uniform_buffer", "sampled_image",
                                          "sampler", "combined_image_sampler", "storage_image"}));
  const json* elements = Find(object, "elements");
  if (!elements) Fail(where, "missing \"elements\"");
  const std::string elements_at = Member(where, "elements");
  RequireArray(*elements, elements_at);
  const uint32_t count = GetU32(object, "count", where, 1, kMaxDescriptorCount,
                                static_cast<uint32_t>(elements->size()));
  if (elements->size() != count) {
    Fail(elements_at, "has " + std::to_string(elements->size()) + " entries but \"count\" is " +
                          std::to_string(count));
  }
  if (count == 0) Fail(elements_at, "a binding needs at least one element");
  for (size_t i = 0; i < elements->size(); ++i) {
    binding.elements.push_back(ParseElement((*elements)[i], binding.type, Index(elements_at, i)));
    *job_bytes += ElementBytes(binding.elements.back());
    if (*job_bytes > kMaxJobBytes) {
      Fail(Index(elements_at, i),
           "the job's buffers and images exceed " + std::to_string(kMaxJobBytes >> 20) + " MiB");
    }
  }
  return binding;
}

// "inputs": [{"location": L, "plane": [[a, b, c], ...one per component]}, ...]
std::vector<InputPlane> ParseInputs(const json& list, const std::string& where) {
  RequireArray(list, where);
  std::vector<InputPlane> inputs;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = Index(where, i);
    CheckObject(list[i], at, {"location", "plane"});
    InputPlane input;
    input.location = RequireU32(list[i], "location", at, 0, kMaxLocation);
    for (const InputPlane& other : inputs) {
      if (other.location == input.location) {
        Fail(at, "location " + std::to_string(input.location) + " is given twice");
      }
    }
    const json* plane = Find(list[i], "plane");
    if (!plane) Fail(at, "missing \"plane\"");
    const std::string plane_at = Member(at, "plane");
    RequireArray(*plane, plane_at);
    if (plane->empty() || plane->size() > 4) {
      Fail(plane_at, "expected 1 to 4 components, each [a, b, c]");
    }
    for (size_t c = 0; c < plane->size(); ++c) {
      const std::string component_at = Index(plane_at, c);
      const json& abc = RequireArray((*plane)[c], component_at);
      if (abc.size() != 3) Fail(component_at, "expected [a, b, c] (a + b*x + c*y)");
      std::array<float, 3> coefficients{};
      for (size_t k = 0; k < 3; ++k) coefficients[k] = ToFloat(abc[k], Index(component_at, k));
      input.plane.push_back(coefficients);
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::string Resolve(const std::filesystem::path& folder, const std::string& path) {
  std::filesystem::path p(path);
  return p.is_absolute() ? path : (folder / p).string();
}

Job ParseJob(const json& root, const std::filesystem::path& folder) {
  const std::string where = "job";
  CheckObject(
      root, where,
      {"mode", "spv", "entry", "groups", "width", "height", "clear", "features", "push_constants",
       "bindings", "framebuffer_file", "framebuffer_json", "timeout_ms", "vertex_spv", "inputs"});
  Job job;
  job.mode =
      Choose(GetString(root, "mode", where, ""), Member(where, "mode"), {"compute", "render"}) == 0
          ? Mode::kCompute
          : Mode::kRender;
  const std::string spv = GetString(root, "spv", where, "");
  if (spv.empty()) Fail(where, "missing \"spv\"");
  job.spv_path = Resolve(folder, spv);
  job.entry = GetString(root, "entry", where, "main");
  job.timeout_ms = GetU32(root, "timeout_ms", where, 1, 600000, job.timeout_ms);

  const bool compute = job.mode == Mode::kCompute;
  for (const char* key : {"groups", "width", "height", "clear", "framebuffer_file",
                          "framebuffer_json", "vertex_spv", "inputs"}) {
    bool compute_key = std::strcmp(key, "groups") == 0;
    if (Find(root, key) && compute_key != compute) {
      Fail(Member(where, key),
           std::string("not used in ") + (compute ? "compute" : "render") + " mode");
    }
  }
  if (compute) {
    if (const json* groups = Find(root, "groups")) {
      RequireArray(*groups, Member(where, "groups"));
      if (groups->size() != 3) Fail(Member(where, "groups"), "expected [x, y, z]");
      for (size_t i = 0; i < 3; ++i) {
        job.groups[i] = ToU32((*groups)[i], Index(Member(where, "groups"), i), 1, kMaxGroups);
      }
    }
  } else {
    job.width = RequireU32(root, "width", where, 1, kMaxImageSize);
    job.height = RequireU32(root, "height", where, 1, kMaxImageSize);
    if (const json* clear = Find(root, "clear")) {
      RequireArray(*clear, Member(where, "clear"));
      if (clear->size() != 4) Fail(Member(where, "clear"), "expected [r, g, b, a]");
      for (size_t i = 0; i < 4; ++i) {
        job.clear[i] = ToFloat((*clear)[i], Index(Member(where, "clear"), i));
      }
    }
    const std::string file = GetString(root, "framebuffer_file", where, "");
    if (!file.empty()) job.framebuffer_file = Resolve(folder, file);
    if (const json* in_json = Find(root, "framebuffer_json")) {
      if (!in_json->is_boolean()) Fail(Member(where, "framebuffer_json"), "expected a boolean");
      job.framebuffer_json = in_json->get<bool>();
    }
    if (Find(root, "vertex_spv")) {
      const std::string vertex = GetString(root, "vertex_spv", where, "");
      if (vertex.empty()) Fail(Member(where, "vertex_spv"), "expected a file name");
      job.vertex_spv_path = Resolve(folder, vertex);
    }
    if (const json* inputs = Find(root, "inputs")) {
      job.inputs = ParseInputs(*inputs, Member(where, "inputs"));
      // The built-in vertex shader writes no outputs: planes it cannot deliver
      // would silently leave the inputs undefined.
      if (!job.inputs.empty() && job.vertex_spv_path.empty()) {
        Fail(Member(where, "inputs"),
             "needs \"vertex_spv\", a vertex shader writing these planes (the built-in one writes "
             "no outputs)");
      }
    }
  }

  if (const json* features = Find(root, "features")) {
    RequireArray(*features, Member(where, "features"));
    for (size_t i = 0; i < features->size(); ++i) {
      const std::string at = Index(Member(where, "features"), i);
      if (!(*features)[i].is_string()) Fail(at, "expected a feature name");
      std::string name = (*features)[i].get<std::string>();
      if (!LookUpFeature(name, nullptr)) {
        std::string known;
        for (const std::string& k : KnownFeatureNames()) known += (known.empty() ? "" : ", ") + k;
        Fail(at, "unknown feature \"" + name + "\" (known: " + known + ")");
      }
      if (std::find(job.features.begin(), job.features.end(), name) == job.features.end()) {
        job.features.push_back(name);
      }
    }
  }

  if (const json* push = Find(root, "push_constants")) {
    const std::string at = Member(where, "push_constants");
    job.push_constants = ParseBufferData(*push, at);
    if (job.push_constants.size() * 4 > kMaxPushConstantBytes) {
      Fail(at, "at most " + std::to_string(kMaxPushConstantBytes) + " bytes");
    }
  }

  if (const json* bindings = Find(root, "bindings")) {
    const std::string at = Member(where, "bindings");
    RequireArray(*bindings, at);
    uint64_t job_bytes = 0;
    for (size_t i = 0; i < bindings->size(); ++i) {
      Binding binding = ParseBinding((*bindings)[i], Index(at, i), &job_bytes);
      for (const Binding& other : job.bindings) {
        if (other.set == binding.set && other.binding == binding.binding) {
          Fail(Index(at, i), "set " + std::to_string(binding.set) + " binding " +
                                 std::to_string(binding.binding) + " is given twice");
        }
      }
      job.bindings.push_back(std::move(binding));
    }
  }
  return job;
}

std::vector<char> ReadFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JobError(std::string("cannot read ") + what + " '" + path + "'");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw JobError(std::string("cannot read ") + what + " '" + path + "'");
  return bytes;
}

}  // namespace

const char* DescriptorTypeName(DescriptorType type) {
  switch (type) {
    case DescriptorType::kStorageBuffer:
      return "storage_buffer";
    case DescriptorType::kUniformBuffer:
      return "uniform_buffer";
    case DescriptorType::kSampledImage:
      return "sampled_image";
    case DescriptorType::kSampler:
      return "sampler";
    case DescriptorType::kCombinedImageSampler:
      return "combined_image_sampler";
    case DescriptorType::kStorageImage:
      return "storage_image";
  }
  return "?";
}

uint32_t TexelSize(ImageFormat format) {
  switch (format) {
    case ImageFormat::kRgba8:
      return 4;
    case ImageFormat::kR32f:
      return 4;
  }
  return 4;
}

Job LoadJob(const std::string& path) {
  std::vector<char> text = ReadFile(path, "job file");
  json root = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) throw JobError("job file '" + path + "' is not valid JSON");
  try {
    return ParseJob(root, std::filesystem::path(path).parent_path());
  } catch (const json::exception& e) {
    // The checks above should leave nothing for the library to reject; if
    // something slips through it is still a bad job, not a crash.
    throw JobError(std::string("job: ") + e.what());
  }
}

std::vector<uint32_t> LoadSpirv(const std::string& path) {
  std::vector<char> bytes = ReadFile(path, "SPIR-V module");
  if (bytes.size() < 20 || bytes.size() % 4) {
    throw JobError("'" + path + "' is not a SPIR-V binary (size " + std::to_string(bytes.size()) +
                   ")");
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] != 0x07230203u) {
    throw JobError("'" + path + "' is not a SPIR-V binary in this machine's byte order");
  }
  return words;
}

}  // namespace vk_runner
