// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The whole pipeline for one module: load -> validate input -> build IR ->
// passes -> emit -> validate output. Nothing is written here: the caller
// writes the result only when this returns a value.

#ifndef INCLUDE_SPIRV_CONV_PIPELINE_H_
#define INCLUDE_SPIRV_CONV_PIPELINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spirv_conv/device_profile.h"
#include "spirv_conv/fast_forward_pass.h"
#include "spirv_conv/guarded_optimizer.h"
#include "spirv_conv/load.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/reconverge_pass.h"
#include "spirv_conv/status.h"
#include "spirv_conv/structurize_pass.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {

struct PipelineOptions {
  ValidatorFlags validator;
  // Do not validate the input (spirv-opt --skip-validation). The output is
  // validated regardless: spirv-conv never emits a module spirv-val rejects.
  bool skip_input_validation = false;
  // The passes, in this order: names of the pass registry's NonUniform and
  // control-flow passes ("fix-nonuniform", "structurize";
  // spirv_conv/pass_registry.h) and spirv-opt single-pass flags
  // ("--merge-return"; ExpandOptimizerFlags), which run under the motion
  // guard (RunGuardedOptimizer), consecutive ones in one guarded run.
  // "structurize" rebuilds the control flow as structured constructs
  // (StructurizeBinary) and "reconverge" applies predicated reconvergence
  // where |reconverge_policy| says, then structurizes (ReconvergeBinary).
  // When one of them comes first, the input may break the structured
  // control-flow rules of spirv-val (and only those:
  // IsStructuredControlFlowError).
  std::vector<std::string> passes;
  ReconvergePolicy reconverge_policy = ReconvergePolicy::kWhereItPays;
  // "fast-forward-loops": loop fast-forwarding with these options, then the
  // structurizer (FastForwardBinary); its decisions go to the caller's log.
  FastForwardOptions fast_forward;
  // How the guard runs the spirv-opt flags of |passes|: strict, isolation,
  // the motion checker's options. Its |flags| are set from |passes| (leave
  // them empty); |validator| and |validate_each_pass| from the fields above.
  GuardedOptimizerOptions optimizer;
  // --lower-nonuniform --device: the passes LowerNonUniformPasses chooses
  // for this device, run before the first NonUniform pass of |passes| (after
  // them all when there is none).
  std::optional<DeviceProfile> lower_for;
  // The options every NonUniform pass gets (its log is the caller's |log|).
  NonUniformPassOptions nonuniform;
};

// Runs |binary| through the pipeline and returns the validated output words;
// what the NonUniform passes changed is appended to |log|, what each spirv-opt
// pass did to |optimizer_log| (both may be null). Errors: kBadInput (input
// invalid or unparsable, or a pass cannot rewrite it), kFindings (a spirv-opt
// pass rolled back under |optimizer.strict|), kInvalidOutput (the result
// failed validation).
Expected<std::vector<uint32_t>> RunPipeline(
    const SpirvBinary& binary, const PipelineOptions& options, ChangeLog* log = nullptr,
    std::vector<OptimizerPassResult>* optimizer_log = nullptr);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_PIPELINE_H_
