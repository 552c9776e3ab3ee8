// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// vk_runner job files and result JSON (test/vulkan/README.md), so the same job
// runs on lavapipe and in the simulator and the two results compare key for
// key; and the buffer files of `spirv-conv run --buffer`.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "spirv_conv/sim.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace sim {
namespace {

using nlohmann::json;

Error Bad(const std::string& file, const std::string& what) {
  return MakeError(ExitCode::kBadInput, file, what);
}

// Unknown keys are errors, as in vk_runner ("comment" is allowed anywhere).
std::string UnknownKey(const json& object, std::initializer_list<const char*> allowed) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = it.key() == "comment";
    for (const char* name : allowed) known = known || it.key() == name;
    if (!known) return it.key();
  }
  return "";
}

constexpr size_t kMaxElements = 256;                    // per binding
constexpr uint64_t kMaxJobBytes = uint64_t{256} << 20;  // all buffers of a job

// {"u32"|"i32"|"f32": [...], "size": N} as bytes; an error message or "".
std::string ElementBytes(const json& element, std::vector<uint8_t>* bytes) {
  if (!element.is_object()) return "expected an object";
  const std::string unknown = UnknownKey(element, {"u32", "i32", "f32", "size"});
  if (!unknown.empty()) return "unknown key \"" + unknown + "\"";
  bytes->clear();
  int kinds = 0;
  for (const char* kind : {"u32", "i32", "f32"}) {
    auto it = element.find(kind);
    if (it == element.end()) continue;
    ++kinds;
    if (!it->is_array()) return std::string(kind) + ": expected an array";
    for (const json& v : *it) {
      uint32_t word;
      if (std::string(kind) == "f32") {
        if (!v.is_number()) return "f32: expected numbers";
        const double d = v.get<double>();
        if (std::fabs(d) > std::numeric_limits<float>::max()) return "f32: out of range";
        const float f = static_cast<float>(d);
        std::memcpy(&word, &f, 4);
      } else if (std::string(kind) == "u32") {
        if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xFFFFFFFFull)
          return "u32: expected 32-bit unsigned integers";
        word = v.get<uint32_t>();
      } else {
        if (!v.is_number_integer()) return "i32: expected integers";
        const int64_t i = v.get<int64_t>();
        if (i < INT32_MIN || i > INT32_MAX) return "i32: out of range";
        word = static_cast<uint32_t>(static_cast<int32_t>(i));
      }
      const auto* b = reinterpret_cast<const uint8_t*>(&word);
      bytes->insert(bytes->end(), b, b + 4);
    }
  }
  if (kinds > 1) return "at most one of u32, i32, f32";
  if (auto it = element.find("size"); it != element.end()) {
    if (!it->is_number_unsigned() || it->get<uint64_t>() % 4 != 0 ||
        it->get<uint64_t>() > (64u << 20)) {
      return "size: expected a multiple of 4 up to 64 MiB";
    }
    const uint64_t size = it->get<uint64_t>();
    if (size < bytes->size()) return "size is smaller than the data";
    bytes->resize(size, 0);
  }
  return "";
}

Expected<json> ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Bad(path, "cannot read");
  json value = json::parse(in, nullptr, false);
  if (value.is_discarded()) return Bad(path, "not valid JSON");
  return value;
}

constexpr uint32_t kMaxImageSide = 4096;

std::string ParseSampler(const json& s, Sampler* sampler) {
  if (!s.is_object()) return "sampler: expected an object";
  const std::string unknown = UnknownKey(s, {"filter", "mipmap", "address"});
  if (!unknown.empty()) return "sampler: unknown key \"" + unknown + "\"";
  for (const char* key : {"filter", "mipmap"}) {
    auto it = s.find(key);
    if (it == s.end()) continue;
    if (*it != "nearest" && *it != "linear") {
      return std::string("sampler.") + key + ": expected \"nearest\" or \"linear\"";
    }
    (std::string(key) == "filter" ? sampler->filter : sampler->mipmap) =
        *it == "linear" ? Sampler::Filter::kLinear : Sampler::Filter::kNearest;
  }
  if (auto it = s.find("address"); it != s.end()) {
    if (*it != "repeat" && *it != "clamp")
      return "sampler.address: expected \"repeat\" or \"clamp\"";
    sampler->address = *it == "clamp" ? Sampler::Address::kClampToEdge : Sampler::Address::kRepeat;
  }
  return "";
}

// One image element of a job (vk_runner's format); |with_sampler|: a combined image sampler.
// |total_bytes| counts the job's buffers and images as vk_runner holds them (4 bytes
// per texel), checked against kMaxJobBytes before a level is allocated.
std::string ParseImage(const json& e, bool with_sampler, Image* image, uint64_t* total_bytes) {
  if (!e.is_object()) return "expected an object";
  const std::string unknown =
      with_sampler ? UnknownKey(e, {"width", "height", "format", "levels", "sampler"})
                   : UnknownKey(e, {"width", "height", "format", "levels"});
  if (!unknown.empty()) return "unknown key \"" + unknown + "\"";
  for (const char* key : {"width", "height"}) {
    auto it = e.find(key);
    if (it == e.end() || !it->is_number_unsigned() || it->get<uint64_t>() < 1 ||
        it->get<uint64_t>() > kMaxImageSide) {
      return std::string(key) + ": expected an integer in [1, 4096]";
    }
    (std::string(key) == "width" ? image->width : image->height) = it->get<uint32_t>();
  }
  const std::string format = e.value("format", std::string("rgba8"));
  if (format != "rgba8" && format != "r32f") return "format: expected \"rgba8\" or \"r32f\"";
  image->format = format == "r32f" ? Image::Format::kR32f : Image::Format::kRgba8;
  const bool bytes = image->format == Image::Format::kRgba8;
  auto levels = e.find("levels");
  if (levels == e.end() || !levels->is_array() || levels->empty()) {
    return "levels: expected a non-empty array";
  }
  uint32_t chain = 1;
  while ((std::max(image->width, image->height) >> chain) > 0) ++chain;
  if (levels->size() > chain) return "levels: more than the full mip chain";
  for (size_t l = 0; l < levels->size(); ++l) {
    const json& level = (*levels)[l];
    const std::string at = "levels[" + std::to_string(l) + "]";
    const uint32_t w = std::max(1u, image->width >> l), h = std::max(1u, image->height >> l);
    const size_t channels = bytes ? 4 : 1;
    *total_bytes += uint64_t{w} * h * 4;
    if (*total_bytes > kMaxJobBytes) return "the job's buffers and images exceed 256 MiB";
    if (!level.is_object() || level.size() != 1 ||
        (!level.contains("color") && !level.contains("texels"))) {
      return at + ": expected {\"color\": [...]} or {\"texels\": [...]}";
    }
    const bool solid = level.contains("color");
    const json& list = solid ? level["color"] : level["texels"];
    const size_t want = solid ? channels : channels * w * h;
    if (!list.is_array() || list.size() != want) {
      return at + (solid ? ".color" : ".texels") + ": expected " + std::to_string(want) +
             " numbers";
    }
    std::vector<float> channel_values;
    for (const json& v : list) {
      if (!v.is_number()) return at + ": expected numbers";
      double d = v.get<double>();
      if (bytes) {
        if (solid ? (d < 0 || d > 1) : (!v.is_number_unsigned() || d > 255)) {
          return at + (solid ? ": colours are in [0, 1]" : ": texels are bytes");
        }
        // As vk_runner uploads them: a colour rounded to the nearest byte.
        const double byte = solid ? static_cast<double>(std::lround(d * 255.0)) : d;
        d = byte / 255.0;
      }
      channel_values.push_back(static_cast<float>(d));
    }
    std::vector<float> texels(static_cast<size_t>(w) * h * 4);
    for (size_t t = 0; t < static_cast<size_t>(w) * h; ++t) {
      const float* src = channel_values.data() + (solid ? 0 : t * channels);
      if (bytes) {
        std::copy(src, src + 4, texels.begin() + static_cast<std::ptrdiff_t>(t * 4));
      } else {
        const float rgba[4] = {src[0], 0, 0, 1};
        std::copy(rgba, rgba + 4, texels.begin() + static_cast<std::ptrdiff_t>(t * 4));
      }
    }
    image->levels.push_back(std::move(texels));
  }
  if (auto s = e.find("sampler"); s != e.end()) return ParseSampler(*s, &image->sampler);
  return "";
}

}  // namespace

std::string AttachmentJson(const Attachment& a) {
  json values = json::array();
  for (double v : a.values) {
    if (a.kind == Attachment::Kind::kFloat) {
      values.push_back(static_cast<float>(v));
    } else if (a.kind == Attachment::Kind::kInt) {
      values.push_back(static_cast<int64_t>(v));
    } else {
      values.push_back(static_cast<uint64_t>(v));
    }
  }
  const char* key = a.kind == Attachment::Kind::kFloat ? "f32"
                    : a.kind == Attachment::Kind::kInt ? "i32"
                                                       : "u32";
  json out = {{"location", a.location < 0 ? json("depth") : json(a.location)},
              {"width", a.width},
              {"height", a.height},
              {"components", a.components},
              {key, values},
              {"written", a.written}};
  return out.dump();
}

Expected<std::vector<double>> LoadNumberList(const std::string& path, const std::string& key) {
  Expected<json> value = ReadJson(path);
  if (!value) return value.error();
  if (!value->is_object() || !value->contains(key) || !(*value)[key].is_array()) {
    return Bad(path, "expected {\"" + key + "\": [numbers]}");
  }
  std::vector<double> out;
  for (const json& v : (*value)[key]) {
    if (!v.is_number()) return Bad(path, key + ": expected numbers");
    out.push_back(v.get<double>());
  }
  return out;
}

Expected<Frame::Input> LoadInputFile(const std::string& path) {
  Expected<json> value = ReadJson(path);
  if (!value) return value.error();
  const json& j = *value;
  if (!j.is_object() || j.size() != 1 || (!j.contains("plane") && !j.contains("per_pixel"))) {
    return Bad(path, "expected {\"plane\": [[a, b, c], ...]} or {\"per_pixel\": [[...], ...]}");
  }
  const bool plane = j.contains("plane");
  const json& list = plane ? j["plane"] : j["per_pixel"];
  if (!list.is_array() || list.empty() || list.size() > 4) {
    return Bad(path, "expected 1 to 4 components");
  }
  Frame::Input input;
  for (size_t c = 0; c < list.size(); ++c) {
    const json& component = list[c];
    const std::string at = (plane ? "plane[" : "per_pixel[") + std::to_string(c) + "]";
    if (!component.is_array() || (plane && component.size() != 3)) {
      return Bad(path, at + (plane ? ": expected [a, b, c]" : ": expected an array"));
    }
    for (size_t i = 0; i < component.size(); ++i) {
      if (!component[i].is_number()) return Bad(path, at + ": expected numbers");
      const double v = component[i].get<double>();
      if (plane) {
        input.plane[c][i] = v;
      } else {
        input.per_pixel[c].push_back(v);
      }
    }
  }
  return input;
}

Expected<Image> LoadImageFile(const std::string& path) {
  Expected<json> value = ReadJson(path);
  if (!value) return value.error();
  Image image;
  uint64_t total_bytes = 0;
  const std::string problem = ParseImage(*value, true, &image, &total_bytes);
  if (!problem.empty()) return Bad(path, problem);
  return image;
}

Expected<std::vector<uint8_t>> LoadBufferFile(const std::string& path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
    Expected<json> value = ReadJson(path);
    if (!value) return value.error();
    std::vector<uint8_t> bytes;
    const std::string problem = ElementBytes(*value, &bytes);
    if (!problem.empty()) return Bad(path, problem);
    return bytes;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Bad(path, "cannot read");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

std::string BufferJson(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words((bytes.size() + 3) / 4, 0);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return json{{"u32", words}}.dump() + "\n";
}

Expected<Job> LoadJob(const std::string& path) {
  Expected<json> loaded = ReadJson(path);
  if (!loaded) return loaded.error();
  const json& j = *loaded;
  if (!j.is_object()) return Bad(path, "job: expected an object");
  auto mode = j.find("mode");
  if (mode == j.end() || (*mode != "compute" && *mode != "render")) {
    return Bad(path, "job.mode: expected \"compute\" or \"render\"");
  }
  Job job;
  job.render = *mode == "render";
  const std::string unknown =
      job.render ? UnknownKey(j, {"mode", "spv", "entry", "width", "height", "clear",
                                  "framebuffer_file", "framebuffer_json", "inputs", "vertex_spv",
                                  "features", "push_constants", "timeout_ms", "bindings"})
                 : UnknownKey(j, {"mode", "spv", "entry", "groups", "features", "push_constants",
                                  "timeout_ms", "bindings"});
  if (!unknown.empty()) return Bad(path, "job: unknown key \"" + unknown + "\"");
  if (job.render) {
    for (const char* key : {"width", "height"}) {
      auto it = j.find(key);
      if (it == j.end() || !it->is_number_unsigned() || it->get<uint64_t>() < 1 ||
          it->get<uint64_t>() > kMaxImageSide) {
        return Bad(path, std::string("job.") + key + ": expected an integer in [1, 4096]");
      }
      (std::string(key) == "width" ? job.width : job.height) = it->get<uint32_t>();
    }
    if (auto c = j.find("clear"); c != j.end()) {
      if (!c->is_array() || c->size() != 4) return Bad(path, "job.clear: expected [r, g, b, a]");
      for (int i = 0; i < 4; ++i) {
        if (!(*c)[i].is_number()) return Bad(path, "job.clear: expected numbers");
        job.clear[i] = (*c)[i].get<double>();
      }
    }
    if (auto f = j.find("framebuffer_file"); f != j.end()) {
      if (!f->is_string()) return Bad(path, "job.framebuffer_file: expected a file name");
      std::filesystem::path file = f->get<std::string>();
      if (file.is_relative()) file = std::filesystem::path(path).parent_path() / file;
      job.framebuffer_file = file.string();
    }
    if (auto inputs = j.find("inputs"); inputs != j.end()) {
      if (!inputs->is_array()) return Bad(path, "job.inputs: expected an array");
      for (size_t i = 0; i < inputs->size(); ++i) {
        const json& in = (*inputs)[i];
        const std::string where = "job.inputs[" + std::to_string(i) + "]";
        if (!in.is_object()) return Bad(path, where + ": expected an object");
        const std::string key = UnknownKey(in, {"location", "plane"});
        if (!key.empty()) return Bad(path, where + ": unknown key \"" + key + "\"");
        auto location = in.find("location");
        if (location == in.end() || !location->is_number_unsigned() ||
            location->get<uint64_t>() > 31) {
          return Bad(path, where + ".location: expected an integer in [0, 31]");
        }
        auto plane = in.find("plane");
        if (plane == in.end() || !plane->is_array() || plane->empty() || plane->size() > 4) {
          return Bad(path, where + ".plane: expected 1 to 4 components [a, b, c]");
        }
        Frame::Input input;
        input.location = location->get<uint32_t>();
        for (size_t c = 0; c < plane->size(); ++c) {
          const json& abc = (*plane)[c];
          if (!abc.is_array() || abc.size() != 3 || !abc[0].is_number() || !abc[1].is_number() ||
              !abc[2].is_number()) {
            return Bad(path, where + ".plane[" + std::to_string(c) + "]: expected [a, b, c]");
          }
          for (int k = 0; k < 3; ++k) input.plane[c][k] = abc[k].get<double>();
        }
        job.inputs.push_back(input);
      }
    }
    if (auto f = j.find("framebuffer_json"); f != j.end()) {
      if (!f->is_boolean()) return Bad(path, "job.framebuffer_json: expected true or false");
      job.framebuffer_json = f->get<bool>();
    }
  }
  auto spv = j.find("spv");
  if (spv == j.end() || !spv->is_string()) return Bad(path, "job.spv: expected a file name");
  std::filesystem::path module = spv->get<std::string>();
  if (module.is_relative()) module = std::filesystem::path(path).parent_path() / module;
  job.spv_path = module.string();
  if (auto e = j.find("entry"); e != j.end()) {
    if (!e->is_string()) return Bad(path, "job.entry: expected a string");
    job.entry = e->get<std::string>();
  }
  if (auto g = j.find("groups"); g != j.end()) {
    if (!g->is_array() || g->size() != 3) return Bad(path, "job.groups: expected [x, y, z]");
    for (int i = 0; i < 3; ++i) {
      const json& n = (*g)[i];
      if (!n.is_number_unsigned() || n.get<uint64_t>() < 1 || n.get<uint64_t>() > 65535) {
        return Bad(path, "job.groups[" + std::to_string(i) + "]: must be in [1, 65535]");
      }
      job.groups[i] = n.get<uint32_t>();
    }
  }
  if (auto pc = j.find("push_constants"); pc != j.end()) {
    const std::string problem = ElementBytes(*pc, &job.push_constants);
    if (!problem.empty()) return Bad(path, "job.push_constants: " + problem);
    job.has_push_constants = true;
  }
  uint64_t total_bytes = 0;
  if (auto bindings = j.find("bindings"); bindings != j.end()) {
    if (!bindings->is_array()) return Bad(path, "job.bindings: expected an array");
    for (size_t i = 0; i < bindings->size(); ++i) {
      const json& b = (*bindings)[i];
      const std::string where = "job.bindings[" + std::to_string(i) + "]";
      if (!b.is_object()) return Bad(path, where + ": expected an object");
      const std::string key = UnknownKey(b, {"set", "binding", "type", "count", "elements"});
      if (!key.empty()) return Bad(path, where + ": unknown key \"" + key + "\"");
      JobBinding binding;
      const auto type = b.value("type", std::string());
      static const std::pair<const char*, JobBinding::Type> kTypes[] = {
          {"storage_buffer", JobBinding::Type::kStorageBuffer},
          {"uniform_buffer", JobBinding::Type::kUniformBuffer},
          {"sampled_image", JobBinding::Type::kSampledImage},
          {"sampler", JobBinding::Type::kSampler},
          {"combined_image_sampler", JobBinding::Type::kCombinedImageSampler},
          {"storage_image", JobBinding::Type::kStorageImage}};
      bool known_type = false;
      for (const auto& [name, value] : kTypes) {
        if (type == name) {
          binding.type = value;
          known_type = true;
        }
      }
      if (!known_type) {
        return Bad(path, where + ".type: \"" + type +
                             "\" is not a binding type (storage_buffer, uniform_buffer, "
                             "sampled_image, sampler, combined_image_sampler, storage_image)");
      }
      binding.storage = binding.type == JobBinding::Type::kStorageBuffer;
      const bool buffer = binding.type == JobBinding::Type::kStorageBuffer ||
                          binding.type == JobBinding::Type::kUniformBuffer;
      for (const char* field : {"set", "binding"}) {
        auto it = b.find(field);
        if (it == b.end() || !it->is_number_unsigned()) {
          return Bad(path, where + "." + field + ": expected a non-negative integer");
        }
        (std::string(field) == "set" ? binding.set : binding.binding) = it->get<uint32_t>();
      }
      auto elements = b.find("elements");
      if (elements == b.end() || !elements->is_array())
        return Bad(path, where + ".elements: expected an array");
      if (auto count = b.find("count");
          count != b.end() &&
          (!count->is_number_unsigned() || count->get<size_t>() != elements->size())) {
        return Bad(path, where + ".count: must equal the number of elements");
      }
      // vk_runner's limits, so a mistyped job fails instead of exhausting memory.
      if (elements->size() > kMaxElements) {
        return Bad(path, where + ".elements: at most " + std::to_string(kMaxElements));
      }
      for (size_t e = 0; e < elements->size() && !buffer; ++e) {
        const json& element = (*elements)[e];
        const std::string at = where + ".elements[" + std::to_string(e) + "]";
        Image image;
        image.set = binding.set;
        image.binding = binding.binding;
        image.element = static_cast<uint32_t>(e);
        std::string problem;
        if (binding.type == JobBinding::Type::kSampler) {
          if (!element.is_object()) return Bad(path, at + ": expected an object");
          const std::string unknown_key = UnknownKey(element, {"sampler"});
          if (!unknown_key.empty()) return Bad(path, at + ": unknown key \"" + unknown_key + "\"");
          if (element.contains("sampler"))
            problem = ParseSampler(element["sampler"], &image.sampler);
        } else {
          problem = ParseImage(element, binding.type == JobBinding::Type::kCombinedImageSampler,
                               &image, &total_bytes);
          if (problem.empty() && binding.type == JobBinding::Type::kStorageImage &&
              image.levels.size() != 1) {
            problem = "levels: a storage image has one";
          }
        }
        if (!problem.empty()) return Bad(path, at + ": " + problem);
        if (total_bytes > kMaxJobBytes) {
          return Bad(path, where + ": the job's buffers and images exceed 256 MiB");
        }
        binding.images.push_back(std::move(image));
      }
      for (size_t e = 0; e < elements->size() && buffer; ++e) {
        std::vector<uint8_t> bytes;
        const std::string problem = ElementBytes((*elements)[e], &bytes);
        if (!problem.empty())
          return Bad(path, where + ".elements[" + std::to_string(e) + "]: " + problem);
        total_bytes += bytes.size();
        if (total_bytes > kMaxJobBytes) {
          return Bad(path, where + ": the job's buffers exceed 256 MiB");
        }
        binding.elements.push_back(std::move(bytes));
      }
      job.bindings.push_back(std::move(binding));
    }
  }
  return job;
}

std::vector<Buffer> JobBuffers(const Job& job) {
  std::vector<Buffer> buffers;
  for (const JobBinding& b : job.bindings) {
    for (uint32_t e = 0; e < b.elements.size(); ++e) {
      Buffer buffer;
      buffer.set = b.set;
      buffer.binding = b.binding;
      buffer.element = e;
      buffer.storage = b.storage;
      buffer.bytes = b.elements[e];
      buffers.push_back(std::move(buffer));
    }
  }
  if (job.has_push_constants) {
    Buffer pc;
    pc.push_constant = true;
    pc.bytes = job.push_constants;
    buffers.push_back(std::move(pc));
  }
  return buffers;
}

void ApplyJob(const Job& job, RunOptions* options) {
  options->workgroups = job.groups;
  for (const JobBinding& b : job.bindings) {
    options->images.insert(options->images.end(), b.images.begin(), b.images.end());
  }
  if (job.render) {
    options->frame.width = job.width;
    options->frame.height = job.height;
    options->frame.coverage.clear();
    options->frame.inputs = job.inputs;
  }
}

std::vector<uint8_t> Framebuffer(const Job& job, const RunResult& result) {
  auto unorm = [](double v) {
    return static_cast<uint8_t>(std::lround(std::clamp(std::isnan(v) ? 0.0 : v, 0.0, 1.0) * 255));
  };
  std::vector<uint8_t> rgba(static_cast<size_t>(job.width) * job.height * 4);
  const Attachment* color = nullptr;
  for (const Attachment& a : result.attachments) {
    if (a.location == 0) color = &a;
  }
  for (size_t p = 0; p < static_cast<size_t>(job.width) * job.height; ++p) {
    for (uint32_t c = 0; c < 4; ++c) {
      double v = job.clear[c];
      if (color && color->written[p]) {
        v = c < color->components ? color->values[p * color->components + c] : (c == 3 ? 1 : 0);
      }
      rgba[p * 4 + c] = unorm(v);
    }
  }
  return rgba;
}

std::string JobResultJson(const Job& job, const RunResult& result, const RunOptions& options,
                          const Stats* stats) {
  json buffers = json::array(), images = json::array();
  for (const JobBinding& b : job.bindings) {
    if (b.type != JobBinding::Type::kStorageImage) continue;
    for (const Image& given : b.images) {
      const Image* image = &given;
      for (const Image& out : result.images) {
        if (out.set == b.set && out.binding == b.binding && out.element == given.element) {
          image = &out;
        }
      }
      json entry = {{"set", b.set},
                    {"binding", b.binding},
                    {"element", image->element},
                    {"width", image->width},
                    {"height", image->height}};
      const std::vector<float>& texels = image->levels[0];
      if (image->format == Image::Format::kRgba8) {
        std::vector<uint32_t> bytes;
        for (float v : texels) bytes.push_back(static_cast<uint32_t>(std::lround(v * 255.0)));
        entry["format"] = "rgba8";
        entry["u8"] = bytes;
      } else {
        std::vector<float> reds;
        for (size_t t = 0; t < texels.size(); t += 4) reds.push_back(texels[t]);
        entry["format"] = "r32f";
        entry["f32"] = reds;
      }
      images.push_back(std::move(entry));
    }
  }
  for (const JobBinding& b : job.bindings) {
    if (b.type != JobBinding::Type::kStorageBuffer) continue;
    for (uint32_t e = 0; e < b.elements.size(); ++e) {
      const std::vector<uint8_t>* bytes = &b.elements[e];
      for (const Buffer& out : result.buffers) {
        if (out.set == b.set && out.binding == b.binding && out.element == e) bytes = &out.bytes;
      }
      std::vector<uint32_t> words(bytes->size() / 4);
      if (!words.empty()) std::memcpy(words.data(), bytes->data(), words.size() * 4);
      buffers.push_back({{"set", b.set}, {"binding", b.binding}, {"element", e}, {"u32", words}});
    }
  }
  json out = {{"device",
               {{"name", "spirv-conv simulator"},
                {"driver", VersionString()},
                {"model", ModelName(options.model)},
                {"seed", options.seed},
                {"subgroup_size", options.subgroup_size},
                {"subgroup_stages", {"fragment", "compute"}},
                {"subgroup_operations",
                 {"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative",
                  "clustered", "quad"}}}},
              {"buffers", buffers},
              {"images", images}};
  if (job.render) {
    json framebuffer = {{"width", job.width}, {"height", job.height}};
    if (!job.framebuffer_file.empty()) framebuffer["file"] = job.framebuffer_file;
    if (job.framebuffer_json) framebuffer["rgba8"] = Framebuffer(job, result);
    out["framebuffer"] = framebuffer;
  }
  if (!result.attachments.empty()) {
    json attachments = json::array();
    for (const Attachment& a : result.attachments)
      attachments.push_back(json::parse(AttachmentJson(a)));
    out["attachments"] = attachments;
  }
  if (stats) out["stats"] = json::parse(StatsJson(*stats));
  return out.dump() + "\n";
}

}  // namespace sim
}  // namespace spirv_conv
