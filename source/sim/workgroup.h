// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#ifndef SOURCE_SIM_WORKGROUP_H_
#define SOURCE_SIM_WORKGROUP_H_

#include <vector>

#include "sim/machine.h"
#include "sim/scheduler.h"

namespace spirv_conv {
namespace sim {

// Runs the workgroup m.workgroup_id to completion (workgroup.cpp).
class Workgroup {
 public:
  explicit Workgroup(Machine& m) : m_(m), scheduler_(m) {}
  bool Run();

 private:
  bool Setup();
  bool ReleaseBarrier();

  Machine& m_;
  Scheduler scheduler_;
  std::vector<Subgroup> subgroups_;  // reused from one workgroup to the next
};

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_WORKGROUP_H_
