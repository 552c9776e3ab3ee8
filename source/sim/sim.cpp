// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The public entry points (include/spirv_conv/sim.h): decoding a module,
// setting up the memory of a dispatch, running its workgroups one after the
// other, and reading back the storage buffers.

#include "spirv_conv/sim.h"

#include <algorithm>

#include "sim/decoder.h"
#include "sim/fragment.h"
#include "sim/machine.h"
#include "sim/workgroup.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

const char* ModelName(Model model) {
  switch (model) {
    case Model::kMaximal:
      return "maximal";
    case Model::kIpdom:
      return "ipdom";
    case Model::kAdversarial:
      return "adversarial";
  }
  return "?";
}

Expected<Model> ParseModel(const std::string& name) {
  for (Model m : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
    if (name == ModelName(m)) return m;
  }
  return MakeError(ExitCode::kBadInput, "",
                   "unknown model '" + name + "' (maximal, ipdom, adversarial)");
}

double Stats::SimtEfficiency() const {
  return issued ? static_cast<double>(active_lanes) / (static_cast<double>(issued) * subgroup_size)
                : 0;
}

Machine::Machine(const Program& p, const RunOptions& o)
    : program(p), options(o), lanes_per_subgroup(o.subgroup_size), rng(o.seed) {
  tangle_sizes.assign(lanes_per_subgroup + 1, 0);
  block_issued.assign(p.num_blocks, 0);
  block_lanes.assign(p.num_blocks, 0);
  block_entries.assign(p.num_blocks, 0);
  block_visits.assign(p.num_blocks, 0);
}

bool Machine::Fail(ExitCode code, const std::string& message) {
  if (!error) error = Error{code, message};
  return false;
}

std::string Exec::Where() const {
  return "Op" + std::string(spvOpcodeString(static_cast<spv::Op>(inst.opcode))) +
         (inst.id ? " %" + std::to_string(inst.id) : std::string()) + " in function " + f.name +
         ", block %" + std::to_string(f.blocks[block].id);
}

bool Exec::Fault(const std::string& what) const {
  return m.Fail(ExitCode::kFindings, m.program.name + ": " + what + " (" + Where() + ")");
}

bool Exec::Unsupported(const std::string& what) const {
  return m.Fail(ExitCode::kBadInput,
                m.program.name + ": simulator: unsupported " + what + " (" + Where() + ")");
}

Expected<std::shared_ptr<const Program>> Compile(spvtools::opt::IRContext& context,
                                                 const std::string& entry,
                                                 const std::string& name) {
  auto program = std::make_shared<Program>();
  program->name = name;
  Decoder decoder(context, program.get());
  uint32_t entry_function = 0;
  for (const auto& ep : context.module()->entry_points()) {
    const std::string ep_name = ep.GetOperand(2).AsString();
    if (!entry.empty() && ep_name != entry) continue;
    const auto model = static_cast<spv::ExecutionModel>(ep.GetSingleWordInOperand(0));
    if (model != spv::ExecutionModel::GLCompute && model != spv::ExecutionModel::Kernel &&
        model != spv::ExecutionModel::Fragment) {
      continue;
    }
    if (entry_function) {
      return MakeError(
          ExitCode::kBadInput, name,
          "several GLCompute, Fragment or Kernel entry points: choose one with --entry");
    }
    entry_function = ep.GetSingleWordInOperand(1);
    program->entry = ep_name;
    program->kernel = model == spv::ExecutionModel::Kernel;
    program->fragment = model == spv::ExecutionModel::Fragment;
  }
  if (!entry_function) {
    return MakeError(ExitCode::kBadInput, name,
                     entry.empty()
                         ? "no GLCompute, Fragment or Kernel entry point"
                         : "no GLCompute, Fragment or Kernel entry point named '" + entry + "'");
  }
  if (const auto* memory_model = context.module()->GetMemoryModel()) {
    const uint32_t addressing = memory_model->GetSingleWordInOperand(0);
    if (addressing == uint32_t(spv::AddressingModel::Physical32)) program->address_bits = 32;
    if (addressing == uint32_t(spv::AddressingModel::Physical64)) program->address_bits = 64;
  }
  for (const auto& inst : context.module()->ext_inst_imports()) {
    const std::string set = inst.GetInOperand(0).AsString();
    if (set == "GLSL.std.450") decoder.glsl_import = inst.result_id();
    if (set == "OpenCL.std") decoder.opencl_import = inst.result_id();
  }
  Status decoded = decoder.DecodeTypes();
  if (decoded) decoded = decoder.DecodeConstants();
  if (decoded) decoded = decoder.DecodeGlobals(entry_function);
  if (decoded && program->kernel) decoded = decoder.DecodeKernelArguments(entry_function);
  if (decoded) decoded = decoder.DecodeFunctions(entry_function);
  if (!decoded) return decoded.error();
  return std::shared_ptr<const Program>(std::move(program));
}

std::vector<ResourceInfo> Resources(const Program& program) {
  std::vector<ResourceInfo> out;
  for (const Resource& r : program.resources) {
    const Layout& l = program.layouts[r.layout];
    ResourceInfo info{r.set, r.binding, r.count, r.push_constant, r.storage, l.size, l.runtime};
    info.image = r.image;
    info.sampler = r.sampler;
    if (r.argument != KernelArgument::kNone) {
      info.kernel_argument = true;
      info.local_memory = r.argument == KernelArgument::kLocal;
      if (r.argument != KernelArgument::kValue && r.argument != KernelArgument::kByval) {
        info.size = 0;  // a pointer: as many bytes as the buffer given
        info.runtime_array = true;
      }
    }
    out.push_back(info);
  }
  return out;
}

std::array<uint32_t, 3> LocalSize(const Program& program) { return program.local_size; }

bool IsFragment(const Program& program) { return program.fragment; }

namespace {

// The program's float controls for the arithmetic of one run (scalar.h).
class FloatControlsScope {
 public:
  explicit FloatControlsScope(const FloatControls& controls) : saved_(ActiveFloatControls()) {
    ActiveFloatControls() = controls;
  }
  ~FloatControlsScope() { ActiveFloatControls() = saved_; }
  FloatControlsScope(const FloatControlsScope&) = delete;
  FloatControlsScope& operator=(const FloatControlsScope&) = delete;

 private:
  FloatControls saved_;
};

// Fragment shaders run with defaults: runtime descriptor arrays and runtime
// arrays in buffers get this many elements when the inputs give none.
constexpr uint32_t kDefaultDescriptors = 16, kDefaultRuntimeElements = 64;

// The bytes of a buffer the inputs do not give: its block's fixed part, and
// for fragment shaders kDefaultRuntimeElements of a trailing runtime array.
uint32_t DefaultSize(const Program& p, const Resource& res) {
  const Layout& l = p.layouts[res.layout];
  if (!p.fragment || !l.runtime || l.member_layout.empty()) return l.size;
  const Layout& last = p.layouts[l.member_layout.back()];
  return l.member_offset.back() + kDefaultRuntimeElements * last.stride;
}

}  // namespace

Expected<RunResult> Run(const Program& p, const std::vector<Buffer>& inputs,
                        const RunOptions& options) {
  const FloatControlsScope float_controls(p.float_controls);
  const uint32_t s = options.subgroup_size;
  if (s < 4 || s > kMaxSubgroupSize || (s & (s - 1)) != 0) {
    return MakeError(ExitCode::kBadInput, "", "subgroup size must be a power of two in [4, 128]");
  }
  for (uint32_t n : options.workgroups) {
    if (n == 0) return MakeError(ExitCode::kBadInput, "", "workgroup counts must be at least 1");
  }
  Machine m(p, options);
  if (p.fragment) {
    Status frame = PlaceFragments(m);
    if (!frame) return frame.error();
  } else {
    const uint64_t size =
        static_cast<uint64_t>(p.local_size[0]) * p.local_size[1] * p.local_size[2];
    if (size == 0 || size > 65536) {
      return MakeError(ExitCode::kBadInput, p.name,
                       "workgroup size must be in [1, 65536] invocations");
    }
    m.invocation_count = static_cast<uint32_t>(size);
  }
  const uint64_t count = m.invocation_count;
  // Regions: workgroup memory, constant memory, every descriptor (and kernel argument),
  // then one per invocation.
  m.workgroup_memory.assign(p.workgroup_bytes, 0);
  m.regions.push_back({m.workgroup_memory.data(), p.workgroup_bytes, "workgroup memory"});
  m.constant_memory.assign(p.constant_bytes, 0);
  m.regions.push_back({m.constant_memory.data(), p.constant_bytes, "constant memory"});
  struct Placed {
    uint32_t resource, element;
  };
  std::vector<Placed> placed;
  std::vector<uint32_t> storage_images;  // indices into m.images
  for (uint32_t r = 0; r < p.resources.size(); ++r) {
    const Resource& res = p.resources[r];
    uint32_t elements = res.count;
    if (elements == 0) {  // a runtime descriptor array: as many as the inputs give
      for (const Buffer& b : inputs) {
        if (!b.push_constant && b.set == res.set && b.binding == res.binding) {
          elements = std::max(elements, b.element + 1);
        }
      }
      // A fragment shader run with defaults (docs/simulator.md) gets 16 descriptors.
      elements = std::max(elements, p.fragment ? kDefaultDescriptors : 1u);
    }
    for (uint32_t e = 0; e < elements; ++e) placed.push_back({r, e});
  }
  m.buffers.reserve(placed.size());
  m.resource_region.assign(p.resources.size(), 0);
  for (const Placed& at : placed) {
    const Resource& res = p.resources[at.resource];
    const Buffer* given = nullptr;
    for (const Buffer& b : inputs) {
      const bool match = res.push_constant
                             ? b.push_constant
                             : !b.push_constant && b.set == res.set && b.binding == res.binding &&
                                   b.element == at.element;
      if (match) given = &b;
    }
    std::vector<uint8_t> bytes =
        res.image || res.sampler
            ? ImageDescriptor(m, res, at.element)
            : InitialBytes(res, given ? &given->bytes : nullptr, DefaultSize(p, res));
    if (res.image && res.storage)
      storage_images.push_back(static_cast<uint32_t>(m.images.size() - 1));
    m.buffers.push_back(std::move(bytes));
    if (at.element == 0) m.resource_region[at.resource] = static_cast<uint32_t>(m.regions.size());
    const std::string name = res.push_constant
                                 ? std::string("push constants")
                                 : (res.image || res.sampler ? "descriptor " : "buffer ") +
                                       std::to_string(res.set) + ":" + std::to_string(res.binding) +
                                       "[" + std::to_string(at.element) + "]";
    m.regions.push_back({m.buffers.back().data(), m.buffers.back().size(), name, at.resource});
  }
  m.invocation_region_base = static_cast<uint32_t>(m.regions.size());
  m.invocation_memory.assign(count * p.invocation_bytes, 0);
  for (uint64_t i = 0; i < count; ++i) {
    m.regions.push_back({m.invocation_memory.data() + i * p.invocation_bytes, p.invocation_bytes,
                         "the private memory of invocation " + std::to_string(i)});
  }
  FillConstantMemory(m);
  if (m.error) return *m.error;  // an image input that does not fit its descriptor
  if (p.address_bits && !AssignAddresses(m)) return *m.error;
  Workgroup workgroup(m);
  const std::array<uint32_t, 3> groups =
      p.fragment ? std::array<uint32_t, 3>{1, 1, 1} : options.workgroups;
  for (uint32_t z = 0; z < groups[2]; ++z) {
    for (uint32_t y = 0; y < groups[1]; ++y) {
      for (uint32_t x = 0; x < groups[0]; ++x) {
        m.workgroup_id = {x, y, z};
        if (!workgroup.Run()) return *m.error;
      }
    }
  }
  RunResult result;
  for (size_t i = 0; i < placed.size(); ++i) {
    const Resource& res = p.resources[placed[i].resource];
    if (!res.storage || res.push_constant || res.image) continue;
    Buffer b;
    b.set = res.set;
    b.binding = res.binding;
    b.element = placed[i].element;
    b.bytes = m.buffers[i];
    result.buffers.push_back(std::move(b));
  }
  for (uint32_t index : storage_images) result.images.push_back(m.images[index]);
  Stats& st = result.stats;
  st.model = ModelName(options.model);
  st.subgroup_size = s;
  st.workgroups = groups;
  st.workgroup_size = p.fragment ? std::array<uint32_t, 3>{m.invocation_count, 1, 1} : p.local_size;
  const uint64_t group_count = static_cast<uint64_t>(groups[0]) * groups[1] * groups[2];
  st.invocations = group_count * count;
  st.subgroups = group_count * ((count + s - 1) / s);
  st.fragment = p.fragment;
  if (p.fragment) {
    ReadAttachments(m, &result);
    for (const Pixel& px : m.pixels) st.helper_invocations += !px.covered;
    for (uint8_t t : m.ended_terminated) st.terminated += t;
    st.demoted = m.demoted;
    for (const auto& [at, n] : m.undefined_derivatives) {
      const Function& f = p.functions[at.first];
      uint32_t block = 0;
      while (block + 1 < f.blocks.size() && f.blocks[block].end <= at.second) ++block;
      const Inst& inst = f.insts[at.second];
      st.undefined_derivatives.push_back({f.name, f.blocks[block].id, inst.id,
                                          spvOpcodeString(static_cast<spv::Op>(inst.opcode)), n});
    }
  }
  st.issued = m.issued;
  st.active_lanes = m.active_lanes;
  st.tangle_sizes = m.tangle_sizes;
  st.barriers = m.barriers;
  for (const Function& f : p.functions) {
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      const uint64_t issued = m.block_issued[f.stats_base + b];
      if (issued)
        st.blocks.push_back({f.name, f.blocks[b].id, issued, m.block_lanes[f.stats_base + b],
                             m.block_entries[f.stats_base + b], m.block_visits[f.stats_base + b]});
    }
  }
  return result;
}

}  // namespace sim
}  // namespace spirv_conv
