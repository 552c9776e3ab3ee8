// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/validate.h"

#include <string>

#include "io/maximal_reconvergence.h"
#include "io/message_capture.h"
#include "io/newer_spirv.h"
#include "io/quad_control.h"
#include "spirv-tools/libspirv.hpp"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace {

spvtools::ValidatorOptions ToValidatorOptions(const ValidatorFlags& flags) {
  spvtools::ValidatorOptions options;
  options.SetRelaxBlockLayout(flags.relax_block_layout);
  options.SetUniformBufferStandardLayout(flags.uniform_buffer_standard_layout);
  options.SetScalarBlockLayout(flags.scalar_block_layout);
  options.SetWorkgroupScalarBlockLayout(flags.workgroup_scalar_block_layout);
  options.SetSkipBlockLayout(flags.skip_block_layout);
  options.SetRelaxLogicalPointer(flags.relax_logical_pointer);
  options.SetRelaxStructStore(flags.relax_struct_store);
  options.SetBeforeHlslLegalization(flags.before_hlsl_legalization);
  options.SetAllowLocalSizeId(flags.allow_localsizeid);
  return options;
}

// The verdict alone: no friendly names, no messages kept.
bool Accepts(const spvtools::SpirvTools& tools, const std::vector<uint32_t>& words,
             const ValidatorFlags& flags) {
  spvtools::ValidatorOptions options = ToValidatorOptions(flags);
  options.SetFriendlyNames(false);
  return tools.Validate(words.data(), words.size(), options);
}

// For a module rejected for its block layout (spirv-val's "... must follow
// standard storage buffer layout rules: member 1 ..."): the least relaxation
// of spirv-val's that accepts it, as "; --scalar-block-layout accepts it", or
// nothing when none does.
std::string LayoutHint(spvtools::SpirvTools& tools, const std::vector<uint32_t>& words,
                       const ValidatorFlags& flags) {
  struct Relaxation {
    const char* flag;
    bool ValidatorFlags::*member;
  };
  // From the least to the most permissive.
  static const Relaxation kRelaxations[] = {
      {"--relax-block-layout", &ValidatorFlags::relax_block_layout},
      {"--uniform-buffer-standard-layout", &ValidatorFlags::uniform_buffer_standard_layout},
      {"--scalar-block-layout", &ValidatorFlags::scalar_block_layout},
      {"--workgroup-scalar-block-layout", &ValidatorFlags::workgroup_scalar_block_layout},
  };
  tools.SetMessageConsumer(
      [](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  for (const Relaxation& relaxation : kRelaxations) {
    if (flags.*relaxation.member) continue;
    ValidatorFlags relaxed = flags;
    relaxed.*relaxation.member = true;
    if (Accepts(tools, words, relaxed)) return std::string("; ") + relaxation.flag + " accepts it";
  }
  // Scalar layout in storage buffers and in workgroup blocks at once.
  if (!flags.scalar_block_layout && !flags.workgroup_scalar_block_layout) {
    ValidatorFlags relaxed = flags;
    relaxed.scalar_block_layout = true;
    relaxed.workgroup_scalar_block_layout = true;
    if (Accepts(tools, words, relaxed)) {
      return "; --scalar-block-layout --workgroup-scalar-block-layout accept it";
    }
  }
  return "";
}

bool IsLayoutRejection(const std::string& reason) {
  return reason.find(" layout rules: member ") != std::string::npos;
}

// A module the validator cannot judge because its parser stops at an
// enumerant or instruction newer than the bundled SPIRV-Tools.
std::string DescribeNewerSpirv(spvtools::SpirvTools& tools, const io::NewerSpirvScan& scan,
                               const ValidatorFlags& flags) {
  std::string what = io::BundledSpirvTools() + " does not know " + io::DescribeAll(scan.All());
  if (scan.blocking) {
    return what + ", so spirv-conv cannot load the module (not even with --skip-validation)";
  }
  const bool one = scan.dropped.size() == 1;
  if (!scan.other_error.empty()) {
    return what + ", and without " + (one ? "it" : "them") +
           " the module does not parse: " + scan.other_error;
  }
  const std::string without = one ? "that declaration" : "those declarations";
  io::MessageCapture errors;
  tools.SetMessageConsumer(errors.Consumer());
  spvtools::ValidatorOptions options = ToValidatorOptions(flags);
  if (tools.Validate(scan.words.data(), scan.words.size(), options)) {
    return what + "; the rest of the module is valid, and --skip-validation analyses it without " +
           without;
  }
  return what + "; --skip-validation analyses the module without " + without +
         ", but spirv-val rejects the rest too: " + errors.First("rejected by the validator");
}

}  // namespace

Status ValidateSpirv(const std::vector<uint32_t>& words, spv_target_env env,
                     const ValidatorFlags& flags, const std::string& name, ExitCode failure_code) {
  spvtools::SpirvTools tools(env);
  // The validator's friendly names (for its messages) cost SPIRV-Tools
  // 2023.1 a string stream per id, which dominates validating a large
  // module. The verdict does not depend on them, so a module is first
  // validated without; only one it rejects is validated again with them,
  // for the message.
  io::MessageCapture quick_errors;
  tools.SetMessageConsumer(quick_errors.Consumer());
  spvtools::ValidatorOptions quick = ToValidatorOptions(flags);
  quick.SetFriendlyNames(false);
  std::string reason;
  if (!tools.Validate(words.data(), words.size(), quick)) {
    // A module from a newer toolchain is not known to be invalid: the
    // validator cannot judge it (exit 2 from `validate` too, not 1).
    const ExitCode cannot_judge =
        failure_code == ExitCode::kFindings ? ExitCode::kBadInput : failure_code;
    const std::string cannot_validate = "cannot validate for " + TargetEnvName(env) + ": ";
    io::NewerSpirvScan scan = io::ScanForNewerSpirv(words, env);
    if (scan.FoundNewer()) {
      return MakeError(cannot_judge, name,
                       cannot_validate + DescribeNewerSpirv(tools, scan, flags));
    }
    io::MessageCapture errors;
    tools.SetMessageConsumer(errors.Consumer());
    const bool accepted = tools.Validate(words.data(), words.size(), ToValidatorOptions(flags));
    // (Accepted with names would be a validator bug: the first message stands.)
    reason = (accepted ? quick_errors : errors).First("rejected by the validator");
    if (IsLayoutRejection(reason)) reason += LayoutHint(tools, words, flags);
    // An extension the validator does not know may allow what it rejects
    // (SPV_KHR_compute_shader_derivatives, say, for capabilities it knows
    // only from SPV_NV_compute_shader_derivatives).
    const std::vector<std::string> extensions = io::UnknownExtensions(words);
    if (!extensions.empty()) {
      std::string list;
      for (size_t i = 0; i < extensions.size(); ++i) {
        if (i > 0) list += i + 1 == extensions.size() ? " and " : ", ";
        list += extensions[i];
      }
      return MakeError(cannot_judge, name,
                       cannot_validate + io::BundledSpirvTools() + " does not know extension" +
                           (extensions.size() == 1 ? " " : "s ") + list +
                           ", which may allow what it rejects: " + reason);
    }
  } else {
    // Rules spirv-val 2023.1 does not know (io/maximal_reconvergence.h,
    // io/quad_control.h).
    reason = io::FindMaximalReconvergenceViolation(words, env);
    if (reason.empty()) reason = io::FindQuadControlViolation(words, env);
  }
  if (reason.empty()) return Ok{};
  return MakeError(failure_code, name, "invalid SPIR-V for " + TargetEnvName(env) + ": " + reason);
}

}  // namespace spirv_conv
