// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The passes that rewrite descriptor-array accesses by the uniformity of
// their index (docs/passes.md). Each is an spvtools::opt::Pass with one job,
// so it also runs inside a SPIRV-Tools pass pipeline:
//
//   fix-nonuniform      NonUniform on the resource operand (and the values
//                       leading to it) of every access whose index is not
//                       subgroup-uniform; the capabilities and extension
//   strip-nonuniform    NonUniform removed where every index is uniform; the
//                       capabilities and extension nothing needs any more
//   waterfall           each non-uniform access in a loop over the distinct
//                       indices of the subgroup (OpGroupNonUniformBroadcastFirst)
//   descriptor-switch   each access with a non-constant index in an OpSwitch
//                       over the array's elements, with constant indices
//
// The lowerings take implicit-LOD sampling's derivatives before the new
// control flow and sample with explicit gradients inside it. Every pass asks
// the uniformity analysis (uniformity.h) about the IR as it is when it runs.
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_NONUNIFORM_PASSES_H_
#define INCLUDE_SPIRV_CONV_NONUNIFORM_PASSES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "source/opt/pass.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/device_profile.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

// One change a pass made, for `spirv-conv opt --report` (docs/passes.md).
struct PassChange {
  std::string pass;    // the pass's name, e.g. "fix-nonuniform"
  std::string action;  // "decorate", "undecorate", "add-capability", "remove-capability",
                       // "add-extension", "remove-extension", "waterfall", "descriptor-switch"
  uint32_t id = 0;     // the id decorated, or the result id of the access rewritten (0: none)
  std::string opcode;  // the opcode of |id|'s instruction ("OpAccessChain"), or ""
  std::string detail;  // what else a reader needs: a capability, the descriptor array, ...
  std::string file;    // where |id| comes from in the source, when the module has OpLine
  uint32_t line = 0;
};
using ChangeLog = std::vector<PassChange>;

struct NonUniformPassOptions {
  UniformityOptions uniformity;
  // The descriptor classes whose accesses the pass rewrites.
  DescriptorClassSet classes = AllDescriptorClasses();
  // Where the pass records what it changed; may be null.
  ChangeLog* log = nullptr;
};

// The base of the four passes: options, and the analysis error path.
class NonUniformPass : public spvtools::opt::Pass {
 public:
  explicit NonUniformPass(const NonUniformPassOptions& options) : options_(options) {}

 protected:
  const NonUniformPassOptions& options() const { return options_; }

 private:
  NonUniformPassOptions options_;
};

class FixNonUniformPass : public NonUniformPass {
 public:
  using NonUniformPass::NonUniformPass;
  const char* name() const override { return "fix-nonuniform"; }
  Status Process() override;
};

class StripNonUniformPass : public NonUniformPass {
 public:
  using NonUniformPass::NonUniformPass;
  const char* name() const override { return "strip-nonuniform"; }
  Status Process() override;
};

class WaterfallPass : public NonUniformPass {
 public:
  using NonUniformPass::NonUniformPass;
  const char* name() const override { return "waterfall"; }
  Status Process() override;
};

class DescriptorSwitchPass : public NonUniformPass {
 public:
  using NonUniformPass::NonUniformPass;
  const char* name() const override { return "descriptor-switch"; }
  Status Process() override;
};

// The pass called |name| ("fix-nonuniform", "strip-nonuniform", "waterfall",
// "descriptor-switch"; the NonUniform rows of spirv_conv/pass_registry.h),
// or null.
std::unique_ptr<NonUniformPass> CreateNonUniformPass(const std::string& name,
                                                     const NonUniformPassOptions& options);
// Tokens for spvtools::Optimizer::RegisterPass.
spvtools::Optimizer::PassToken CreateFixNonUniformPassToken(const NonUniformPassOptions& options);
spvtools::Optimizer::PassToken CreateStripNonUniformPassToken(const NonUniformPassOptions& options);
spvtools::Optimizer::PassToken CreateWaterfallPassToken(const NonUniformPassOptions& options);
spvtools::Optimizer::PassToken CreateDescriptorSwitchPassToken(
    const NonUniformPassOptions& options);

// The passes `--lower-nonuniform --device` runs for |device|, in order:
// descriptor-switch for the classes the device indexes with constants only,
// waterfall for those it indexes dynamically but not non-uniformly,
// fix-nonuniform for those it indexes non-uniformly.
std::vector<std::unique_ptr<NonUniformPass>> LowerNonUniformPasses(
    const DeviceProfile& device, const NonUniformPassOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_NONUNIFORM_PASSES_H_
