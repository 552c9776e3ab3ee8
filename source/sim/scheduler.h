// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The tangle scheduler: runs a tangle's instructions, and at every control
// transfer decides, by the reconvergence model, which lanes go on together.

#ifndef SOURCE_SIM_SCHEDULER_H_
#define SOURCE_SIM_SCHEDULER_H_

#include <utility>
#include <vector>

#include "sim/machine.h"

namespace spirv_conv {
namespace sim {

class Scheduler {
 public:
  explicit Scheduler(Machine& m) : m_(m), model_(m.options.model) {}

  // Runs |t| for at most |slice| instructions, until it blocks (waits at a
  // record or a barrier), splits, or finishes. False after an error.
  bool RunTangle(Subgroup& sg, Tangle t, uint64_t slice);

  // The tangle every subgroup starts with: all its lanes at the entry block.
  void Start(Subgroup& sg);

 private:
  enum class Flow { kContinue, kStop, kError };

  Flow Control(Subgroup& sg, Tangle& t, const Function& f, const Inst& inst);
  // The lanes of |t| take the edge from t.block to |target|.
  Flow Branch(Subgroup& sg, Tangle& t, uint32_t target);
  // Divergent or not: lanes grouped by the target they branch to.
  Flow Diverge(Subgroup& sg, Tangle& t, std::vector<std::pair<uint32_t, LaneMask>>& groups);
  // Every lane of |t| takes the same case of an OpSwitch.
  Flow UniformSelection(Subgroup& sg, Tangle& t, uint32_t target);
  Flow Call(Subgroup& sg, Tangle& t, const Inst& inst);
  Flow Return(Subgroup& sg, Tangle& t, const Function& f, const Inst& inst);
  // OpKill / OpTerminateInvocation: the lanes of |t| end from any call depth.
  Flow Terminate(Subgroup& sg, Tangle& t);
  // The lanes of |t| exit: a return from the entry point, or a terminate.
  Flow EndInvocations(Subgroup& sg, Tangle& t);
  // A group operation, over the lanes that are active for it.
  bool ExecGroupOp(const Exec& e);
  // Lanes of |t| arrive at record |r|'s merge (or continue target), escaping
  // the records between t.record and |r|.
  void Arrive(Subgroup& sg, const Tangle& t, int r, bool at_continue);
  // When nothing of |r| is in flight any more, the lanes waiting there go on.
  void Complete(Subgroup& sg, int r);
  void EnterBlock(Subgroup& sg, Tangle& t, uint32_t block);
  void Spawn(Subgroup& sg, Tangle t) { sg.runnable.push_front(t); }
  int Push(Subgroup& sg, Record r, const Tangle& t);
  bool Unite(const Record& r, bool at_continue) const;
  bool Fault(const Tangle& t, const std::string& what);

  Machine& m_;
  const Model model_;
};

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_SCHEDULER_H_
