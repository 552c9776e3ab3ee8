// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The convergence-safe optimizer (docs/motion.md#spirv-conv-opt--o): runs
// SPIRV-Tools passes (spirv-opt flags, -O and -Os expanded into their
// passes) through the public spvtools::Optimizer API, all at once, and
// checks the output against the input with CheckMotion. When that fails
// it runs them one at a time, checks each pass's output against its input,
// and rolls back a pass that breaks a convergence rule: the next pass
// starts from the module before it.

#ifndef INCLUDE_SPIRV_CONV_GUARDED_OPTIMIZER_H_
#define INCLUDE_SPIRV_CONV_GUARDED_OPTIMIZER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spirv_conv/lint.h"
#include "spirv_conv/load.h"
#include "spirv_conv/motion.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

// Splits spirv-opt flags into flags of single passes: "-O", "-Os" and
// "--legalize-hlsl" become the passes SPIRV-Tools registers for them (as
// spvtools::Optimizer::GetPassNames lists them, e.g. "--scalar-replacement=100");
// any other flag must register exactly one pass. Errors (kBadInput) name the
// flag spirv-opt does not know.
Expected<std::vector<std::string>> ExpandOptimizerFlags(const std::vector<std::string>& flags,
                                                        spv_target_env target_env);

// What happened to one pass.
struct OptimizerPassResult {
  enum class Outcome {
    kUnchanged,   // the pass changed no word
    kKept,        // it changed the module and the change is legal
    kRolledBack,  // its output was discarded (see |reason| and |findings|)
    kApplied,     // it ran in the whole sequence, whose output was checked at once
  };
  std::string flag;  // the single-pass flag, e.g. "--merge-blocks"
  Outcome outcome = Outcome::kUnchanged;
  // For kRolledBack: "breaks a convergence rule", or why the output could not
  // be used (the pass failed, its output fails validation or cannot be analysed).
  std::string reason;
  std::vector<Finding> findings;  // the motion violations, located in the discarded output
  double pass_ms = 0;             // running the pass (SPIRV-Tools parse, pass, serialize)
  double check_ms = 0;            // building the IR of the output, validating and checking it
};

const char* OutcomeName(OptimizerPassResult::Outcome outcome);

struct GuardedOptimizerOptions {
  std::vector<std::string> flags;  // single-pass flags (ExpandOptimizerFlags)
  // Stop at the first rolled-back pass with an error (kFindings) instead.
  bool strict = false;
  // Validate each changed output (rolling back a pass whose output is
  // invalid). Off when the input itself was not validated.
  bool validate_each_pass = true;
  ValidatorFlags validator;
  MotionOptions motion;
  // Run the passes in a child process (StartOptimizerWorker), so that a
  // pass that crashes is rolled back instead of ending the process.
  bool isolate_passes = true;
  // Check each pass on its own from the start, instead of the whole
  // sequence first (and each pass only when that check fails).
  bool check_each_pass = false;
};

// The optimized module, and its IR (kept for later passes of the pipeline).
struct GuardedOptimizerResult {
  std::vector<uint32_t> words;
  std::unique_ptr<spvtools::opt::IRContext> context;
};

// Starts the child process in which RunGuardedOptimizer runs the passes
// under |isolate_passes|, now: a fork is cheap while the process has
// loaded little, and the same child then serves every run (it is forked
// again only after a pass crashed it). Optional; the first isolated run
// starts it otherwise. Call it before loading modules.
void StartOptimizerWorker();

// Runs |options.flags| over |binary| (valid unless the caller chose not to
// validate it). Per-pass results are appended to |passes| (may be null).
// Errors: kFindings under |strict|, kBadInput when the input cannot be
// analysed.
Expected<GuardedOptimizerResult> RunGuardedOptimizer(const SpirvBinary& binary,
                                                     const GuardedOptimizerOptions& options,
                                                     std::vector<OptimizerPassResult>* passes);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_GUARDED_OPTIMIZER_H_
