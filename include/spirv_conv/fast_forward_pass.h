// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// fast-forward-loops: loop fast-forwarding (seed 002; docs/fast-forward.md).
// A loop whose body branches divergently to an expensive arm E,
//
//   loop { P; if (c) E else C; T }
//
// becomes an outer loop around an inner fast-forward loop: an invocation
// that does not need E in this iteration runs the cheap path of the next
// ones, at most D of them (the window), until it needs E or leaves; the
// inner loop's merge is the confluence node where E and the rest of its
// iteration run once for every invocation that parked there. Each
// invocation executes the same operations in the same order as before, so
// the output is the same under every reconvergence model (shape A).
//
// A loop whose body runs an inner loop with a divergent exit,
//
//   loop { P; loop { B }; Q }
//
// becomes one loop whose header sends an invocation into B while its inner
// loop runs and into Q and the next P otherwise (shape B): invocations whose
// inner loop ended go on to the next outer iteration instead of waiting for
// the longest one. It pays only when inner trip counts are skewed, which the
// static estimate cannot see: the cost model applies it only with a profile.
//
// In both shapes only which
// invocations execute together changes, which is why loops with convergent
// or co-convergent operations, atomics, Workgroup stores or memory barriers
// (also in the functions they call) are declined, and loops that return or
// end the invocation inside.
//
// The pass works on structured input in SSA form (it promotes Function
// variables first) and leaves unstructured control flow and Function
// variables behind: FastForwardBinary (below) structurizes its output.
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_FAST_FORWARD_PASS_H_
#define INCLUDE_SPIRV_CONV_FAST_FORWARD_PASS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "source/opt/pass.h"
#include "spirv_conv/load.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {

// Where the pass applies fast-forwarding.
enum class FastForwardPolicy {
  kWhereItPays,  // loops whose expected issues per subgroup the cost model says it lowers
  kEverywhere,   // every loop that meets the preconditions (to measure the transform itself)
};

// How often invocations reached each block in a run: the "blocks" of
// `spirv-conv run --stats json` (the simulator's statistics, docs/simulator.md).
struct BlockProfile {
  // OpLabel id -> invocations that entered the block, summed over the run.
  std::map<uint32_t, double> entries;
  // OpLabel id -> times a tangle entered it (its first instruction's
  // issues); absent in statistics written before "visits" existed.
  std::map<uint32_t, double> visits;
};

// Reads the statistics JSON `spirv-conv run --stats json -o FILE` writes (the
// result object, or its "stats" member). Error: kBadInput naming |path|.
Expected<BlockProfile> LoadBlockProfile(const std::string& path);

struct FastForwardOptions {
  FastForwardPolicy policy = FastForwardPolicy::kWhereItPays;
  // The window D; 0: the cost model's choice among kFastForwardWindows.
  uint32_t window = 0;
  // When set, the probability that an invocation takes the expensive arm is
  // measured from it instead of assumed, and inner loops' trip counts are
  // measured for shape B.
  const BlockProfile* profile = nullptr;
  // Where the pass records one change per loop it considered (action
  // "fast-forward", "merge-inner-loop" or "decline", the reason in the
  // detail); may be null.
  ChangeLog* log = nullptr;
};

// The windows the cost model chooses from.
inline constexpr uint32_t kFastForwardWindows[] = {1, 2, 4, 8, 16};

struct FastForwardStats {
  uint32_t applied = 0;  // loops fast-forwarded (shape A)
  uint32_t merged = 0;   // inner loops merged into their outer loop (shape B)
};

class FastForwardPass : public spvtools::opt::Pass {
 public:
  explicit FastForwardPass(FastForwardOptions options) : options_(options) {}

  const char* name() const override { return "fast-forward-loops"; }
  const std::string& error() const { return error_; }
  const FastForwardStats& stats() const { return stats_; }

 private:
  Status Process() override;

  FastForwardOptions options_;
  std::string error_;
  FastForwardStats stats_;
};

// FastForwardPass on |binary|, then StructurizeBinary on the result: the
// validated output. The input may break the structured control-flow rules of
// spirv-val, and only those (it is structurized first when it does).
Expected<SpirvBinary> FastForwardBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                        bool skip_input_validation,
                                        const FastForwardOptions& options,
                                        FastForwardStats* stats = nullptr);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_FAST_FORWARD_PASS_H_
