// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the descriptor lowerings (waterfall, descriptor-switch) share: finding
// the accesses to rewrite with everything they are made of, grouping
// consecutive accesses that can share one construct, and rewriting a group:
// split its block, hoist implicit-LOD gradients, re-materialize the accesses
// with new indices inside the control flow the pass builds, and carry their
// results out through Function variables.
//
// An access is the instruction that uses a descriptor (|user|: an image
// instruction, or a load, store, atomic through a buffer pointer) and its
// slice: the values the descriptor flows through from the array to it --
// access chains, the loaded handle, OpSampledImage / OpImage, further access
// chains into the block. The selectors are the access-chain operands that
// pick an element of a descriptor array; the pass decides which it lowers.
//
// A rewrite, for a group whose accesses are the instructions u1 ... un of one
// block B (the region, u1 to un with what lies between them):
//
//   B:     ...before...             B (pre):  ...before...
//          u1                                 gradients of implicit-LOD samples
//          ...                                OpBranch %entry
//          un                ==>    entry:    (the pass's construct header)
//          ...after...                        ... blocks the pass creates, each
//          terminator                         re-materializing the region with
//                                             its own indices and storing the
//                                             region's results to variables ...
//                                   merge:    loads of the variables
//                                             ...after...
//                                             terminator
//
// Results leave through Function variables, never through phis: images and
// samplers cannot be phi'd in logical SPIR-V (SPIRV-Tools #4066), and
// lavapipe (Mesa 22.3) miscompiles a value defined in a waterfall loop and
// used after it (known-traps.md). A region value used after the region
// must therefore be storable; one that is not (a pointer, an image) ends the
// group before it, or fails the pass when it is an access's own result.

#ifndef SOURCE_PASSES_ACCESS_REWRITE_H_
#define SOURCE_PASSES_ACCESS_REWRITE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "passes/descriptor_accesses.h"
#include "passes/explicit_gradients.h"
#include "source/opt/basic_block.h"
#include "source/opt/ir_context.h"
#include "source/opt/pass.h"
#include "spirv_conv/device_profile.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace passes {

// One access-chain operand that picks an element of a descriptor array.
struct Selector {
  spvtools::opt::Instruction* chain = nullptr;
  uint32_t operand = 0;  // in-operand of |chain|
  // The array's element count; 0 when not known at compile time (a runtime
  // array, a specialization-constant length).
  uint32_t length = 0;
  const spvtools::opt::Instruction* variable = nullptr;  // the descriptor array
  DescriptorClass descriptor_class = DescriptorClass::kStorageBuffer;
  Uniformity level = Uniformity::kUniform;  // of the index where |chain| uses it
  bool constant = false;                    // the index is a constant instruction
  bool lowered = false;                     // the pass replaces the index

  // The index now (an earlier rewrite may have replaced its id).
  uint32_t index() const { return chain->GetSingleWordInOperand(operand); }
};

struct Access {
  spvtools::opt::Instruction* user = nullptr;
  // The values from the descriptor array to |user|, in function order (the
  // access chains, loaded handles, OpSampledImage, ...), |user| excluded.
  std::vector<spvtools::opt::Instruction*> slice;
  std::vector<Selector> selectors;  // every selector in |slice|
};

// Consecutive accesses of one block that share one construct: they lower
// the same index ids, what lies between them can move into it (nothing that
// depends on which invocations run together: derivatives, group
// operations, barriers, calls, demote/kill), their indices and implicit-LOD
// coordinates are ready before the first, and what the region leaves to
// later code fits Function variables.
struct AccessGroup {
  std::vector<Access> members;  // in block order
};

// What a pass lowers.
class AccessRewriter;

struct LoweringRequest {
  const char* pass = "";
  DescriptorClassSet classes;
  // Whether the pass replaces the index of |selector| (whose class is in
  // |classes|).
  std::function<bool(const Selector&)> lower;
  // The pass needs the element count of every lowered selector's array.
  bool needs_length = false;
};

// Every access with at least one lowered selector, in module order. Fails
// (naming the access) when one cannot be re-materialized: its descriptor
// comes through a function parameter, a phi or a select; an implicit-LOD
// sample whose gradients cannot be taken; an implicit-derivative
// instruction without an explicit form (OpImageQueryLod) whose lowered index
// is not quad-uniform; an array of unknown length when |needs_length|.
Expected<std::vector<Access>> CollectAccesses(spvtools::opt::IRContext* context,
                                              const DescriptorAccesses& found,
                                              const LoweringRequest& request);

// |accesses| (from CollectAccesses) in groups: each group the longest run
// of accesses from its first that can share a construct (AccessGroup).
// Fails when an access's own result cannot leave the construct through a
// variable.
Expected<std::vector<AccessGroup>> GroupAccesses(spvtools::opt::IRContext* context,
                                                 const DescriptorAccesses& found,
                                                 std::vector<Access> accesses, const char* pass);

// The body both lowering passes share: analyses |pass|'s IR, collects and
// groups the accesses |request| selects, and if there are any, calls
// |prepare| once and then |emit| for each group with its prepared rewriter
// (after recording |action| in |options|.log for each member); removes the
// left-overs and the capabilities nothing needs. Returns the pass's status;
// a failure is reported to the pass's consumer.
spvtools::opt::Pass::Status LowerAccesses(spvtools::opt::Pass& pass,
                                          const NonUniformPassOptions& options,
                                          const LoweringRequest& request, const char* action,
                                          const std::function<void()>& prepare,
                                          const std::function<void(AccessRewriter*)>& emit);

// "descriptor array tex" / "descriptor arrays textures, samplers": the
// arrays whose selectors |access| lowers, for the change log.
std::string LoweredArrays(spvtools::opt::IRContext* context, const Access& access);

// The originals a rewrite leaves behind: slice instructions outside the
// rewritten regions (still used by other accesses, or dead) and same-block
// values re-created next to their users. Removes the dead ones at the end.
class LeftOvers {
 public:
  void Add(uint32_t id) { candidates_.push_back(id); }
  // Kills every candidate no instruction uses any more (names and
  // decorations do not count), repeatedly. (Ids, not pointers: a candidate
  // may be killed by a later rewrite, and ids are never reused.)
  void RemoveDead(spvtools::opt::IRContext* context);

 private:
  std::vector<uint32_t> candidates_;
};

// Rewrites one group (see the sketch at the top). Use: Prepare; create the
// construct's blocks with NewBlock, filling them through Materialize and
// your own instructions (the entry block too); Finish; InsertBlocks.
class AccessRewriter {
 public:
  AccessRewriter(spvtools::opt::IRContext* context, const AccessGroup& group,
                 LeftOvers* left_overs);

  // Splits the block around the region (and a loop header first, so that its
  // OpLoopMerge stays with its phis), hoists the gradients of implicit-LOD
  // samples to the end of the block before, and creates a Function variable
  // for each region value used after the region.
  void Prepare();

  spvtools::opt::BasicBlock* pre() const { return pre_; }
  // The construct's first block: the pass appends its header instructions
  // (before or after Finish, which removes the region from it).
  spvtools::opt::BasicBlock* entry() const { return entry_; }
  spvtools::opt::BasicBlock* merge() const { return merge_; }

  // The distinct lowered index ids of the group, in order of first use, and
  // for each the smallest element count of the arrays it selects in.
  const std::vector<uint32_t>& indices() const { return indices_; }
  const std::vector<uint32_t>& lengths() const { return lengths_; }

  // A new block, laid out (InsertBlocks) after the entry block in creation
  // order, before the merge block.
  spvtools::opt::BasicBlock* NewBlock();

  // Appends to |block| a copy of the group's slices and region in which every
  // lowered selector whose index is a key of |values| uses the mapped id
  // instead, implicit-LOD samples use the hoisted gradients, and the region's
  // values used after it are stored to their variables. |block| gets no
  // terminator.
  void Materialize(spvtools::opt::BasicBlock* block,
                   const std::unordered_map<uint32_t, uint32_t>& values);

  // Loads the variables at the start of the merge block in place of the
  // region's values, and removes the region.
  void Finish();

  // Lays out the blocks NewBlock created.
  void InsertBlocks();

 private:
  void PeelLoopHeader();
  void Split();
  void HoistGradients();
  void CreateResultVariables();

  spvtools::opt::IRContext* context_;
  const AccessGroup& group_;
  LeftOvers* left_overs_;

  spvtools::opt::BasicBlock* block_ = nullptr;
  spvtools::opt::BasicBlock* pre_ = nullptr;
  spvtools::opt::BasicBlock* entry_ = nullptr;
  spvtools::opt::BasicBlock* merge_ = nullptr;
  std::vector<spvtools::opt::Instruction*> region_;
  std::unordered_set<const spvtools::opt::Instruction*> in_region_;
  std::vector<spvtools::opt::Instruction*> outside_slice_;  // function order
  // The lowered operands of each access chain, and the instructions whose
  // copies drop NonUniform (every non-uniform selector of their accesses is
  // lowered).
  std::unordered_map<const spvtools::opt::Instruction*, std::vector<uint32_t>> lowered_operands_;
  std::unordered_set<const spvtools::opt::Instruction*> drop_non_uniform_;
  std::unordered_map<const spvtools::opt::Instruction*, Gradients> gradients_;
  struct Result {
    spvtools::opt::Instruction* value;
    uint32_t variable;
  };
  std::vector<Result> results_;
  std::vector<uint32_t> indices_;
  std::vector<uint32_t> lengths_;
  std::vector<std::unique_ptr<spvtools::opt::BasicBlock>> new_blocks_;
};

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_ACCESS_REWRITE_H_
