// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv run: execute a compute or fragment shader in the SIMT simulator
// (docs/simulator.md), from command-line buffers, images and a frame, or from
// a vk_runner job.

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/sim.h"

namespace spirv_conv {
namespace cli {
namespace {

struct RunFlags {
  AnalysisFlags analysis;
  std::string file;
  std::string job;
  std::string output = "-";
  std::string workgroups;
  uint32_t subgroup_size = 8;
  std::string model = "maximal";
  uint64_t seed = 0;
  uint64_t max_instructions = 1ull << 32;
  std::string entry;
  std::vector<std::string> buffers;
  std::string push_constants;
  std::vector<std::string> dumps;
  std::string stats;
  // Fragment shaders.
  std::string frame;
  std::string coverage = "full";
  std::vector<std::string> inputs;
  std::vector<std::string> images;
  std::vector<std::string> attachment_dumps;
};

// "SET:BINDING=FILE" (or "SET:BINDING[ELEMENT]=FILE").
bool ParseBindingFile(const std::string& text, sim::Buffer* buffer, std::string* file) {
  const size_t colon = text.find(':'), eq = text.find('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon) return false;
  try {
    buffer->set = static_cast<uint32_t>(std::stoul(text.substr(0, colon)));
    std::string binding = text.substr(colon + 1, eq - colon - 1);
    const size_t bracket = binding.find('[');
    if (bracket != std::string::npos) {
      buffer->element = static_cast<uint32_t>(std::stoul(binding.substr(bracket + 1)));
      binding = binding.substr(0, bracket);
    }
    buffer->binding = static_cast<uint32_t>(std::stoul(binding));
  } catch (const std::exception&) {
    return false;
  }
  *file = text.substr(eq + 1);
  return !file->empty();
}

Expected<std::array<uint32_t, 3>> ParseWorkgroups(const std::string& text) {
  std::array<uint32_t, 3> groups{1, 1, 1};
  size_t at = 0;
  for (int i = 0; i < 3 && at <= text.size(); ++i) {
    const size_t comma = text.find(',', at);
    const std::string part =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    try {
      const unsigned long n = std::stoul(part);
      if (n < 1 || n > 65535) throw std::out_of_range("count");
      groups[i] = static_cast<uint32_t>(n);
    } catch (const std::exception&) {
      return Error{ExitCode::kBadInput, "--workgroups: expected X[,Y[,Z]], each in [1, 65535]"};
    }
    if (comma == std::string::npos) return groups;
    at = comma + 1;
  }
  return Error{ExitCode::kBadInput, "--workgroups: expected X[,Y[,Z]], each in [1, 65535]"};
}

Expected<std::pair<uint32_t, uint32_t>> ParseFrame(const std::string& text) {
  const Error bad{ExitCode::kBadInput, "--frame: expected WIDTHxHEIGHT, each in [1, 4096]"};
  const size_t x = text.find('x');
  if (x == std::string::npos) return bad;
  try {
    size_t used = 0;
    const unsigned long w = std::stoul(text.substr(0, x), &used);
    if (used != x) return bad;
    const unsigned long h = std::stoul(text.substr(x + 1), &used);
    if (used != text.size() - x - 1 || w < 1 || h < 1 || w > 4096 || h > 4096) return bad;
    return std::make_pair(static_cast<uint32_t>(w), static_cast<uint32_t>(h));
  } catch (const std::exception&) {
    return bad;
  }
}

// "full", "triangle" (the pixels whose centres lie below the diagonal from the
// top right to the bottom left corner, so quads along it are partly covered)
// or a .json file {"coverage": [0|1 per pixel, rows top first]}.
Status ParseCoverage(const std::string& text, sim::Frame* frame) {
  frame->coverage.clear();
  if (text == "full") return Ok{};
  const size_t pixels = static_cast<size_t>(frame->width) * frame->height;
  if (text == "triangle") {
    for (uint32_t y = 0; y < frame->height; ++y) {
      for (uint32_t x = 0; x < frame->width; ++x) {
        // (x + 0.5) / w + (y + 0.5) / h > 1, in integers.
        frame->coverage.push_back((2 * x + 1) * frame->height + (2 * y + 1) * frame->width >
                                  2 * frame->width * frame->height);
      }
    }
    return Ok{};
  }
  Expected<std::vector<double>> values = sim::LoadNumberList(text, "coverage");
  if (!values) return values.error();
  if (values->size() != pixels) {
    return Error{ExitCode::kBadInput, text + ": coverage: expected " + std::to_string(pixels) +
                                          " entries (one per pixel), found " +
                                          std::to_string(values->size())};
  }
  for (double v : *values) frame->coverage.push_back(v != 0);
  return Ok{};
}

// "LOCATION=FILE": {"plane": [[a, b, c], ...]} or {"per_pixel": [[...], ...]}, per component.
Status ParseInput(const std::string& text, sim::Frame* frame) {
  const size_t eq = text.find('=');
  sim::Frame::Input input;
  try {
    size_t used = 0;
    input.location = static_cast<uint32_t>(std::stoul(text.substr(0, eq), &used));
    if (eq == std::string::npos || used != eq) throw std::invalid_argument("location");
  } catch (const std::exception&) {
    return Error{ExitCode::kBadInput, "--input '" + text + "': expected LOCATION=FILE"};
  }
  Expected<sim::Frame::Input> loaded = sim::LoadInputFile(text.substr(eq + 1));
  if (!loaded) return loaded.error();
  loaded->location = input.location;
  frame->inputs.push_back(std::move(*loaded));
  return Ok{};
}

std::string PpmOf(const sim::Attachment& a) {
  std::string out = "P6\n" + std::to_string(a.width) + " " + std::to_string(a.height) + "\n255\n";
  for (size_t p = 0; p < static_cast<size_t>(a.width) * a.height; ++p) {
    for (uint32_t c = 0; c < 3; ++c) {
      const double v = c < a.components ? a.values[p * a.components + c] : 0.0;
      out.push_back(
          static_cast<char>(std::lround(std::clamp(std::isnan(v) ? 0.0 : v, 0.0, 1.0) * 255)));
    }
  }
  return out;
}

int Execute(const RunFlags& flags) {
  Expected<sim::Model> model = sim::ParseModel(flags.model);
  if (!model) return Report(model.error());
  sim::RunOptions options;
  options.subgroup_size = flags.subgroup_size;
  options.model = *model;
  options.seed = flags.seed;
  options.max_instructions = flags.max_instructions;
  std::string file = flags.file, entry = flags.entry;
  std::vector<sim::Buffer> inputs;
  sim::Job job;
  const bool from_job = !flags.job.empty();
  if (from_job) {
    Expected<sim::Job> loaded = sim::LoadJob(flags.job);
    if (!loaded) return Report(loaded.error());
    job = std::move(*loaded);
    if (file.empty()) file = job.spv_path;
    if (entry.empty()) entry = job.entry;
    sim::ApplyJob(job, &options);
    inputs = sim::JobBuffers(job);
  } else if (file.empty()) {
    return Report(Error{ExitCode::kBadInput, "run: FILE or --job is required"});
  }
  if (!flags.workgroups.empty()) {
    Expected<std::array<uint32_t, 3>> groups = ParseWorkgroups(flags.workgroups);
    if (!groups) return Report(groups.error());
    options.workgroups = *groups;
  }
  for (const std::string& text : flags.buffers) {
    sim::Buffer buffer;
    std::string path;
    if (!ParseBindingFile(text, &buffer, &path)) {
      return Report(
          Error{ExitCode::kBadInput, "--buffer '" + text + "': expected SET:BINDING=FILE"});
    }
    Expected<std::vector<uint8_t>> bytes = sim::LoadBufferFile(path);
    if (!bytes) return Report(bytes.error());
    buffer.bytes = std::move(*bytes);
    inputs.push_back(std::move(buffer));
  }
  if (!flags.push_constants.empty()) {
    Expected<std::vector<uint8_t>> bytes = sim::LoadBufferFile(flags.push_constants);
    if (!bytes) return Report(bytes.error());
    sim::Buffer pc;
    pc.push_constant = true;
    pc.bytes = std::move(*bytes);
    inputs.push_back(std::move(pc));
  }
  if (!flags.frame.empty()) {
    if (from_job && job.render) {
      return Report(
          Error{ExitCode::kBadInput, "--frame: a render job gives its own width and height"});
    }
    Expected<std::pair<uint32_t, uint32_t>> frame = ParseFrame(flags.frame);
    if (!frame) return Report(frame.error());
    options.frame.width = frame->first;
    options.frame.height = frame->second;
  }
  Status covered = ParseCoverage(flags.coverage, &options.frame);
  if (!covered) return Report(covered.error());
  for (const std::string& text : flags.inputs) {
    Status parsed = ParseInput(text, &options.frame);
    if (!parsed) return Report(parsed.error());
  }
  for (const std::string& text : flags.images) {
    sim::Buffer at;
    std::string path;
    if (!ParseBindingFile(text, &at, &path)) {
      return Report(
          Error{ExitCode::kBadInput, "--image '" + text + "': expected SET:BINDING=FILE"});
    }
    Expected<sim::Image> image = sim::LoadImageFile(path);
    if (!image) return Report(image.error());
    image->set = at.set;
    image->binding = at.binding;
    image->element = at.element;
    options.images.push_back(std::move(*image));
  }
  Expected<Module> module = LoadForAnalysis(file, flags.analysis);
  if (!module) return Report(module.error());
  Expected<std::shared_ptr<const sim::Program>> program =
      sim::Compile(module->ir(), entry, module->name());
  if (!program) return Report(program.error());
  Expected<sim::RunResult> result = sim::Run(**program, inputs, options);
  if (!result) return Report(result.error());

  for (const std::string& text : flags.dumps) {
    sim::Buffer wanted;
    std::string path;
    if (!ParseBindingFile(text, &wanted, &path)) {
      return Report(Error{ExitCode::kBadInput, "--dump '" + text + "': expected SET:BINDING=FILE"});
    }
    const sim::Buffer* found = nullptr;
    for (const sim::Buffer& b : result->buffers) {
      if (b.set == wanted.set && b.binding == wanted.binding && b.element == wanted.element)
        found = &b;
    }
    if (!found) {
      return Report(Error{ExitCode::kBadInput,
                          "--dump " + text + ": the module has no storage buffer there"});
    }
    const bool json = path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    const std::string contents = json ? sim::BufferJson(found->bytes)
                                      : std::string(found->bytes.begin(), found->bytes.end());
    Status written = WriteOutput(path, contents, {file});
    if (!written) return Report(written.error());
  }
  for (const std::string& text : flags.attachment_dumps) {
    const size_t eq = text.find('=');
    const std::string location = text.substr(0, eq);
    const sim::Attachment* found = nullptr;
    for (const sim::Attachment& a : result->attachments) {
      if ((location == "depth" && a.location == -1) ||
          (a.location >= 0 && location == std::to_string(a.location))) {
        found = &a;
      }
    }
    if (eq == std::string::npos || eq + 1 == text.size()) {
      return Report(
          Error{ExitCode::kBadInput, "--dump-attachment '" + text + "': expected LOCATION=FILE"});
    }
    if (!found) {
      return Report(Error{ExitCode::kBadInput, "--dump-attachment " + text +
                                                   ": the fragment shader has no output there"});
    }
    const std::string path = text.substr(eq + 1);
    const bool ppm = path.size() > 4 && path.compare(path.size() - 4, 4, ".ppm") == 0;
    Status written =
        WriteOutput(path, ppm ? PpmOf(*found) : sim::AttachmentJson(*found) + "\n", {file});
    if (!written) return Report(written.error());
  }
  if (from_job && job.render && !job.framebuffer_file.empty()) {
    const std::vector<uint8_t> rgba = sim::Framebuffer(job, *result);
    std::string contents;
    const std::string& path = job.framebuffer_file;
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".ppm") == 0) {
      contents = "P6\n" + std::to_string(job.width) + " " + std::to_string(job.height) + "\n255\n";
      for (size_t p = 0; p < rgba.size(); p += 4)
        contents.append(rgba.begin() + p, rgba.begin() + p + 3);
    } else {
      contents.assign(rgba.begin(), rgba.end());
    }
    Status written = WriteOutput(path, contents, {file});
    if (!written) return Report(written.error());
  }
  const bool stats_json = flags.stats == "json";
  if (flags.stats == "text") std::cerr << sim::StatsText(result->stats);
  std::string out;
  if (from_job || (flags.dumps.empty() && flags.attachment_dumps.empty())) {
    if (!from_job) {
      // The command-line buffers, in the job format's result shape.
      for (const sim::Buffer& b : result->buffers) {
        sim::JobBinding binding;
        binding.set = b.set;
        binding.binding = b.binding;
        if (job.bindings.empty() || job.bindings.back().set != b.set ||
            job.bindings.back().binding != b.binding) {
          job.bindings.push_back(binding);
        }
        job.bindings.back().elements.push_back(b.bytes);
      }
    }
    out = sim::JobResultJson(job, *result, options, stats_json ? &result->stats : nullptr);
  } else if (stats_json) {
    out = sim::StatsJson(result->stats);
  }
  if (!out.empty()) {
    Status written = WriteOutput(flags.output, out, {file});
    if (!written) return Report(written.error());
  }
  return 0;
}

}  // namespace

Command AddRunCommand(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* command = app.add_subcommand(
      "run",
      "Run a GLCompute or Fragment shader or an OpenCL Kernel in the SIMT simulator "
      "(docs/simulator.md) and print the storage buffers (and a fragment shader's attachments) "
      "as vk_runner's result JSON. A fragment shader runs over a frame of pixels in 2x2 quads "
      "(default 16x16, every pixel covered, default inputs and a checkerboard texture for every "
      "image). Exits 1 on a fault of the shader (out-of-bounds access, divergent barrier, "
      "OpUnreachable, deadlock, instruction limit), 2 on bad input or an unsupported "
      "instruction.");
  command->add_option("FILE", flags->file,
                      "Input: SPIR-V binary or assembly, GLSL (optional with --job)");
  command->add_option("-o", flags->output, "Result JSON (default: - for stdout)");
  command->add_option("--job", flags->job,
                      "A vk_runner job (mode compute or render) to run instead of --buffer");
  command->add_option("--workgroups", flags->workgroups,
                      "Workgroups to dispatch: X[,Y[,Z]] (default 1,1,1)");
  command->add_option("--subgroup-size", flags->subgroup_size,
                      "Lanes per subgroup: 4..128, a power of two (default 8)");
  command
      ->add_option("--model", flags->model, "Reconvergence: maximal (default), ipdom, adversarial")
      ->check(CLI::IsMember({"maximal", "ipdom", "adversarial"}));
  command->add_option("--seed", flags->seed, "Adversarial model: the seed of its scheduling order");
  command->add_option("--max-instructions", flags->max_instructions,
                      "Fail after this many issued instructions (default 2^32)");
  command->add_option("--entry", flags->entry,
                      "Entry point name (default: the only GLCompute, Fragment or Kernel one)");
  command->add_option("--buffer", flags->buffers,
                      "SET:BINDING[ELEMENT]=FILE: a buffer's contents, raw bytes or a .json "
                      "{\"u32\"|\"i32\"|\"f32\": [...], \"size\": N}. A Kernel's parameter i "
                      "is 0:i: a global pointer's buffer (dumped like a storage buffer), a local "
                      "pointer's size in bytes, a value's little-endian bytes");
  command->add_option("--push-constants", flags->push_constants,
                      "Push constants: raw bytes or .json");
  command->add_option("--dump", flags->dumps,
                      "SET:BINDING[ELEMENT]=FILE: write a storage buffer after the run (.json: "
                      "{\"u32\": [...]}, else raw)");
  command->add_option("--frame", flags->frame,
                      "Fragment shaders: the frame, WIDTHxHEIGHT pixels (default 16x16)");
  command->add_option("--coverage", flags->coverage,
                      "Fragment shaders: which pixels the primitive covers: full (default), "
                      "triangle (below the diagonal from top right to bottom left) or a .json "
                      "{\"coverage\": [0|1 per pixel]}; uncovered pixels of covered quads run "
                      "as helper invocations");
  command->add_option("--input", flags->inputs,
                      "Fragment shaders: LOCATION=FILE, an interpolated input: .json "
                      "{\"plane\": [[a, b, c] per component]} (a + b*x + c*y at the pixel "
                      "centre) or {\"per_pixel\": [[values] per component]}");
  command->add_option("--image", flags->images,
                      "SET:BINDING[ELEMENT]=FILE: an image or sampler descriptor, .json like an "
                      "element of a vk_runner image binding ({\"width\", \"height\", "
                      "\"format\", \"levels\", \"sampler\"})");
  command->add_option("--dump-attachment", flags->attachment_dumps,
                      "LOCATION=FILE (or depth=FILE): write a fragment output after the run, "
                      ".ppm (RGB, clamped to [0, 1]) or .json");
  command
      ->add_option("--stats", flags->stats,
                   "Statistics: json (in the result JSON) or text (stderr)")
      ->check(CLI::IsMember({"json", "text"}));
  command->add_flag("--skip-validation", flags->analysis.skip_validation,
                    "Run without validating first (e.g. MaximallyReconvergesKHR, which spirv-val "
                    "2023.1 rejects)");
  AddInputFlags(command, &flags->analysis.input);
  return [flags]() { return Execute(*flags); };
}

}  // namespace cli
}  // namespace spirv_conv
