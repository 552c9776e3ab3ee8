// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The cfg picture: BuildCfgGraph on small modules (edges and their labels,
// switch literals, source lines, joins, findings attached by location) and
// RenderCfgDot on graphs written by hand (escaping, clusters, markers).

#include "spirv_conv/cfg_dot.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

// A divergent if (on a fragment input) with a join, then a switch on a
// signed constant with a negative case and two cases sharing a target.
// Lines 10-12 of "a.frag" are on the blocks of the if.
constexpr char kModule[] = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
%file = OpString "a.frag"
OpName %main "main("
OpName %then "then"
OpDecorate %in Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%bool = OpTypeBool
%ptr = OpTypePointer Input %float
%in = OpVariable %ptr Input
%half = OpConstant %float 0.5
%sel = OpConstant %int 3
%main = OpFunction %void None %fn
%5 = OpLabel
OpLine %file 10 1
%x = OpLoad %float %in
OpLine %file 11 1
%c = OpFOrdLessThan %bool %x %half
OpSelectionMerge %7 None
OpBranchConditional %c %then %7
%then = OpLabel
OpLine %file 12 1
OpBranch %7
%7 = OpLabel
OpNoLine
OpSelectionMerge %9 None
OpSwitch %sel %9 -1 %8 4 %8 5 %9
%8 = OpLabel
OpBranch %9
%9 = OpLabel
OpReturn
OpFunctionEnd
)";

class BuildCfgGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SpirvBinary binary = test::MustAssemble(kModule);
    Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
    ASSERT_TRUE(context.ok()) << context.error().message;
    context_ = std::move(context.value());
    Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context_.get());
    ASSERT_TRUE(info.ok()) << info.error().message;
    info_ = std::move(info.value());
  }

  CfgGraph Build(const std::vector<Finding>& findings = {}, const std::string& function = "") {
    Expected<CfgGraph> graph = BuildCfgGraph(*context_, *info_, findings, function);
    EXPECT_TRUE(graph.ok()) << graph.error().message;
    return graph.ok() ? std::move(graph.value()) : CfgGraph{};
  }

  std::unique_ptr<spvtools::opt::IRContext> context_;
  std::unique_ptr<UniformityInfo> info_;
};

TEST_F(BuildCfgGraphTest, BlocksEdgesAndLevels) {
  const CfgGraph graph = Build();
  ASSERT_EQ(graph.functions.size(), 1u);
  const CfgFunction& main = graph.functions[0];
  EXPECT_EQ(main.name, "main");
  ASSERT_EQ(main.blocks.size(), 5u);
  const CfgBlock& entry = main.blocks[0];
  EXPECT_EQ(entry.name, "%5");
  EXPECT_EQ(entry.branch, Uniformity::kDivergent);
  EXPECT_EQ(entry.control_flow, Uniformity::kUniform);
  ASSERT_EQ(entry.edges.size(), 3u);
  EXPECT_EQ(entry.edges[0].label, "true");
  EXPECT_EQ(entry.edges[1].label, "false");
  EXPECT_EQ(entry.edges[2].kind, CfgEdge::Kind::kMerge);
  EXPECT_EQ(entry.edges[2].to, 7u);
  EXPECT_EQ(main.blocks[1].name, "then");
  EXPECT_EQ(main.blocks[1].control_flow, Uniformity::kDivergent);
  EXPECT_EQ(main.blocks[2].join_of, std::vector<uint32_t>{5});
  EXPECT_TRUE(main.blocks[1].join_of.empty());
  // The query behind join_of: the switch on a constant is uniform, so no joins.
  EXPECT_EQ(info_->Joins(5), std::vector<uint32_t>{7});
  EXPECT_TRUE(info_->Joins(7).empty());
  EXPECT_TRUE(info_->Joins(12345).empty());
}

TEST_F(BuildCfgGraphTest, SwitchLiteralsAsTheSelectorReadsThem) {
  const CfgGraph graph = Build();
  const CfgBlock& switch_block = graph.functions[0].blocks[2];
  ASSERT_EQ(switch_block.edges.size(), 3u);
  EXPECT_EQ(switch_block.edges[0].to, 9u);
  EXPECT_EQ(switch_block.edges[0].label, "default, case 5");
  EXPECT_EQ(switch_block.edges[1].to, 8u);
  EXPECT_EQ(switch_block.edges[1].label, "case -1, 4");
  EXPECT_EQ(switch_block.edges[2].kind, CfgEdge::Kind::kMerge);
}

TEST_F(BuildCfgGraphTest, SourceLines) {
  const CfgGraph graph = Build();
  const CfgFunction& main = graph.functions[0];
  EXPECT_EQ(main.blocks[0].first_line, 10u);
  EXPECT_EQ(main.blocks[0].last_line, 11u);
  EXPECT_EQ(main.blocks[1].first_line, 12u);
  EXPECT_EQ(main.blocks[1].last_line, 12u);
  EXPECT_EQ(main.blocks[3].first_line, 0u);
}

TEST_F(BuildCfgGraphTest, FindingsGoToTheBlockTheirLocationNames) {
  Finding in_then;
  in_then.rule = "derivative-divergent-cf";
  in_then.severity = Severity::kError;
  in_then.location.function = "main";
  in_then.location.block = "then";
  in_then.location.line = 12;
  Finding elsewhere = in_then;
  elsewhere.location.function = "other";
  const CfgGraph graph = Build({in_then, elsewhere});
  const CfgBlock& then = graph.functions[0].blocks[1];
  ASSERT_EQ(then.findings.size(), 1u);
  EXPECT_EQ(then.findings[0].rule, "derivative-divergent-cf");
  EXPECT_EQ(then.findings[0].line, 12u);
}

TEST_F(BuildCfgGraphTest, FunctionSelection) {
  EXPECT_EQ(Build({}, "main").functions.size(), 1u);
  EXPECT_EQ(Build({}, "main(").functions.size(), 1u);
  EXPECT_EQ(Build({}, "%" + std::to_string(Build().functions[0].id)).functions.size(), 1u);
  Expected<CfgGraph> none = BuildCfgGraph(*context_, *info_, {}, "nope");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ExitCode::kBadInput);
}

// A graph by hand: blocks 1 -> 2 -> 3 -> 2 (a cycle {2, 3} with a nested
// self loop {3}), 2 -> 4.
CfgGraph HandGraph() {
  CfgFunction f;
  f.id = 100;
  f.name = "main";
  CfgBlock b1{1, "entry \"1\"\\", 0, 0, Uniformity::kUniform, Uniformity::kDivergent, {}, {}, {}};
  b1.edges = {{2, CfgEdge::Kind::kBranch, ""}, {4, CfgEdge::Kind::kMerge, "merge"}};
  CfgBlock b2{2, "%2", 5, 7, Uniformity::kQuad, Uniformity::kUniform, {1}, {}, {}};
  b2.edges = {{3, CfgEdge::Kind::kBranch, "true"}, {4, CfgEdge::Kind::kBranch, "false"}};
  CfgBlock b3{3, "%3", 8, 8, Uniformity::kDivergent, Uniformity::kUniform, {}, {}, {}};
  b3.edges = {{3, CfgEdge::Kind::kBranch, ""}, {2, CfgEdge::Kind::kBranch, ""}};
  for (uint32_t i = 0; i < 8; ++i) b3.findings.push_back({"rule", Severity::kWarning, 8});
  CfgBlock b4{4, "%4", 0, 0, Uniformity::kSubgroup, Uniformity::kUniform, {}, {}, {}};
  f.blocks = {b1, b2, b3, b4};
  UniformityCycle outer;
  outer.header = 2;
  outer.entries = {2};
  outer.blocks = {2, 3};
  outer.divergent_exit = Uniformity::kQuad;
  UniformityCycle inner;
  inner.header = 3;
  inner.entries = {3};
  inner.blocks = {3};
  inner.depth = 2;
  inner.reducible = false;
  f.cycles = {outer, inner};
  CfgGraph graph;
  graph.title = "t.spv";
  graph.functions = {f};
  return graph;
}

TEST(RenderCfgDotTest, NodesAndMarkers) {
  const std::string dot = RenderCfgDot(HandGraph());
  EXPECT_EQ(dot.rfind("digraph cfg {\n", 0), 0u);
  // Quotes and backslashes escaped; a divergent branch has a thick red border.
  EXPECT_NE(dot.find("b1 [label=\"entry \\\"1\\\"\\\\\\ndivergent branch\", fillcolor=\"#DCEBF7\", "
                     "fontcolor=\"#000000\", penwidth=3, color=\"#A50026\"];"),
            std::string::npos)
      << dot;
  EXPECT_NE(
      dot.find("b2 [label=\"%2  (lines 5-7)\\nquad control flow\\njoin of entry \\\"1\\\"\\\\\", "
               "fillcolor=\"#FB9A29\", fontcolor=\"#000000\", peripheries=2];"),
      std::string::npos)
      << dot;
  EXPECT_NE(dot.find("b3 [label=\"%3  (line 8)\\ndivergent control flow\", fillcolor=\"#CC4C02\", "
                     "fontcolor=\"#FFFFFF\"];"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("b1 -> b2 [style=bold, penwidth=2, color=\"#A50026\", label=\"\"];"),
            std::string::npos);
  EXPECT_NE(dot.find("b1 -> b4 [style=dashed, color=\"#707070\", fontcolor=\"#707070\", "
                     "constraint=false, label=\"merge\"];"),
            std::string::npos);
  EXPECT_NE(dot.find("b2 -> b3 [label=\"true\"];"), std::string::npos);
  // Six findings shown, then a count.
  EXPECT_NE(dot.find("warning rule (line 8)\\n+2 more\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("b3 -> n3 [style=dotted, arrowhead=none];"), std::string::npos);
  // One function: no function cluster; the title names it, last.
  EXPECT_EQ(dot.find("cluster_function"), std::string::npos);
  EXPECT_NE(dot.find("  label=\"t.spv: function main\"; labelloc=t;\n}\n"), std::string::npos);
}

TEST(RenderCfgDotTest, CyclesNestAsClusters) {
  const std::string dot = RenderCfgDot(HandGraph());
  const size_t outer = dot.find("subgraph cluster_cycle_2 {");
  const size_t inner = dot.find("subgraph cluster_cycle_3 {");
  const size_t b2 = dot.find("b2 [");
  const size_t b3 = dot.find("b3 [");
  const size_t b4 = dot.find("b4 [");
  ASSERT_NE(outer, std::string::npos);
  ASSERT_NE(inner, std::string::npos);
  EXPECT_LT(outer, b2);
  EXPECT_LT(b2, inner);
  EXPECT_LT(inner, b3);
  EXPECT_LT(b4, outer);  // outside every cycle: before them
  EXPECT_NE(dot.find("label=\"cycle %2, depth 1\\ndivergent exit (quad)\"; labeljust=l; "
                     "style=\"rounded,dashed\"; penwidth=2; color=\"#A50026\";"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("label=\"cycle %3, depth 2\\nirreducible\"; labeljust=l; "
                     "style=\"rounded,dashed\"; penwidth=1; color=\"#707070\";"),
            std::string::npos)
      << dot;
}

TEST(RenderCfgDotTest, SeveralFunctionsAreClusters) {
  CfgGraph graph = HandGraph();
  CfgFunction other;
  other.id = 200;
  other.name = "helper";
  other.blocks.push_back({10, "%10", 0, 0, Uniformity::kUniform, Uniformity::kUniform, {}, {}, {}});
  graph.functions.push_back(other);
  const std::string dot = RenderCfgDot(graph);
  EXPECT_NE(dot.find("subgraph cluster_function_100 {\n    label=\"function main\";"),
            std::string::npos);
  EXPECT_NE(dot.find("subgraph cluster_function_200 {\n    label=\"function helper\";"),
            std::string::npos);
  EXPECT_NE(dot.find("  label=\"t.spv\"; labelloc=t;"), std::string::npos);
}

}  // namespace
}  // namespace spirv_conv
