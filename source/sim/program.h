// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The pre-decoded form of a module that the simulator executes. Decoding
// (decode.cpp) walks the optimizer IR once; execution never touches
// spvtools::opt again. Every SSA value owns a run of register slots, one per
// scalar component of its flattened type (a vec3 is 3 slots, a struct of a
// float and a uvec2 is 3); a subgroup's register file holds each slot once per
// lane (struct of arrays: slot-major, lane-minor).

#ifndef SOURCE_SIM_PROGRAM_H_
#define SOURCE_SIM_PROGRAM_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scalar.h"

namespace spirv_conv {
namespace sim {

constexpr uint32_t kNone = 0xFFFFFFFFu;

// Inst::aux of image instructions: the image's SPIR-V Dim and these flags.
constexpr uint32_t kImageArrayed = 0x100, kImageDref = 0x200;

enum class ScalarKind : uint8_t { kNone, kBool, kInt, kFloat, kPointer };

// A type, with its flattening into scalar components.
struct TypeInfo {
  enum Kind : uint8_t {
    kUnknown,
    kVoid,
    kBool,
    kInt,
    kFloat,
    kVector,
    kMatrix,
    kArray,
    kRuntimeArray,
    kStruct,
    kPointer,
    kFunction,
    kOpaque
  };
  Kind kind = kUnknown;
  uint32_t comps = 0;                     // flattened scalar components
  ScalarKind scalar = ScalarKind::kNone;  // component kind of scalars, vectors, matrices
  uint8_t width = 0;                      // component width in bits
  uint32_t element = kNone;               // vector/matrix/array element type
  uint32_t length = 0;                    // vector/matrix/array element count
  std::vector<uint32_t> members;          // struct member types
  std::vector<uint32_t> member_first;     // first component of each member
  uint32_t storage_class = 0;             // pointers
  uint32_t pointee = kNone;               // pointers
  bool is_signed = false;                 // integers, and vectors of them
};

// How a type lies in memory: byte offsets of every flattened component, and
// for access chains the layout of each element or member.
struct Layout {
  uint32_t type = kNone;
  uint32_t size = 0;         // bytes (the fixed part for a struct ending in a runtime array)
  uint32_t stride = 0;       // array element stride, vector component stride, matrix column stride
  uint32_t length = 0;       // array/vector/matrix element count; 0 for runtime arrays
  bool runtime = false;      // a runtime array, or a struct ending in one
  uint32_t element = kNone;  // layout of an element/column/component
  std::vector<uint32_t> member_offset;  // structs
  std::vector<uint32_t> member_layout;  // structs
  std::vector<uint32_t> comp_offset;    // per flattened component
  std::vector<uint8_t> comp_bytes;      // per flattened component
  uint32_t descriptors = 0;             // >0: an array of that many descriptors (regions)
  uint32_t align = 1;                   // Kernel modules: OpenCL's natural alignment
};

// Which code executes an instruction.
enum class Family : uint8_t {
  kNop,
  kArith,
  kConvert,
  kComposite,
  kMatrix,
  kVariable,
  kLoad,
  kStore,
  kAccessChain,
  kCopyMemory,
  kArrayLength,
  kAtomic,
  kGlsl,
  kOpenCL,   // OpenCL.std instructions without a GLSL.std.450 twin (those decode as kGlsl)
  kPointer,  // physical pointers: OpConvertPtrToU/UToPtr, generic casts, bitcasts, OpPtrEqual...
  kSubgroup,
  kFragment,  // derivatives, OpDemoteToHelperInvocation, OpIsHelperInvocationEXT
  kImage,     // OpSampledImage, OpImage, sampling, fetches, reads, writes, queries
  kKill,      // OpKill, OpTerminateInvocation: the invocation ends
  kBarrier,
  kBranch,
  kBranchConditional,
  kSwitch,
  kReturn,
  kReturnValue,
  kCall,
  kUnreachable,
  kUnsupported
};

struct Inst {
  uint16_t opcode = 0;
  Family family = Family::kNop;
  ScalarKind kind = ScalarKind::kNone;  // result component kind
  uint8_t width = 0;                    // result component width
  uint8_t op_width = 0;                 // first value operand's component width
  ScalarKind op_kind = ScalarKind::kNone;
  uint16_t num_ops = 0;
  uint32_t result = kNone;  // first result slot
  uint32_t comps = 0;       // result components
  uint32_t ops = 0;         // first entry in Function::operands
  uint32_t aux = 0;         // family-specific: extended opcode, layout, callee, ...
  uint32_t id = 0;          // result id, for messages
};

struct PhiMove {
  uint32_t dst = 0;
  uint32_t src = 0;
  uint32_t comps = 0;
};

struct Edge {
  uint32_t successor = 0;  // block index
  uint32_t moves_begin = 0, moves_end = 0;
};

struct Block {
  uint32_t id = 0;
  uint32_t first = 0, end = 0;  // instructions [first, end); end - 1 is the terminator
  uint32_t merge = kNone;       // OpSelectionMerge / OpLoopMerge merge block index
  uint32_t continue_target = kNone;
  bool loop_header = false;
  uint32_t ipdom = kNone;  // immediate post-dominator (kNone: the function's exit)
  std::vector<Edge> edges;
};

struct Function {
  uint32_t id = 0;
  std::string name;
  std::vector<Block> blocks;
  std::vector<Inst> insts;
  std::vector<uint32_t> operands;
  std::vector<PhiMove> moves;
  std::vector<uint32_t> params;  // parameter slots
  std::vector<uint32_t> param_comps;
  std::vector<uint32_t> param_ids;
  uint32_t stats_base = 0;  // index of the first block in the statistics tables
};

// A module-scope variable.
struct Global {
  uint32_t id = 0;
  uint32_t storage_class = 0;
  uint32_t slot = kNone;
  uint32_t layout = kNone;
  uint32_t offset = 0;           // within the invocation or workgroup memory
  uint32_t initializer = kNone;  // slot
  uint32_t resource = kNone;     // index into Program::resources
  uint32_t builtin = kNone;
  // Fragment interface variables with a Location (inputs interpolated, outputs
  // read back): its location and first component.
  uint32_t location = kNone;
  uint32_t component = 0;
};

// What a Kernel entry point's parameter is (kernel_args.cpp); parameter i is set 0, binding i.
enum class KernelArgument : uint8_t {
  kNone,      // a descriptor or the push constants
  kGlobal,    // a CrossWorkgroup pointer: a region holding the buffer (read back)
  kConstant,  // a UniformConstant pointer: a region holding the buffer (not read back)
  kLocal,     // a Workgroup pointer: a zero-filled region per workgroup, as long as the buffer
  kByval,     // a Function pointer (byval aggregate): a copy in each invocation's memory
  kValue,     // a scalar, vector or struct: its value from the buffer's bytes
};

// A descriptor binding or the push-constant block the module declares.
struct Resource {
  uint32_t set = 0, binding = 0;
  uint32_t count = 1;  // descriptor array size (0: runtime array, taken from the inputs)
  bool push_constant = false;
  bool storage = false;     // StorageBuffer / BufferBlock (results are read back)
  uint32_t layout = kNone;  // of one block (kernel pointers: of the pointee)
  uint32_t variable = 0;    // the variable, or the kernel's OpFunctionParameter
  KernelArgument argument = KernelArgument::kNone;
  uint32_t offset = 0;  // kByval: where the copy lies in each invocation's memory
  // UniformConstant images and samplers: each descriptor is a region holding
  // its handle (exec_image.cpp); |layout| is the handle's.
  bool image = false;
  bool sampler = false;
  uint8_t image_shape = 0;  // Image::Shape
  bool image_arrayed = false;
  bool image_integer = false;
  bool subpass = false;  // SubpassData: read at the fragment's own pixel
};

class Program {
 public:
  std::string name;
  std::string entry;
  std::vector<TypeInfo> types;  // by id
  std::vector<Layout> layouts;
  std::vector<Function> functions;  // functions[0] is the entry point
  std::vector<Global> globals;
  std::vector<Resource> resources;
  uint32_t num_slots = 0;
  std::vector<std::pair<uint32_t, uint64_t>> constants;  // slot, value (the same in every lane)
  uint32_t invocation_bytes = 0;  // Private, Input and Function variables of one invocation
  uint32_t workgroup_bytes = 0;
  uint32_t constant_bytes = 0;  // Kernel modules: UniformConstant variables (region 1)
  std::array<uint32_t, 3> local_size{1, 1, 1};
  uint32_t num_blocks = 0;          // over all functions
  bool kernel = false;              // a Kernel entry point (OpenCL)
  bool fragment = false;            // a Fragment entry point
  bool require_full_quads = false;  // RequireFullQuadsKHR: helpers take part in every group op
  FloatControls float_controls;     // the entry point's DenormFlushToZero modes
  uint32_t address_bits = 0;        // Physical32/64: 32 or 64 (size_t); Logical: 0
};

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_PROGRAM_H_
