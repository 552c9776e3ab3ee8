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
//                                    which may be inactive (warning; none
//                                    when every invocation that can reach
//                                    it names itself, named_invocations.h)
//   quad-op-divergent-cf             a quad vote (QuadAllKHR/QuadAnyKHR)
//                                    outside quad-uniform control flow
//                                    (warning)
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
// bounds; reads of the reader's own invocation, named_invocations.h) are in
// none: they are written for whichever invocations execute them together.
// Nor are operations whose control flow is non-uniform only because of
// tests of helper-ness, which leave out only invocations whose results do
// not count. A quad operation whose quad is incomplete only because of
// discards is derivative-after-discard's (derivative_after_discard_rule.cpp).

#include <string>
#include <vector>

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

enum class Case : uint8_t {
  kNone,
  kGroupOperation,
  kInactiveInvocation,
  kQuadOperation,
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

// Whether |inst|'s control flow would be uniform at |required| if no
// invocation were a helper: every branch on the way then decides the same
// for all invocations that are not helpers, so they all execute |inst|
// together, and helper invocations' results do not count (their writes are
// discarded; they exist for derivatives). E.g. `if (!gl_HelperInvocation)
// mask = subgroupOr(mask);` (docs/rules/subgroup-op-divergent-cf.md).
bool OnlyHelpersLeftOut(const LintContext& lint, const Instruction& inst, Uniformity required) {
  const UniformityInfo* without = lint.WithoutHelperInvocations();
  return without != nullptr && without->ControlFlowLevel(inst) <= required;
}

struct Classified {
  Case kind = Case::kNone;
  Rejoin rejoin;   // for kAfterRejoin
  NamedRead read;  // for kInactiveInvocation
};

Classified Classify(const LintContext& lint, const Instruction& inst,
                    const analysis::ConvergenceClass& cls, Uniformity required) {
  if (!DefinedOnActiveInvocations(diagnostics::OpcodeName(inst)))
    return {Case::kGroupOperation, {}};
  if (required == Uniformity::kQuad && lint.OnlyDiscardsLeftOut(inst, required)) return {};
  if (cls.Has(analysis::kReadsOtherInvocation)) {
    const NamedRead read = lint.named.Of(inst);
    if (read.kind == NamedRead::Kind::kItself) return {};  // its own value, whatever the set
    return {Case::kInactiveInvocation, {}, read};
  }
  if (cls.scope_operand == analysis::kNoOperand && cls.implied_scope == Uniformity::kQuad) {
    return {Case::kQuadOperation, {}};
  }
  if (lint.idioms.IsSetAgnostic(inst)) return {};
  if (OnlyHelpersLeftOut(lint, inst, required)) return {};
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

// "invocations 0, 32 and 64", at most |shown| of them and how many more.
std::string Invocations(const std::vector<uint32_t>& ids, size_t shown = 4) {
  std::string text = ids.size() == 1 ? "invocation " : "invocations ";
  for (size_t i = 0; i < ids.size() && i < shown; ++i) {
    if (i > 0) text += i + 1 == ids.size() ? " and " : ", ";
    text += std::to_string(ids[i]);
  }
  if (ids.size() > shown) text += " and " + std::to_string(ids.size() - shown) + " more";
  return text;
}

// The note that shows a reader whose named invocation is not with it
// (named_invocations.h).
std::vector<Note> WitnessNotes(const LintContext& lint, const Instruction& inst,
                               const NamedRead& read) {
  if (read.kind != NamedRead::Kind::kOutside) return {};
  std::string at = "at subgroup size " + std::to_string(read.subgroup_size);
  if (!read.inactive.empty()) {
    at += ", with " + Invocations(read.inactive) + " inactive";
  }
  at += ", invocation " + std::to_string(read.reader) + " can execute it";
  const std::string named = Invocations({read.named});
  const std::string launch = read.inactive.empty()
                                 ? ""
                                 : " (unless full subgroups are enabled, a subgroup may be "
                                   "launched with any of its invocations inactive)";
  switch (read.why) {
    case NamedRead::Why::kInactive:
      return {{at + " and reads " + named + launch, lint.locator.At(inst)}};
    case NamedRead::Why::kOtherPath: {
      const Instruction* branch =
          lint.explainer.WithLine(*read.branch, read.branch->GetSingleWordInOperand(0));
      return {{at + " while " + named + ", which it reads, takes the other side of this branch" +
                   launch,
               lint.locator.At(*branch)}};
    }
  }
  return {};
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
      [&](const Instruction& inst, const Classified& found, const std::string& where) {
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) + " reads another invocation's value" + where +
                           ": that invocation may be inactive, and the result is then undefined",
                       WitnessNotes(lint, inst, found.read)};
      },
      out);
}

void CheckQuadOperations(const LintContext& lint, Findings* out) {
  CheckCase(
      lint, kQuadOpRule, Case::kQuadOperation,
      [](const Instruction& inst, const Classified&, const std::string& where) {
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) + where +
                           ": it votes over only the invocations of the quad that took the same "
                           "path, so a branch on its result does not make the quad uniform; vote "
                           "where the quad is still together, before this branch"};
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
