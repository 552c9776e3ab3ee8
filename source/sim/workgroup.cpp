// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// One workgroup: its memory and built-ins, its subgroups, and the loop that
// runs their tangles until every invocation has returned. A workgroup-scope
// OpControlBarrier parks a tangle; when nothing else can run, the barrier is
// released if every invocation of the workgroup waits at that same barrier,
// and is an error otherwise (some returned, or wait elsewhere: divergent).

#include "sim/workgroup.h"

#include <algorithm>
#include <cstring>

#include "sim/fragment.h"
#include "sim/scheduler.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

std::string Position(const Machine& m, const Tangle& t) {
  const Function& f = m.program.functions[t.function];
  return "function " + f.name + ", block %" + std::to_string(f.blocks[t.block].id);
}

// The value of built-in |builtin| for lane |lane| of |sg|, one integer per component
// (stored at the declared width: 32 or 64 bits, size_t in Kernel modules).
bool BuiltinValue(const Machine& m, const Subgroup& sg, uint32_t lane, uint32_t builtin,
                  std::vector<uint64_t>* out) {
  const auto& size = m.program.local_size;
  const uint32_t count = size[0] * size[1] * size[2];
  const uint32_t index = sg.first_invocation + lane;
  const uint64_t local[3] = {index % size[0], (index / size[0]) % size[1],
                             index / (size[0] * size[1])};
  const uint32_t s = m.lanes_per_subgroup;
  const auto& groups = m.options.workgroups;
  uint64_t global[3], global_size[3];
  for (int i = 0; i < 3; ++i) {
    global[i] = static_cast<uint64_t>(m.workgroup_id[i]) * size[i] + local[i];
    global_size[i] = static_cast<uint64_t>(groups[i]) * size[i];
  }
  auto mask = [&](auto keep) {
    LaneMask bits;
    for (uint32_t l = 0; l < s; ++l) {
      if (keep(l)) bits.Set(l);
    }
    *out = {bits.word[0] & 0xFFFFFFFFu, bits.word[0] >> 32, bits.word[1] & 0xFFFFFFFFu,
            bits.word[1] >> 32};
  };
  switch (static_cast<spv::BuiltIn>(builtin)) {
    case spv::BuiltIn::LocalInvocationId:
      *out = {local[0], local[1], local[2]};
      break;
    case spv::BuiltIn::GlobalInvocationId:
      *out = {global[0], global[1], global[2]};
      break;
    case spv::BuiltIn::GlobalSize:
      *out = {global_size[0], global_size[1], global_size[2]};
      break;
    case spv::BuiltIn::GlobalOffset:
      *out = {0, 0, 0};
      break;
    case spv::BuiltIn::GlobalLinearId:
      *out = {(global[2] * global_size[1] + global[1]) * global_size[0] + global[0]};
      break;
    case spv::BuiltIn::EnqueuedWorkgroupSize:
      *out = {size[0], size[1], size[2]};
      break;
    case spv::BuiltIn::SubgroupMaxSize:
      *out = {s};
      break;
    case spv::BuiltIn::NumEnqueuedSubgroups:
      *out = {(count + s - 1) / s};
      break;
    case spv::BuiltIn::WorkgroupId:
      *out = {m.workgroup_id[0], m.workgroup_id[1], m.workgroup_id[2]};
      break;
    case spv::BuiltIn::NumWorkgroups:
      *out = {groups[0], groups[1], groups[2]};
      break;
    case spv::BuiltIn::WorkgroupSize:
      *out = {size[0], size[1], size[2]};
      break;
    case spv::BuiltIn::LocalInvocationIndex:
      *out = {index};
      break;
    case spv::BuiltIn::SubgroupSize:  // OpenCL: the lanes of this subgroup (the last may be
                                      // partial)
      *out = {m.program.kernel ? sg.lanes.Count() : s};
      break;
    case spv::BuiltIn::SubgroupLocalInvocationId:
      *out = {lane};
      break;
    case spv::BuiltIn::SubgroupId:
      *out = {sg.index};
      break;
    case spv::BuiltIn::NumSubgroups:
      *out = {(count + s - 1) / s};
      break;
    case spv::BuiltIn::SubgroupEqMask:
      mask([&](uint32_t l) { return l == lane; });
      break;
    case spv::BuiltIn::SubgroupGeMask:
      mask([&](uint32_t l) { return l >= lane; });
      break;
    case spv::BuiltIn::SubgroupGtMask:
      mask([&](uint32_t l) { return l > lane; });
      break;
    case spv::BuiltIn::SubgroupLeMask:
      mask([&](uint32_t l) { return l <= lane; });
      break;
    case spv::BuiltIn::SubgroupLtMask:
      mask([&](uint32_t l) { return l < lane; });
      break;
    default:
      return false;
  }
  return true;
}

}  // namespace

bool Workgroup::Setup() {
  const Program& p = m_.program;
  const uint32_t count = m_.invocation_count, s = m_.lanes_per_subgroup;
  std::fill(m_.workgroup_memory.begin(), m_.workgroup_memory.end(), 0);
  std::fill(m_.invocation_memory.begin(), m_.invocation_memory.end(), 0);
  const uint32_t subgroups = (count + s - 1) / s;
  subgroups_.resize(subgroups);
  for (uint32_t i = 0; i < subgroups; ++i) {
    Subgroup& sg = subgroups_[i];
    sg.index = i;
    sg.first_invocation = i * s;
    sg.lanes = LaneMask::FirstN(std::min(s, count - i * s));
    sg.exited = LaneMask();
    sg.terminated = LaneMask();
    sg.helpers = LaneMask();
    for (uint32_t lane = 0; p.fragment && lane < sg.lanes.Count(); ++lane) {
      if (!m_.pixels[sg.first_invocation + lane].covered) sg.helpers.Set(lane);
    }
    sg.runnable.clear();
    sg.at_barrier.clear();
    sg.records.clear();
    sg.free_records.clear();
    sg.regs.resize(static_cast<size_t>(p.num_slots) * s);
    for (const auto& [slot, value] : p.constants) {
      std::fill_n(m_.Reg(sg, slot), s, value);
    }
    for (const Global& g : p.globals) {
      uint64_t* reg = m_.Reg(sg, g.slot);
      const auto storage = static_cast<spv::StorageClass>(g.storage_class);
      for (uint32_t lane = 0; lane < s; ++lane) {
        if (g.resource != kNone) {
          reg[lane] = MakePointer(m_.resource_region[g.resource], 0);
        } else if (storage == spv::StorageClass::UniformConstant && p.kernel) {
          reg[lane] = MakePointer(kConstantRegion, g.offset);
        } else if (storage == spv::StorageClass::Workgroup) {
          reg[lane] = MakePointer(0, g.offset);
        } else {
          const uint32_t region = m_.InvocationRegion(sg, std::min(lane, sg.lanes.Count() - 1));
          reg[lane] = MakePointer(region, g.offset);
        }
      }
      // Initial values: built-ins, initializers.
      const Layout& l = p.layouts[g.layout];
      const bool per_invocation = storage == spv::StorageClass::Private ||
                                  storage == spv::StorageClass::Input ||
                                  storage == spv::StorageClass::Output;
      if (per_invocation) {
        for (uint32_t lane = 0; lane < sg.lanes.Count(); ++lane) {
          uint8_t* bytes = m_.regions[reg[lane] >> kRegionShift].data + g.offset;
          if (g.location != kNone && storage == spv::StorageClass::Input) {
            InterpolatedInput(m_, g, sg.first_invocation + lane, bytes);
          } else if (g.builtin != kNone) {
            std::vector<uint64_t> value;
            const bool known =
                p.fragment ? FragmentBuiltin(m_, sg.first_invocation + lane, g.builtin, &value) ||
                                 BuiltinValue(m_, sg, lane, g.builtin, &value)
                           : BuiltinValue(m_, sg, lane, g.builtin, &value);
            if (!known || value.size() != l.comp_offset.size()) {
              return m_.Fail(ExitCode::kBadInput, p.name + ": simulator: unsupported built-in " +
                                                      std::to_string(g.builtin));
            }
            for (size_t c = 0; c < value.size(); ++c) {
              std::memcpy(bytes + l.comp_offset[c], &value[c], l.comp_bytes[c]);
            }
          } else if (g.initializer != kNone) {
            for (size_t c = 0; c < l.comp_offset.size(); ++c) {
              const uint64_t v = m_.Reg(sg, g.initializer + static_cast<uint32_t>(c))[lane];
              std::memcpy(bytes + l.comp_offset[c], &v, l.comp_bytes[c]);
            }
          }
        }
      } else if (storage == spv::StorageClass::Workgroup && g.initializer != kNone && i == 0) {
        for (size_t c = 0; c < l.comp_offset.size(); ++c) {
          const uint64_t v = m_.Reg(sg, g.initializer + static_cast<uint32_t>(c))[0];
          std::memcpy(m_.workgroup_memory.data() + g.offset + l.comp_offset[c], &v,
                      l.comp_bytes[c]);
        }
      }
    }
    if (p.kernel) SetKernelArguments(m_, sg);
    scheduler_.Start(sg);
  }
  return true;
}

bool Workgroup::ReleaseBarrier() {
  const Tangle* first = nullptr;
  for (Subgroup& sg : subgroups_) {
    if (!first && !sg.at_barrier.empty()) first = &sg.at_barrier.front();
  }
  for (Subgroup& sg : subgroups_) {
    LaneMask waiting;
    for (const Tangle& t : sg.at_barrier) {
      waiting |= t.lanes;
      if (t.function != first->function || t.inst != first->inst) {
        return m_.Fail(ExitCode::kFindings,
                       m_.program.name + ": invocations wait at different barriers (" +
                           Position(m_, *first) + " and " + Position(m_, t) + ")");
      }
    }
    if (waiting != sg.lanes) {
      const Tangle& at = *first;
      const std::string why = sg.exited.Any() ? "some invocations of the workgroup returned"
                                              : "some invocations of the workgroup wait elsewhere";
      return m_.Fail(ExitCode::kFindings, m_.program.name +
                                              ": barrier not reached by every invocation of the "
                                              "workgroup (divergent barrier: " +
                                              why + "; " + Position(m_, at) + ")");
    }
  }
  for (Subgroup& sg : subgroups_) {
    for (const Tangle& t : sg.at_barrier) sg.runnable.push_back(t);
    sg.at_barrier.clear();
  }
  ++m_.barriers;
  return true;
}

bool Workgroup::Run() {
  if (!Setup()) return false;
  const bool adversarial = m_.options.model == Model::kAdversarial;
  while (true) {
    if (adversarial) {
      // Any runnable tangle of any subgroup, for a seeded slice.
      std::vector<Subgroup*> ready;
      for (Subgroup& sg : subgroups_) {
        if (!sg.runnable.empty()) ready.push_back(&sg);
      }
      if (!ready.empty()) {
        Subgroup& sg = *ready[m_.rng() % ready.size()];
        const size_t pick = m_.rng() % sg.runnable.size();
        const Tangle t = sg.runnable[pick];
        sg.runnable.erase(sg.runnable.begin() + static_cast<std::ptrdiff_t>(pick));
        if (!scheduler_.RunTangle(sg, t, 1 + m_.rng() % 16)) return false;
        continue;
      }
    } else {
      for (Subgroup& sg : subgroups_) {
        while (!sg.runnable.empty()) {
          const Tangle t = sg.runnable.front();
          sg.runnable.pop_front();
          if (!scheduler_.RunTangle(sg, t, ~0ull)) return false;
        }
      }
    }
    bool barrier = false, done = true;
    for (const Subgroup& sg : subgroups_) {
      barrier = barrier || !sg.at_barrier.empty();
      done = done && sg.exited == sg.lanes;
    }
    if (done) {
      for (const Subgroup& sg : subgroups_) {
        for (uint32_t lane = 0; m_.program.fragment && lane < sg.lanes.Count(); ++lane) {
          m_.ended_as_helper[sg.first_invocation + lane] = sg.helpers.Test(lane);
          m_.ended_terminated[sg.first_invocation + lane] = sg.terminated.Test(lane);
        }
      }
      return true;
    }
    if (barrier) {
      if (!ReleaseBarrier()) return false;
      continue;
    }
    // Nothing can run, nobody waits at a barrier, and not everyone returned.
    for (const Subgroup& sg : subgroups_) {
      for (const Record& r : sg.records) {
        if (r.at_merge.Empty() && r.at_continue.Empty()) continue;
        const Function& f = m_.program.functions[r.function];
        const uint32_t block = r.at_continue.Any() ? r.continue_target : r.merge;
        return m_.Fail(ExitCode::kFindings,
                       m_.program.name + ": deadlock: invocations wait in function " + f.name +
                           " at block %" + std::to_string(f.blocks[block].id) +
                           " for invocations that never arrive (" + ModelName(m_.options.model) +
                           " model; unstructured control flow needs --model ipdom)");
      }
    }
    return m_.Fail(ExitCode::kInternalError, m_.program.name + ": simulator deadlock");
  }
}

}  // namespace sim
}  // namespace spirv_conv
