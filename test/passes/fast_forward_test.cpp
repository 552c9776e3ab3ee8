// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// --fast-forward-loops (docs/fast-forward.md) on small GLSL loops: every
// output computes what its input computes under the maximal, ipdom and
// adversarial models (the simulator, subgroups of 8 and 32), the decisions
// in the change log say what the pass did and why, and where the cost model
// applies the pass the simulator issues fewer instructions.

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/sim_equivalence.h"
#include "sim/sim_test_util.h"
#include "spirv_conv/fast_forward_pass.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace {

// A compute shader of 64 invocations (out[id]) around |body|, which may
// use hash() and the invocation's |id|.
std::string Shader(const std::string& helpers, const std::string& body) {
  return R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;
shared uint scratch[64];
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
)" + helpers +
         R"(
void main() {
  uint id = gl_LocalInvocationIndex;
)" + body +
         R"(
}
)";
}

// E: eight dependent hash rounds in a function.
const char kShade[] = R"(
uint shade(uint x, uint acc) {
  uint h = x ^ acc;
  for (uint k = 1u; k <= 8u; ++k) h = hash(h + k);
  return acc + h;
}
)";

// Shape A: one item in 8 takes the expensive arm.
const char kRareExpensive[] = R"(
  uint acc = id;
  for (uint i = 0u; i < 32u; ++i) {
    uint x = hash(i * 64u + id);
    if (x % 8u == 0u) {
      acc = shade(x, acc);
    } else {
      acc = acc * 3u + (x >> 7);
    }
    acc ^= i;
  }
  result.data[id] = acc;
)";

struct Outcome {
  SpirvBinary input, output;
  ChangeLog log;
  FastForwardStats stats;
};

Outcome FastForward(const std::string& glsl, FastForwardPolicy policy, uint32_t window = 0,
                    const BlockProfile* profile = nullptr) {
  Outcome outcome;
  outcome.input = test::MustLoad("loop.comp", glsl);
  FastForwardOptions options;
  options.policy = policy;
  options.window = window;
  options.profile = profile;
  options.log = &outcome.log;
  Expected<SpirvBinary> output =
      FastForwardBinary(outcome.input, ValidatorFlags(), false, options, &outcome.stats);
  EXPECT_TRUE(output) << output.error().message;
  if (output) outcome.output = std::move(*output);
  return outcome;
}

// The output against the input under every model, subgroups of 8 and 32.
void ExpectSameResults(const Outcome& outcome) {
  if (outcome.output.words.empty()) return;
  const std::vector<sim::Buffer> inputs = {test::Zeros(0, 64)};
  for (uint32_t width : {8u, 32u}) {
    for (sim::Model model : {sim::Model::kMaximal, sim::Model::kIpdom, sim::Model::kAdversarial}) {
      for (uint64_t seed : {1u, 2u}) {
        if (model != sim::Model::kAdversarial && seed != 1) continue;
        sim::RunOptions options = test::Options(model, width);
        options.seed = seed;
        test::Equivalence same = test::Equivalent(outcome.input, outcome.output, inputs, options);
        EXPECT_TRUE(same) << sim::ModelName(model) << ", subgroup " << width << ": "
                          << same.description;
      }
    }
  }
}

uint64_t Issued(const SpirvBinary& binary) {
  Expected<sim::RunResult> run =
      test::RunBinary(binary, {test::Zeros(0, 64)}, test::Options(sim::Model::kMaximal, 32));
  EXPECT_TRUE(run) << run.error().message;
  return run ? run->stats.issued : 0;
}

// The log's entries: "action: detail".
std::vector<std::string> Decisions(const Outcome& outcome) {
  std::vector<std::string> decisions;
  for (const PassChange& change : outcome.log) {
    EXPECT_EQ(change.pass, "fast-forward-loops");
    decisions.push_back(change.action + ": " + change.detail);
  }
  return decisions;
}

TEST(FastForward, RareExpensiveArmRunsOnceForTheParkedInvocations) {
  const std::string glsl = Shader(kShade, kRareExpensive);
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kWhereItPays);
  ExpectSameResults(outcome);
  // main's loop is fast-forwarded; shade's loop has no divergent branch.
  // The log follows the functions' order in the module.
  const std::vector<std::string> decisions = Decisions(outcome);
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_EQ(decisions[0].rfind("fast-forward: function 'main': expensive arm ", 0), 0u)
      << decisions[0];
  EXPECT_EQ(decisions[1],
            "decline: function 'shade(u1;u1;': no divergent two-way branch in its body");
  EXPECT_EQ(outcome.stats.applied, 1u);
  const uint64_t before = Issued(outcome.input), after = Issued(outcome.output);
  EXPECT_LT(after * 5, before * 4) << before << " issued before, " << after << " after";
}

// The statistics of a run of |glsl| (`spirv-conv run --stats json`) as a
// profile, through the file the CLI reads.
BlockProfile Profile(const std::string& glsl, const std::string& name) {
  Expected<sim::RunResult> run =
      test::RunBinary(test::MustLoad("loop.comp", glsl), {test::Zeros(0, 64)},
                      test::Options(sim::Model::kMaximal, 32));
  EXPECT_TRUE(run) << run.error().message;
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << (run ? sim::StatsJson(run->stats) : "{}");
  Expected<BlockProfile> profile = LoadBlockProfile(path);
  EXPECT_TRUE(profile) << profile.error().message;
  return profile ? *profile : BlockProfile();
}

TEST(FastForward, AProfileReplacesTheAssumedRarity) {
  // Without a profile the arm is assumed to be taken by 1 in 4 to 1 in 32
  // invocations; measured, half of them take it, and a shorter window pays.
  std::string common = kRareExpensive;
  common.replace(common.find("x % 8u == 0u"), 12, "x % 2u == 0u");
  const std::string glsl = Shader(kShade, common);
  const std::string assumed = Decisions(FastForward(glsl, FastForwardPolicy::kWhereItPays))[0];
  EXPECT_NE(assumed.find("assuming 1 in 4 to 1 in 32 invocations take it"), std::string::npos)
      << assumed;
  EXPECT_NE(assumed.find("with window 4"), std::string::npos) << assumed;
  const BlockProfile profile = Profile(glsl, "half.json");
  const Outcome measured = FastForward(glsl, FastForwardPolicy::kWhereItPays, 0, &profile);
  ExpectSameResults(measured);
  const std::string decision = Decisions(measured)[0];
  EXPECT_EQ(decision.rfind("fast-forward: ", 0), 0u) << decision;
  EXPECT_NE(decision.find("; 0.500 of the invocations take it (profile)"), std::string::npos)
      << decision;
  EXPECT_NE(decision.find("with window 2"), std::string::npos) << decision;
}

TEST(FastForward, AProfileMustBeSimulatorStatistics) {
  const std::string path = ::testing::TempDir() + "not_stats.json";
  std::ofstream(path) << R"({"blocks": [{"block": 5}]})";
  Expected<BlockProfile> profile = LoadBlockProfile(path);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().message,
            path + ": a \"blocks\" entry without \"block\" and \"entries\" numbers");
}

TEST(FastForward, EveryWindowComputesTheSameResults) {
  const std::string glsl = Shader(kShade, kRareExpensive);
  for (uint32_t window : {1u, 2u, 3u, 16u, 1000u}) {
    SCOPED_TRACE("window " + std::to_string(window));
    const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere, window);
    EXPECT_EQ(outcome.stats.applied, 1u);
    ExpectSameResults(outcome);
  }
}

TEST(FastForward, BreaksContinuesAndValuesAfterTheLoop) {
  // A break in P, a continue in C, the expensive arm on the false side, a
  // do-while, and P's value used in E, T and after the loop.
  const std::string glsl = Shader(kShade, R"(
  uint acc = id, last = 0u, i = 0u;
  do {
    uint x = hash(i * 64u + id);
    last = x;
    if (x % 97u == 5u) break;
    if (x % 8u != 0u) {
      acc = acc * 3u + (x >> 7);
      if ((x & 3u) == 1u) { ++i; continue; }
    } else {
      acc = shade(x, acc) + i;
    }
    acc ^= x >> 3;
    ++i;
  } while (i < 40u);
  result.data[id] = acc + last * 7u + i;
)");
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere, 4);
  EXPECT_EQ(outcome.stats.applied, 1u) << testing::PrintToString(Decisions(outcome));
  ExpectSameResults(outcome);
}

TEST(FastForward, DivergentTripCountsAndATailWithBranches) {
  const std::string glsl = Shader(kShade, R"(
  uint acc = 0u;
  uint n = 8u + id % 23u;
  for (uint i = 0u; i < n; i += 1u + (id & 1u)) {
    uint x = hash(i + id * 131u);
    if ((x & 15u) == 3u) acc = shade(x, acc);
    if ((acc & 1u) == 1u) acc += x; else acc ^= i;
  }
  result.data[id] = acc;
)");
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere, 2);
  EXPECT_EQ(outcome.stats.applied, 1u);
  ExpectSameResults(outcome);
}

TEST(FastForward, BranchesOnLoopValuesAfterTheLoopStayValid) {
  // The branch after the loop tests a value the loop's phi defines: once
  // demoted, its load precedes the branch (from the fuzzer's seed
  // shaders/lint/instance_cull_ballot.comp).
  const std::string glsl = Shader(kShade, R"(
  uint acc = id;
  bool seen = id < 40u;
  for (uint i = 0u; i < 16u; ++i) {
    uint x = hash(i * 64u + id);
    seen = seen && (x % 8u != 0u || shade(x, acc) > 7u);
    acc += x >> 9;
  }
  if (seen) acc *= 3u;
  result.data[id] = acc;
)");
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere);
  EXPECT_EQ(outcome.stats.applied, 1u) << testing::PrintToString(Decisions(outcome));
  ExpectSameResults(outcome);
}

// Loops the pass must leave alone, and the reason it gives.
struct Declined {
  const char* name;
  const char* helpers;
  const char* body;
  const char* reason;
};

class FastForwardDeclines : public testing::TestWithParam<Declined> {};

TEST_P(FastForwardDeclines, WithItsReason) {
  const Declined& c = GetParam();
  const Outcome outcome =
      FastForward(Shader(std::string(kShade) + c.helpers, c.body), FastForwardPolicy::kEverywhere);
  ExpectSameResults(outcome);
  EXPECT_EQ(outcome.stats.applied, 0u);
  bool found = false;
  for (const std::string& decision : Decisions(outcome)) {
    EXPECT_EQ(decision.rfind("decline: ", 0), 0u) << decision;
    found = found || decision == std::string("decline: function 'main': ") + c.reason;
  }
  EXPECT_TRUE(found) << "expected the reason: " << c.reason;
}

// The loop of kRareExpensive with |statement| after the branch (where a
// barrier is reached by every invocation).
#define RARE_LOOP_WITH(statement)         \
  "  uint acc = id;\n"                    \
  "  for (uint i = 0u; i < 32u; ++i) {\n" \
  "    uint x = hash(i * 64u + id);\n"    \
  "    if (x % 8u == 0u) {\n"             \
  "      acc = shade(x, acc);\n"          \
  "    } else {\n"                        \
  "      acc = acc * 3u + (x >> 7);\n"    \
  "    }\n"                               \
  "    " statement                        \
  "\n"                                    \
  "  }\n"                                 \
  "  result.data[id] = acc;\n"

INSTANTIATE_TEST_SUITE_P(
    Preconditions, FastForwardDeclines,
    testing::Values(
        Declined{"Barrier", "", RARE_LOOP_WITH("barrier();"),
                 "it contains a convergent or co-convergent operation (OpControlBarrier)"},
        Declined{"SubgroupOperation", "", RARE_LOOP_WITH("acc += subgroupAdd(x);"),
                 "it contains a convergent or co-convergent operation (OpGroupNonUniformIAdd)"},
        Declined{"Atomic", "", RARE_LOOP_WITH("atomicAdd(scratch[0], 1u);"),
                 "it contains an atomic operation (OpAtomicIAdd)"},
        Declined{"WorkgroupStore", "", RARE_LOOP_WITH("scratch[id] = acc;"),
                 "it contains a store to Workgroup memory (OpStore)"},
        Declined{"BarrierInACallee", "void sync() { barrier(); }\n", RARE_LOOP_WITH("sync();"),
                 "it contains a convergent or co-convergent operation (OpControlBarrier) in a "
                 "called function"},
        Declined{"Return", "", RARE_LOOP_WITH("if (acc == 7u) return;"),
                 "it contains an instruction that ends the invocation (OpReturn)"},
        Declined{"UniformCondition", "", R"(
  uint acc = id;
  for (uint i = 0u; i < 32u; ++i) {
    if (i % 8u == 0u) acc = shade(i, acc); else acc = acc * 3u + i;
  }
  result.data[id] = acc;
)",
                 "no divergent two-way branch in its body"}),
    [](const testing::TestParamInfo<Declined>& info) { return std::string(info.param.name); });

// Shape B: an inner loop of per-item trip counts; SKEWED: one item in 16
// takes 31 trips, the others 0 to 3, else 0 to 31 evenly.
std::string SkewedInner(bool skewed) {
  return Shader("", std::string(R"(
  uint acc = id;
  for (uint j = 0u; j < 8u; ++j) {
    uint h = hash(j * 64u + id);
    uint cnt = )") + (skewed ? "(h & 15u) == 0u ? 31u : (h >> 8) & 3u" : "(h >> 8) & 31u") +
                        R"(;
    for (uint k = 0u; k < cnt; ++k) acc = hash(acc + k);
    acc ^= j;
  }
  result.data[id] = acc;
)");
}

TEST(FastForward, InnerLoopsMergeOnlyWhereAProfileShowsSkew) {
  for (bool skewed : {true, false}) {
    SCOPED_TRACE(skewed ? "skewed" : "even");
    const std::string glsl = SkewedInner(skewed);
    // Without a profile the pass cannot tell skewed trip counts from even ones.
    const std::vector<std::string> assumed =
        Decisions(FastForward(glsl, FastForwardPolicy::kWhereItPays));
    ASSERT_EQ(assumed.size(), 2u);
    EXPECT_EQ(assumed[0], "decline: function 'main': no divergent two-way branch in its body");
    EXPECT_NE(assumed[1].find("merging it pays only for skewed trip counts, which a profile "
                              "measures (--fast-forward-profile)"),
              std::string::npos)
        << assumed[1];
    const BlockProfile profile = Profile(glsl, skewed ? "skewed.json" : "even.json");
    const Outcome measured = FastForward(glsl, FastForwardPolicy::kWhereItPays, 0, &profile);
    ExpectSameResults(measured);
    const std::vector<std::string> decisions = Decisions(measured);
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[1].rfind(skewed ? "merge-inner-loop: " : "decline: ", 0), 0u)
        << decisions[1];
    EXPECT_EQ(measured.stats.merged, skewed ? 1u : 0u);
    // The estimate's verdict is the simulator's.
    const Outcome everywhere = FastForward(glsl, FastForwardPolicy::kEverywhere);
    EXPECT_EQ(everywhere.stats.merged, 1u);
    ExpectSameResults(everywhere);
    const Outcome structured = FastForward(glsl, FastForwardPolicy::kWhereItPays);
    const uint64_t before = Issued(structured.output), after = Issued(everywhere.output);
    if (skewed) {
      EXPECT_LT(after * 5, before * 4) << before << " issued before, " << after << " merged";
    } else {
      EXPECT_GT(after, before) << before << " issued before, " << after << " merged";
    }
  }
}

TEST(FastForward, MergedInnerLoopsKeepBreaksAndValues) {
  // A do-while outer loop with a break in its body, an inner while loop with
  // a divergent break and its values used after both loops.
  const std::string glsl = Shader("", R"(
  uint acc = id, j = 0u, k = 0u;
  do {
    uint h = hash(j * 64u + id);
    if (h % 53u == 7u) break;
    k = 0u;
    while (k < (h & 7u) + (id & 3u)) {
      acc = hash(acc + k);
      if ((acc & 31u) == 5u) break;
      ++k;
    }
    acc += k;
    ++j;
  } while (j < 12u);
  result.data[id] = acc * 3u + j + k;
)");
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere);
  EXPECT_EQ(outcome.stats.merged, 1u) << testing::PrintToString(Decisions(outcome));
  ExpectSameResults(outcome);
}

TEST(FastForward, InnerLoopsBreakingBothLoopsThroughAFlagMerge) {
  const std::string glsl = Shader("", R"(
  uint acc = id;
  for (uint j = 0u; j < 8u; ++j) {
    bool done = false;
    for (uint k = 0u; k < (hash(j + id) & 7u); ++k) {
      acc = hash(acc + k);
      if (acc % 61u == 3u) { done = true; break; }
    }
    if (done) break;
  }
  result.data[id] = acc;
)");
  const Outcome outcome = FastForward(glsl, FastForwardPolicy::kEverywhere);
  EXPECT_EQ(outcome.stats.merged, 1u) << testing::PrintToString(Decisions(outcome));
  ExpectSameResults(outcome);
}

TEST(FastForward, CheapArmsAreNotWorthIt) {
  // Both arms cost about the same: the cost model declines, -everywhere
  // applies.
  const std::string body = R"(
  uint acc = id;
  for (uint i = 0u; i < 32u; ++i) {
    uint x = hash(i * 64u + id);
    if (x % 8u == 0u) acc = acc * 5u + x; else acc = acc * 3u + (x >> 7);
  }
  result.data[id] = acc;
)";
  const Outcome chosen = FastForward(Shader("", body), FastForwardPolicy::kWhereItPays);
  EXPECT_EQ(chosen.stats.applied, 0u);
  const std::vector<std::string> decisions = Decisions(chosen);
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_NE(decisions[0].find("; no gain expected"), std::string::npos) << decisions[0];
  const Outcome everywhere = FastForward(Shader("", body), FastForwardPolicy::kEverywhere);
  EXPECT_EQ(everywhere.stats.applied, 1u);
  ExpectSameResults(everywhere);
}

}  // namespace
}  // namespace spirv_conv
