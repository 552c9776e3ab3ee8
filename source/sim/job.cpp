// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// vk_runner job files and result JSON (test/vulkan/README.md), so the same job
// runs on lavapipe and in the simulator and the two results compare key for
// key; and the buffer files of `spirv-conv run --buffer`.

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

}  // namespace

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
  if (mode == j.end() || *mode != "compute") {
    return Bad(path, "job.mode: the simulator runs only \"compute\" jobs");
  }
  const std::string unknown = UnknownKey(j, {"mode", "spv", "entry", "groups", "features",
                                             "push_constants", "timeout_ms", "bindings"});
  if (!unknown.empty()) return Bad(path, "job: unknown key \"" + unknown + "\"");
  Job job;
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
      if (type != "storage_buffer" && type != "uniform_buffer") {
        return Bad(path,
                   where + ".type: \"" + type +
                       "\" is not supported by the simulator (storage_buffer, uniform_buffer)");
      }
      binding.storage = type == "storage_buffer";
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
      for (size_t e = 0; e < elements->size(); ++e) {
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

std::string JobResultJson(const Job& job, const RunResult& result, const RunOptions& options,
                          const Stats* stats) {
  json buffers = json::array();
  for (const JobBinding& b : job.bindings) {
    if (!b.storage) continue;
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
                {"subgroup_stages", {"compute"}},
                {"subgroup_operations",
                 {"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative",
                  "clustered", "quad"}}}},
              {"buffers", buffers},
              {"images", json::array()}};
  if (stats) out["stats"] = json::parse(StatsJson(*stats));
  return out.dump() + "\n";
}

}  // namespace sim
}  // namespace spirv_conv
