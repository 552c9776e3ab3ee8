// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// ExpandOptimizerFlags: spirv-opt flags -> one flag per pass, so the guarded
// optimizer can check each pass on its own. SPIRV-Tools' own registration is
// the source of truth for what -O and -Os contain: a pass's name() is its
// flag (checked by registering it again), so no pass list is copied here.

#include <string>
#include <vector>

#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/guarded_optimizer.h"

namespace spirv_conv {
namespace {

// The passes whose name() is not their flag (SPIRV-Tools 2023.1).
std::string FlagOfPassName(const std::string& name) {
  if (name == "interp-fixup") return "--interpolate-fixup";
  return "--" + name;
}

// The names of the passes |flag| registers; false when spirv-opt rejects it.
bool RegisteredPasses(const std::string& flag, spv_target_env target_env,
                      std::vector<std::string>* names) {
  spvtools::Optimizer optimizer(target_env);
  optimizer.SetMessageConsumer(
      [](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  if (!optimizer.FlagHasValidForm(flag) || !optimizer.RegisterPassFromFlag(flag)) return false;
  for (const char* name : optimizer.GetPassNames()) names->push_back(name);
  return true;
}

}  // namespace

Expected<std::vector<std::string>> ExpandOptimizerFlags(const std::vector<std::string>& flags,
                                                        spv_target_env target_env) {
  std::vector<std::string> single;
  for (const std::string& flag : flags) {
    std::vector<std::string> names;
    if (!RegisteredPasses(flag, target_env, &names)) {
      return Error{ExitCode::kBadInput, "'" + flag + "' is not a spirv-opt pass flag"};
    }
    if (names.empty()) {
      return Error{ExitCode::kBadInput, "'" + flag + "' runs no spirv-opt pass"};
    }
    if (names.size() == 1) {
      single.push_back(flag);
      continue;
    }
    for (const std::string& name : names) {
      std::vector<std::string> again;
      const std::string pass_flag = FlagOfPassName(name);
      if (!RegisteredPasses(pass_flag, target_env, &again) || again.size() != 1) {
        return Error{ExitCode::kBadInput, "'" + flag + "' contains the pass '" + name +
                                              "', which cannot be run on its own"};
      }
      single.push_back(pass_flag);
    }
  }
  return single;
}

}  // namespace spirv_conv
