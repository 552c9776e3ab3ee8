// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "report/module_position.h"

namespace spirv_conv {
namespace report {

std::string ModulePosition(const Location& at) {
  std::string where;
  if (!at.function.empty()) where += "in function '" + at.function + "'";
  if (!at.block.empty()) where += std::string(where.empty() ? "in" : ",") + " block " + at.block;
  if (!at.instruction.empty()) where += (where.empty() ? "" : ": ") + at.instruction;
  return where;
}

}  // namespace report
}  // namespace spirv_conv
