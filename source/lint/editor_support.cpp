// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The hover facts and gradient hoists of spirv_conv/editor_support.h, read
// off the lint's tables: its explanations for the notes, its locator for the
// source lines.

#include "spirv_conv/editor_support.h"

#include <optional>
#include <set>

#include "analysis/dominance.h"
#include "analysis/function_cfg.h"
#include "lint/lint_context.h"
#include "source/opcode.h"

namespace spirv_conv {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

std::vector<SourceValue> DescribeSourceValues(spvtools::opt::IRContext& context,
                                              const UniformityInfo& info,
                                              const LintOptions& options) {
  const lint::LintContext lint(context, info, options.input_path, &options.unsaved_files);
  std::vector<SourceValue> values;
  auto add = [&](SourceValue::Kind kind, const std::string& name, const Instruction& at,
                 Uniformity level,
                 std::vector<Note> (*explain)(const lint::LintContext&, const Instruction&)) {
    SourceValue value;
    value.kind = kind;
    value.name = name;
    value.location = lint.locator.At(at);
    if (value.location.line == 0) return;
    value.level = level;
    if (level != Uniformity::kUniform) value.explanation = explain(lint, at);
    values.push_back(std::move(value));
  };
  auto variable_name = [&](uint32_t pointer) {
    const Instruction* root = lint.names.RootVariable(pointer);
    return root == nullptr ? std::string() : lint.names.Name(root->result_id());
  };
  for (spvtools::opt::Function& function : *context.module()) {
    for (const BasicBlock& block : function) {
      for (const Instruction& inst : block) {
        switch (inst.opcode()) {
          case spv::Op::OpLoad: {
            const std::string name = variable_name(inst.GetSingleWordInOperand(0));
            if (name.empty()) break;
            add(SourceValue::Kind::kVariable, name, inst, info.ValueLevel(inst.result_id()),
                [](const lint::LintContext& l, const Instruction& load) {
                  return l.explainer.Value(load.result_id());
                });
            break;
          }
          case spv::Op::OpStore: {
            const std::string name = variable_name(inst.GetSingleWordInOperand(0));
            if (name.empty()) break;
            add(SourceValue::Kind::kVariable, name, inst, info.UseLevel(inst, 1),
                [](const lint::LintContext& l, const Instruction& store) {
                  return l.explainer.Use(store, 1);
                });
            break;
          }
          case spv::Op::OpBranchConditional:
          case spv::Op::OpSwitch: {
            const Instruction& at = *lint.explainer.WithLine(inst, inst.GetSingleWordInOperand(0));
            SourceValue value;
            value.kind = SourceValue::Kind::kCondition;
            value.location = lint.locator.At(at);
            if (value.location.line == 0) break;
            value.level = info.UseLevel(inst, 0);
            if (value.level != Uniformity::kUniform)
              value.explanation = lint.explainer.Use(inst, 0);
            values.push_back(std::move(value));
            break;
          }
          default:
            break;
        }
      }
    }
  }
  return values;
}

namespace {

// The gradient hoists of one function.
class HoistFinder {
 public:
  HoistFinder(const lint::LintContext& lint, const spvtools::opt::Function& function)
      : lint_(lint),
        cfg_(analysis::BuildFunctionCfg(function)),
        dom_(cfg_.cfg, false),
        writes_(cfg_.label_of.size()) {
    // What each block writes: the variables stores and calls may change.
    uint32_t i = 0;
    for (const BasicBlock& block : function) {
      Writes& writes = writes_[i++];
      for (const Instruction& inst : block) {
        switch (inst.opcode()) {
          case spv::Op::OpStore:
          case spv::Op::OpCopyMemory:
          case spv::Op::OpCopyMemorySized:
            AddWrite(inst.GetSingleWordInOperand(0), &writes);
            break;
          case spv::Op::OpFunctionCall:
            writes.call = true;
            for (uint32_t operand = 1; operand < inst.NumInOperands(); ++operand) {
              AddWrite(inst.GetSingleWordInOperand(operand), &writes);
            }
            break;
          default:
            if (spvOpcodeIsAtomicOp(inst.opcode()) && inst.NumInOperands() > 0) {
              AddWrite(inst.GetSingleWordInOperand(0), &writes);
            }
            break;
        }
      }
    }
  }

  void Find(const spvtools::opt::Function& function, std::vector<GradientHoist>* hoists) {
    uint32_t index = 0;
    for (const BasicBlock& block : function) {
      const uint32_t sample_block = index++;
      for (const Instruction& inst : block) {
        // textureGrad takes no bias, offset or other image operands.
        if (inst.opcode() != spv::Op::OpImageSampleImplicitLod || inst.NumInOperands() != 2 ||
            lint_.info.ControlFlowLevel(inst) <= Uniformity::kQuad) {
          continue;
        }
        if (std::optional<GradientHoist> hoist = HoistOf(inst, sample_block)) {
          hoists->push_back(*hoist);
        }
      }
    }
  }

 private:
  struct Writes {
    std::set<const Instruction*> variables;
    bool call = false;
  };

  void AddWrite(uint32_t pointer, Writes* writes) const {
    if (const Instruction* root = lint_.names.RootVariable(pointer)) writes->variables.insert(root);
  }

  std::optional<GradientHoist> HoistOf(const Instruction& sample, uint32_t sample_block) {
    GradientHoist hoist;
    hoist.sample = lint_.locator.At(sample);
    if (hoist.sample.line == 0) return std::nullopt;
    // The nearest dominator in quad-uniform control flow starts the statement.
    uint32_t start = dom_.Idom(sample_block);
    while (start != analysis::DominatorTree::kNone &&
           lint_.info.ControlFlowLevel(cfg_.label_of[start]) > Uniformity::kQuad) {
      start = dom_.Idom(start);
    }
    if (start == analysis::DominatorTree::kNone) return std::nullopt;
    const Location statement = StatementAt(start);
    if (statement.line == 0 || statement.line > hoist.sample.line ||
        statement.file != hoist.sample.file) {
      return std::nullopt;
    }
    hoist.before_line = statement.line;
    start_ = start;
    if (!SameBefore(sample.GetSingleWordInOperand(1), 0)) return std::nullopt;
    const Instruction* coordinate = lint_.index.Def(sample.GetSingleWordInOperand(1));
    const Instruction* type =
        coordinate == nullptr ? nullptr : lint_.index.Def(coordinate->type_id());
    if (type == nullptr) return std::nullopt;
    hoist.coordinate_components =
        type->opcode() == spv::Op::OpTypeVector ? type->GetSingleWordInOperand(1) : 1;
    hoist.gradient_components = GradientComponents(sample.GetSingleWordInOperand(0));
    if (hoist.gradient_components == 0 || hoist.gradient_components > hoist.coordinate_components) {
      return std::nullopt;
    }
    return hoist;
  }

  // The number of coordinates the image that |sampled_image| samples has
  // gradients in; 0 for images textureGrad does not sample.
  uint32_t GradientComponents(uint32_t sampled_image) const {
    const Instruction* value = lint_.index.Def(sampled_image);
    const Instruction* type = value == nullptr ? nullptr : lint_.index.Def(value->type_id());
    if (type == nullptr || type->opcode() != spv::Op::OpTypeSampledImage) return 0;
    const Instruction* image = lint_.index.Def(type->GetSingleWordInOperand(0));
    if (image == nullptr || image->opcode() != spv::Op::OpTypeImage) return 0;
    switch (static_cast<spv::Dim>(image->GetSingleWordInOperand(1))) {
      case spv::Dim::Dim1D:
        return 1;
      case spv::Dim::Dim2D:
      case spv::Dim::Rect:
        return 2;
      case spv::Dim::Dim3D:
      case spv::Dim::Cube:
        return 3;
      default:
        return 0;
    }
  }

  // The source position of the statement block |start| ends with: the
  // condition of its branch or switch, or the header of the loop it enters.
  Location StatementAt(uint32_t start) const {
    const BasicBlock* block = lint_.blocks.OfLabel(cfg_.label_of[start]);
    const Instruction& terminator = *block->ctail();
    if (terminator.opcode() == spv::Op::OpBranchConditional ||
        terminator.opcode() == spv::Op::OpSwitch) {
      return lint_.locator.At(
          *lint_.explainer.WithLine(terminator, terminator.GetSingleWordInOperand(0)));
    }
    if (terminator.opcode() != spv::Op::OpBranch) return {};
    const BasicBlock* header = lint_.blocks.OfLabel(terminator.GetSingleWordInOperand(0));
    if (header == nullptr || header->GetLoopMergeInst() == nullptr) return {};
    return lint_.locator.At(*header->GetLoopMergeInst());
  }

  // |block| is inside the statement: dominated by its start, not the start.
  bool Inside(uint32_t block) const { return block != start_ && dom_.Dominates(start_, block); }

  // Value |id| is the same at the start of the statement as where the
  // sample reads it.
  bool SameBefore(uint32_t id, int depth) const {
    if (depth > 32) return false;
    const Instruction* def = lint_.index.Def(id);
    if (def == nullptr) return false;
    if (spvOpcodeIsConstant(def->opcode()) || def->opcode() == spv::Op::OpUndef) return true;
    const BasicBlock* block = lint_.blocks.Of(*def);
    if (block == nullptr) return false;  // variables are read through loads
    const uint32_t at = cfg_.Index(block->id());
    if (at == ~0u) return false;
    if (!Inside(at)) return dom_.Dominates(at, start_);
    switch (def->opcode()) {
      case spv::Op::OpLoad:
        return StableVariable(def->GetSingleWordInOperand(0), depth);
      case spv::Op::OpExtInst: {
        const Instruction* set = lint_.index.Def(def->GetSingleWordInOperand(0));
        if (set == nullptr || set->GetInOperand(0).AsString() != "GLSL.std.450") return false;
        for (uint32_t i = 2; i < def->NumInOperands(); ++i) {
          if (!SameBefore(def->GetSingleWordInOperand(i), depth + 1)) return false;
        }
        return true;
      }
      case spv::Op::OpCompositeConstruct:
      case spv::Op::OpCompositeExtract:
      case spv::Op::OpVectorShuffle:
      case spv::Op::OpCopyObject:
      case spv::Op::OpSelect:
      case spv::Op::OpFNegate:
      case spv::Op::OpFAdd:
      case spv::Op::OpFSub:
      case spv::Op::OpFMul:
      case spv::Op::OpFDiv:
      case spv::Op::OpFMod:
      case spv::Op::OpFRem:
      case spv::Op::OpVectorTimesScalar:
      case spv::Op::OpMatrixTimesVector:
      case spv::Op::OpVectorTimesMatrix:
      case spv::Op::OpMatrixTimesScalar:
      case spv::Op::OpDot:
      case spv::Op::OpIAdd:
      case spv::Op::OpISub:
      case spv::Op::OpIMul:
      case spv::Op::OpSNegate:
      case spv::Op::OpConvertSToF:
      case spv::Op::OpConvertUToF:
      case spv::Op::OpConvertFToS:
      case spv::Op::OpConvertFToU:
      case spv::Op::OpFConvert:
      case spv::Op::OpBitcast:
        // Pure: the same operands give the same value. Literal operands
        // (OpCompositeExtract's indices, OpVectorShuffle's components) are
        // not ids and are skipped by the type of the operand.
        for (uint32_t i = 0; i < def->NumInOperands(); ++i) {
          if (def->GetInOperand(i).type != SPV_OPERAND_TYPE_ID) continue;
          if (!SameBefore(def->GetSingleWordInOperand(i), depth + 1)) return false;
        }
        return true;
      default:
        return false;
    }
  }

  // A load through |pointer| reads the same inside the statement as before
  // it: the variable is read-only, or written before the statement and not
  // inside it; the indices into it are the same too.
  bool StableVariable(uint32_t pointer, int depth) const {
    const Instruction* at = lint_.index.Def(pointer);
    while (at != nullptr && (at->opcode() == spv::Op::OpAccessChain ||
                             at->opcode() == spv::Op::OpInBoundsAccessChain)) {
      for (uint32_t i = 1; i < at->NumInOperands(); ++i) {
        if (!SameBefore(at->GetSingleWordInOperand(i), depth + 1)) return false;
      }
      at = lint_.index.Def(at->GetSingleWordInOperand(0));
    }
    if (at == nullptr) return false;
    const Instruction* root = at;
    bool written_before = false;
    bool any_call_inside = false;
    for (uint32_t b = 0; b < writes_.size(); ++b) {
      const Writes& writes = writes_[b];
      const bool writes_root = writes.variables.count(root) != 0;
      if (Inside(b)) {
        if (writes_root) return false;
        any_call_inside |= writes.call;
      } else if (writes_root && dom_.Dominates(b, start_)) {
        written_before = true;
      }
    }
    if (root->opcode() == spv::Op::OpFunctionParameter) return true;
    if (root->opcode() != spv::Op::OpVariable) return false;
    switch (static_cast<spv::StorageClass>(root->GetSingleWordInOperand(0))) {
      case spv::StorageClass::Input:
      case spv::StorageClass::Uniform:
      case spv::StorageClass::UniformConstant:
      case spv::StorageClass::PushConstant:
        return true;
      case spv::StorageClass::Function:
        return written_before;
      case spv::StorageClass::Private:
        // A call may write it.
        return !any_call_inside && (written_before || root->NumInOperands() > 1);
      default:
        return false;
    }
  }

  const lint::LintContext& lint_;
  analysis::FunctionCfg cfg_;
  analysis::DominatorTree dom_;
  std::vector<Writes> writes_;  // by block index
  uint32_t start_ = 0;          // the block that starts the statement being checked
};

}  // namespace

std::vector<GradientHoist> FindGradientHoists(spvtools::opt::IRContext& context,
                                              const UniformityInfo& info,
                                              const LintOptions& options) {
  const lint::LintContext lint(context, info, options.input_path, &options.unsaved_files);
  std::vector<GradientHoist> hoists;
  for (const spvtools::opt::Function& function : *context.module()) {
    HoistFinder(lint, function).Find(function, &hoists);
  }
  return hoists;
}

}  // namespace spirv_conv
