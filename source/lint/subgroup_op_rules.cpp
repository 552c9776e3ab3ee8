// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The rules on group operations whose result depends on the active
// invocations (the co-convergent class), executed in control flow that is
// not uniform at their scope. Each such operation is in exactly one case,
// the first that applies (docs/rules/README.md, "Subgroup operations"):
//
//   group-op-divergent-cf            a classic OpGroup* operation: undefined
//                                    there (error)
//   subgroup-op-inactive-invocation  it reads a named other invocation,
//                                    which may be inactive (warning)
//   subgroup-op-after-rejoin         divergent paths rejoined before it in
//                                    control flow that is still not uniform,
//                                    without MaximallyReconvergesKHR (warning)
//   subgroup-op-divergent-call       uniform within its function, which is
//                                    called in non-uniform control flow
//                                    (warning)
//   subgroup-op-divergent-cf         inside divergent control flow, the
//                                    idioms: ballots in an if, elect-then-
//                                    atomic, waterfall loops (note; not
//                                    under MaximallyReconvergesKHR, which
//                                    defines these tangles)
//
// Set-agnostic operations (branch_idioms.h: waterfall broadcasts, scalarized
// bounds) are in none: they are written for whichever invocations execute
// them together.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

enum class Case : uint8_t {
  kNone,
  kGroupOperation,
  kInactiveInvocation,
  kAfterRejoin,
  kDivergentCall,
  kDivergentCf,
};

// Defined on the active invocations: OpGroupNonUniform*, the AMD
// OpGroup*NonUniformAMD and the OpSubgroup* extension instructions.
bool DefinedOnActiveInvocations(const std::string& opcode) {
  return opcode.rfind("OpGroupNonUniform", 0) == 0 || opcode.rfind("OpSubgroup", 0) == 0 ||
         opcode.find("NonUniformAMD") != std::string::npos;
}

struct Classified {
  Case kind = Case::kNone;
  Rejoin rejoin;  // for kAfterRejoin
};

Classified Classify(const LintContext& lint, const Instruction& inst,
                    const analysis::ConvergenceClass& cls, Uniformity required) {
  if (!DefinedOnActiveInvocations(diagnostics::OpcodeName(inst)))
    return {Case::kGroupOperation, {}};
  if (cls.Has(analysis::kReadsOtherInvocation)) return {Case::kInactiveInvocation, {}};
  if (lint.idioms.IsSetAgnostic(inst)) return {};
  const Tangle tangle = lint.tangles.Of(inst, required);
  switch (tangle.kind) {
    case TangleCase::kAfterRejoin:
      return {Case::kAfterRejoin, tangle.rejoin};
    case TangleCase::kCallSites:
      return {Case::kDivergentCall, {}};
    case TangleCase::kPath:
      break;
  }
  const uint32_t function = lint.blocks.FunctionOf(inst);
  if (lint.calls.MaximallyReconverges(function)) return {};
  return {Case::kDivergentCf, {}};
}

// The note that says where the paths rejoined.
Note RejoinNote(const LintContext& lint, const Rejoin& rejoin) {
  std::string message;
  switch (rejoin.kind) {
    case Rejoin::Kind::kBranch:
      message =
          "invocations take different paths at this branch, in control flow that is not "
          "uniform, and rejoin before the operation";
      break;
    case Rejoin::Kind::kLoopExit:
      message =
          "invocations leave this loop on different iterations, in control flow that is not "
          "uniform, and rejoin after it";
      break;
    case Rejoin::Kind::kReturn:
      message = "'" + lint.names.Function(rejoin.at->GetSingleWordInOperand(0)) +
                "' returns after divergent paths rejoin in it";
      break;
    case Rejoin::Kind::kCallSite:
      message = "'" + lint.names.Function(lint.blocks.FunctionOf(*rejoin.at)) +
                "' calls it here, after divergent paths rejoined";
      break;
    case Rejoin::Kind::kNone:
      break;
  }
  return {message, lint.locator.At(*rejoin.at)};
}

// Every co-convergent operation of |wanted|'s case, reported with |verdict|.
void CheckCase(const LintContext& lint, const char* rule, Case wanted,
               const std::function<Verdict(const Instruction& inst, const Classified& found,
                                           const std::string& where)>& verdict,
               Findings* out) {
  CheckConvergent(
      lint, rule, analysis::kCoConvergent, [](uint32_t) { return true; },
      [&](const Instruction& inst, const analysis::ConvergenceClass& cls,
          Uniformity required) -> std::optional<Verdict> {
        const Classified found = Classify(lint, inst, cls, required);
        if (found.kind != wanted) return std::nullopt;
        return verdict(inst, found,
                       " in control flow that is not uniform within the " +
                           std::string(diagnostics::ScopeWord(required)));
      },
      out);
}

}  // namespace

void CheckGroupOperations(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kGroupOpRule, Case::kGroupOperation,
      [](const Instruction& inst, const Classified&, const std::string& where) {
        return Verdict{Severity::kError, diagnostics::OpcodeName(inst) + where +
                                             ": every invocation of the scope must execute it "
                                             "together"};
      },
      out);
}

void CheckSubgroupInactiveInvocations(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kSubgroupInactiveRule, Case::kInactiveInvocation,
      [](const Instruction& inst, const Classified&, const std::string& where) {
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) + " reads another invocation's value" + where +
                           ": that invocation may be inactive, and the result is then undefined"};
      },
      out);
}

void CheckSubgroupAfterRejoin(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kSubgroupAfterRejoinRule, Case::kAfterRejoin,
      [&](const Instruction& inst, const Classified& found, const std::string& where) {
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) + " after divergent paths rejoin" + where +
                           ": without MaximallyReconvergesKHR the invocations are not promised "
                           "to execute it together, so its result may cover only some of them",
                       {RejoinNote(lint, found.rejoin)}};
      },
      out);
}

void CheckSubgroupDivergentCalls(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kSubgroupDivergentCallRule, Case::kDivergentCall,
      [&](const Instruction& inst, const Classified&, const std::string& where) {
        const std::string function = lint.names.Function(lint.blocks.FunctionOf(inst));
        return Verdict{Severity::kWarning, diagnostics::OpcodeName(inst) +
                                               " runs with the invocations that called '" +
                                               function + "' together, and it is called" + where +
                                               ": its result covers only those invocations"};
      },
      out);
}

void CheckSubgroupOperations(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kSubgroupOpRule, Case::kDivergentCf,
      [](const Instruction& inst, const Classified&, const std::string& where) {
        return Verdict{Severity::kNote,
                       diagnostics::OpcodeName(inst) + where +
                           ": its result covers the invocations that took the same path to it"};
      },
      out);
}

}  // namespace lint
}  // namespace spirv_conv
