// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// docs/convergence-classes.md and the opcode table cannot drift: every row
// of the document's table is parsed and compared with ClassifyConvergence
// and UniformOperands.

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/convergence_classes.h"
#include "gtest/gtest.h"
#include "source/opcode.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

struct Row {
  std::string opcode;
  std::string cls;
  std::string operands;
};

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" `");
  const size_t end = text.find_last_not_of(" `");
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

std::vector<Row> ReadTable() {
  std::ifstream in(std::string(SPIRV_CONV_TEST_DATA_DIR) + "/../../docs/convergence-classes.md");
  EXPECT_TRUE(in.good());
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `Op", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream stream(line.substr(1));
    for (std::string cell; std::getline(stream, cell, '|');) cells.push_back(Trim(cell));
    EXPECT_GE(cells.size(), 3u) << line;
    if (cells.size() >= 3) rows.push_back({cells[0], cells[1], cells[2]});
  }
  return rows;
}

// spv::Op by name ("OpDPdx"), from the grammar tables.
std::unordered_map<std::string, spv::Op> OpcodesByName() {
  std::unordered_map<std::string, spv::Op> opcodes;
  for (uint32_t value = 0; value < 8192; ++value) {
    const std::string name = spvOpcodeString(value);
    if (name != "unknown") opcodes.emplace("Op" + name, static_cast<spv::Op>(value));
  }
  return opcodes;
}

std::string ClassText(const analysis::ConvergenceClass& cls) {
  if (!cls.Has(analysis::kConvergent)) return "—";
  std::string text = cls.Has(analysis::kCoConvergent) ? "convergent, co-convergent" : "convergent";
  if (cls.Has(analysis::kReadsOtherInvocation)) text += ", reads another invocation";
  return text;
}

std::string OperandsText(const std::vector<analysis::UniformOperand>& operands) {
  std::string text;
  for (const analysis::UniformOperand& operand : operands) {
    text += (text.empty() ? "" : ", ") + std::string(operand.role);
  }
  return text.empty() ? "—" : text;
}

TEST(ConvergenceClassesDoc, EveryRowMatchesTheOpcodeTable) {
  const SpirvBinary binary = test::MustAssemble(test::MinimalCompute());
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok());
  const analysis::ModuleIndex index(context->get());
  const std::unordered_map<std::string, spv::Op> opcodes = OpcodesByName();
  const std::vector<Row> rows = ReadTable();
  EXPECT_GE(rows.size(), 100u);
  for (const Row& row : rows) {
    auto opcode = opcodes.find(row.opcode);
    ASSERT_NE(opcode, opcodes.end()) << row.opcode;
    const spvtools::opt::Instruction inst(context->get(), opcode->second);
    const analysis::ConvergenceClass cls = analysis::ClassifyConvergence(inst);
    EXPECT_EQ(ClassText(cls), row.cls) << row.opcode;
    EXPECT_EQ(OperandsText(analysis::UniformOperands(inst, cls, index)), row.operands)
        << row.opcode;
  }
}

}  // namespace
}  // namespace spirv_conv
