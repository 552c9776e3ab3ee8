// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The run-time state of one dispatch: memory regions, subgroups with their
// register files, tangles and reconvergence records, and the counters the
// statistics come from.
//
// A *tangle* is a set of lanes of one subgroup executing the same dynamic
// instance of an instruction: it has one position (function, block,
// instruction). A *record* is a place where lanes that split may meet again:
// a selection's merge block, a loop's continue target and merge block, the
// immediate post-dominator of a divergent branch (ipdom model), the return of
// a call. Records form a stack per tangle (each points to its parent); lanes
// that branch to an enclosing record's block *escape* the records above it.

#ifndef SOURCE_SIM_MACHINE_H_
#define SOURCE_SIM_MACHINE_H_

#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "sim/lanes.h"
#include "sim/program.h"
#include "spirv_conv/sim.h"
#include "spirv_conv/status.h"

namespace spirv_conv {
namespace sim {

// A pointer is (region << kRegionShift) | byte offset.
constexpr uint32_t kRegionShift = 40;
constexpr uint64_t kOffsetMask = (1ull << kRegionShift) - 1;
inline uint64_t MakePointer(uint64_t region, uint64_t offset) {
  return region << kRegionShift | offset;
}
// |p| moved by |bytes| within its region: offsets wrap within their 40 bits
// (OpPtrAccessChain may step before a region and back; an access there is out of bounds).
inline uint64_t AddToPointer(uint64_t p, uint64_t bytes) {
  return (p & ~kOffsetMask) | ((p + bytes) & kOffsetMask);
}
// The null pointer of Kernel modules (OpConstantNull, OpConvertUToPtr of 0): no region.
constexpr uint64_t kNullRegion = (1ull << (64 - kRegionShift)) - 1;
constexpr uint64_t kNullPointer = kNullRegion << kRegionShift;
// Region 1 holds the UniformConstant variables of Kernel modules (empty otherwise).
constexpr uint32_t kConstantRegion = 1;

struct Region {
  uint8_t* data = nullptr;
  uint64_t size = 0;
  std::string name;           // for messages: "buffer 0:1[0]", "workgroup memory", ...
  uint32_t resource = kNone;  // descriptors: the resource they belong to
};

struct Record {
  enum Kind : uint8_t { kSelection, kLoop, kIpdom, kCall, kInvocation };
  Kind kind = kSelection;
  uint32_t function = 0;
  uint32_t merge = kNone;  // block where the lanes meet (selection, loop, ipdom)
  uint32_t continue_target = kNone;
  uint32_t header = kNone;  // loops
  LaneMask in_flight;       // lanes still executing inside the construct
  LaneMask at_merge, at_continue;
  bool reconverge = true;  // adversarial: entered by the whole (non-exited) subgroup
  bool escaped = false;    // adversarial: some lanes left another way
  std::vector<LaneMask> parts_merge, parts_continue;  // adversarial: arrivals kept apart
  int parent = -1;
  // kCall: where the caller resumes and the slots of the result.
  uint32_t ret_function = 0, ret_block = 0, ret_inst = 0, ret_slot = kNone, ret_comps = 0;
};

struct Tangle {
  LaneMask lanes;
  uint32_t function = 0, block = 0, inst = 0;
  int record = -1;  // the innermost record
};

struct Subgroup {
  uint32_t index = 0;
  uint32_t first_invocation = 0;  // local invocation index of lane 0
  LaneMask lanes;                 // lanes that exist (the last subgroup may be partial)
  LaneMask exited;
  LaneMask helpers;     // fragment: helper invocations (uncovered pixels, demoted lanes)
  LaneMask terminated;  // fragment: ended by OpKill / OpTerminateInvocation
  std::vector<uint64_t> regs;
  std::deque<Tangle> runnable;
  std::vector<Tangle> at_barrier;
  std::vector<Record> records;
  std::vector<int> free_records;

  LaneMask Live() const { return lanes.Without(exited); }
  int NewRecord(const Record& r);
  void FreeRecord(int record) { free_records.push_back(record); }
};

// A fragment invocation's pixel.
struct Pixel {
  uint32_t x = 0, y = 0;
  bool covered = false;  // false: a helper invocation from the start
};

class Machine {
 public:
  Machine(const Program& program, const RunOptions& options);

  // Invocations of one workgroup (fragment: of the whole frame, quad by quad).
  uint32_t invocation_count = 0;
  std::vector<Pixel> pixels;  // fragment: per invocation
  // Fragment, after the run: per invocation.
  std::vector<uint8_t> ended_as_helper, ended_terminated;
  // Image and sampler descriptors (exec_image.cpp); storage images are written in place.
  std::vector<Image> images;
  // (function, instruction) -> invocations given an undefined derivative.
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> undefined_derivatives;
  uint64_t demoted = 0;

  const Program& program;
  const RunOptions options;
  const uint32_t lanes_per_subgroup;

  std::vector<Region> regions;  // [0] workgroup memory, [1] constants, descriptors, invocations
  uint32_t invocation_region_base = 0;
  std::vector<uint32_t> resource_region;      // first region of each resource
  std::vector<std::vector<uint8_t>> buffers;  // the descriptors' bytes
  std::vector<uint8_t> workgroup_memory, invocation_memory, constant_memory;
  std::vector<uint64_t> region_address;  // physical addressing: each region's integer address
  std::vector<uint64_t> barrier_count;   // per invocation of the workgroup
  std::array<uint32_t, 3> workgroup_id{0, 0, 0};
  std::mt19937_64 rng;

  // Statistics.
  uint64_t issued = 0, active_lanes = 0, barriers = 0;
  std::vector<uint64_t> tangle_sizes;
  std::vector<uint64_t> block_issued, block_lanes, block_entries, block_visits;

  std::optional<Error> error;

  uint64_t* Reg(Subgroup& sg, uint32_t slot) {
    return sg.regs.data() + static_cast<size_t>(slot) * lanes_per_subgroup;
  }
  uint32_t InvocationRegion(const Subgroup& sg, uint32_t lane) const {
    return invocation_region_base + sg.first_invocation + lane;
  }
  // Records the first error and returns false.
  bool Fail(ExitCode code, const std::string& message);
};

// Where an instruction executes, for the executors and their messages.
struct Exec {
  Machine& m;
  Subgroup& sg;
  const Function& f;
  const Inst& inst;
  const LaneMask& lanes;
  uint32_t block;

  uint64_t* R(uint32_t slot) const { return m.Reg(sg, slot); }
  uint32_t Op(uint32_t i) const { return f.operands[inst.ops + i]; }
  std::string Where() const;
  bool Fault(const std::string& what) const;        // kFindings: the shader's fault
  bool Unsupported(const std::string& what) const;  // kBadInput
};

// d = f(a) on the raw bits of the one operand, per component and lane.
template <typename F>
void Map1(const Exec& e, F f) {
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* a = e.R(e.Op(0) + c);
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) { d[l] = f(a[l]); });
  }
}

// The executors, one per family (exec_*.cpp, glsl_std450.cpp, subgroup_ops.cpp).
bool ExecArith(const Exec& e);
bool ExecConvert(const Exec& e);
bool ExecComposite(const Exec& e);
bool ExecMatrix(const Exec& e);
bool ExecMemory(const Exec& e);  // variables, loads, stores, access chains, copies, lengths
bool ExecAtomic(const Exec& e);
bool ExecGlsl(const Exec& e);
bool ExecGlslParts(const Exec& e);  // Determinant, MatrixInverse, Modf*, Frexp*
bool ExecOpenCL(const Exec& e);     // opencl_std.cpp
bool ExecPointer(const Exec& e);    // physical_pointers.cpp
bool ExecSubgroup(const Exec& e);
bool ExecFragment(const Exec& e);  // exec_fragment.cpp
bool ExecImage(const Exec& e);     // exec_image.cpp

// exec_fragment.cpp: a lane of the tangle reads quad neighbours that are not in
// it (an undefined derivative); called once per such lane and instruction.
void CountUndefinedDerivative(const Exec& e);
// The derivative of register |slot| (floats of |width| bits) at |lane| along x
// or y, fine (its own row or column) or coarse (the quad's top row, left
// column); false, and 0, when that pair of lanes is not in the tangle.
enum class Axis : uint8_t { kX, kY };
// The two lanes whose difference is |lane|'s derivative along |axis|: (from, to).
std::pair<uint32_t, uint32_t> QuadPair(uint32_t lane, Axis axis, bool fine);
bool QuadDifference(const Exec& e, uint32_t slot, uint32_t lane, Axis axis, bool fine,
                    uint32_t width, double* out);
// The four lanes of |lane|'s quad are in the tangle.
inline bool QuadComplete(const LaneMask& lanes, uint32_t lane) {
  const uint32_t base = lane & ~3u;
  return lanes.Test(base) && lanes.Test(base + 1) && lanes.Test(base + 2) && lanes.Test(base + 3);
}
// The handle an image descriptor region holds (exec_image.cpp): image index + 1
// in the low word, sampler index + 1 in the high word, 0 for none.
uint64_t ImageHandle(uint32_t image, uint32_t sampler);
// The bytes of an image or sampler descriptor region: its handle; appends the
// descriptor's Image (from the options, else DefaultImage) to m.images.
std::vector<uint8_t> ImageDescriptor(Machine& m, const Resource& res, uint32_t element);

// physical_pointers.cpp: the integer address of every region (Machine::region_address).
bool AssignAddresses(Machine& m);
// kernel_args.cpp: a Kernel's parameters in |sg|'s registers (and byval copies in its
// invocations' memory); the first subgroup also zero-fills the local-memory arguments.
void SetKernelArguments(Machine& m, Subgroup& sg);
// The bytes of a resource's region: |given| (null: the inputs lack it) or |fixed_size|
// zeros; kernel arguments as docs/simulator.md says ("Kernel modules").
std::vector<uint8_t> InitialBytes(const Resource& res, const std::vector<uint8_t>* given,
                                  uint32_t fixed_size);
// The UniformConstant variables' initial values in the constant region.
void FillConstantMemory(Machine& m);

// A store or atomic of helper lane |lane| to a descriptor (buffer, image):
// it has no effect (Vulkan, "Helper Invocations").
inline bool IgnoredHelperWrite(const Exec& e, uint64_t pointer, uint32_t lane) {
  if (!e.sg.helpers.Test(lane)) return false;
  const uint64_t region = pointer >> kRegionShift;
  return region < e.m.regions.size() && e.m.regions[region].resource != kNone;
}

// memory.cpp: loads and stores of a whole layout at a pointer, bounds-checked.
bool LoadValue(const Exec& e, uint32_t layout, uint64_t pointer, uint32_t lane, uint64_t* dst,
               uint32_t dst_stride);
bool StoreValue(const Exec& e, uint32_t layout, uint64_t pointer, uint32_t lane,
                const uint64_t* src, uint32_t src_stride);
// The bytes at |pointer| for |size| bytes, or null after a fault.
uint8_t* Address(const Exec& e, uint64_t pointer, uint64_t size);

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_MACHINE_H_
