// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/named_invocations.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lint/branch_idioms.h"
#include "source/opt/dominator_analysis.h"

namespace spirv_conv {
namespace lint {
namespace {

using spv::Op;
using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

constexpr uint32_t kMaxSubgroupSize = 128;  // Vulkan: SubgroupSize is at most 128
constexpr uint32_t kMaxDepth = 64;          // operand chains deeper than this are unknown
constexpr int kMaxRounds = 6;               // refinements of the active set per lane
constexpr uint32_t kMaxSteps = 4096;        // Require and Constrain calls per round

// The bits of one component known to be zero and known to be one.
struct Word {
  uint64_t zero = 0;
  uint64_t one = 0;
};

// A value at one invocation, bit by bit: |count| components of |width| bits
// (1 for booleans). Width 0: a type the evaluation does not model.
struct Value {
  uint32_t width = 0;
  uint32_t count = 0;
  std::array<Word, 4> c{};

  uint64_t Mask() const { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }
  bool Modelled() const { return width != 0 && count != 0; }
  bool Exact(uint32_t k) const { return ((c[k].zero | c[k].one) & Mask()) == Mask(); }
  bool Exact() const {
    if (!Modelled()) return false;
    for (uint32_t k = 0; k < count; ++k) {
      if (!Exact(k)) return false;
    }
    return true;
  }
  void Set(uint32_t k, uint64_t bits) { c[k] = {~bits & Mask(), bits & Mask()}; }
};

Value Unknown(uint32_t width, uint32_t count) {
  Value v;
  v.width = width;
  v.count = count;
  return v;
}

Value Scalar(uint32_t width, uint64_t bits) {
  Value v = Unknown(width, 1);
  v.Set(0, bits);
  return v;
}

Value Boolean(bool b) { return Scalar(1, b ? 1 : 0); }

bool Conflicts(const Value& a, const Value& b) {
  if (!a.Modelled() || !b.Modelled() || a.width != b.width || a.count != b.count) return false;
  for (uint32_t k = 0; k < a.count; ++k) {
    if ((a.c[k].one & b.c[k].zero) | (a.c[k].zero & b.c[k].one)) return true;
  }
  return false;
}

// What both say; false if they contradict each other.
bool MergeInto(const Value& known, Value* into) {
  if (Conflicts(known, *into)) return false;
  for (uint32_t k = 0; k < into->count && k < known.count; ++k) {
    into->c[k].zero |= known.c[k].zero;
    into->c[k].one |= known.c[k].one;
  }
  return true;
}

// What is known of either: the bits both agree on.
Value Common(const Value& a, const Value& b) {
  Value v = Unknown(a.width, a.count);
  for (uint32_t k = 0; k < a.count; ++k) {
    v.c[k] = {a.c[k].zero & b.c[k].zero, a.c[k].one & b.c[k].one};
  }
  return v;
}

int64_t SignExtend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

// The bits [lo, hi) of a 128-bit mask, as four 32-bit words.
Value MaskRange(uint32_t lo, uint32_t hi) {
  Value v = Unknown(32, 4);
  for (uint32_t k = 0; k < 4; ++k) {
    uint64_t bits = 0;
    for (uint32_t b = 0; b < 32; ++b) {
      const uint32_t bit = 32 * k + b;
      if (bit >= lo && bit < hi) bits |= uint64_t{1} << b;
    }
    v.Set(k, bits);
  }
  return v;
}

// The facts one reader's path establishes: what each ballot holds.
using Facts = std::unordered_map<uint32_t, Value>;

// What a required condition is, for the evaluation and for the witness.
struct Condition {
  uint32_t id;
  bool value;
  const Instruction* branch;
};

// The module facts one evaluation reads.
struct Module {
  spvtools::opt::IRContext& context;
  const analysis::ModuleIndex& index;
  const analysis::BlockTable& blocks;
  const analysis::UseTable& uses;
  const UniformityInfo& info;
  const spvtools::opt::DominatorAnalysis& dominators;
  std::vector<uint32_t> cycle_blocks;    // sorted labels of the function's cycles
  std::array<bool, 8> full_subgroups{};  // by log2 of the subgroup size

  bool InCycle(uint32_t label) const {
    return std::binary_search(cycle_blocks.begin(), cycle_blocks.end(), label);
  }
  bool InCycle(const Instruction& inst) const {
    const BasicBlock* block = blocks.Of(inst);
    return block == nullptr || InCycle(block->id());
  }
  bool Full(uint32_t size) const {
    uint32_t log = 0;
    while ((1u << log) < size) ++log;
    return log < full_subgroups.size() && full_subgroups[log];
  }
};

// One invocation's values at one subgroup size.
class Lane {
 public:
  // |shared_ballots_only|: read only the facts of ballots in uniform control
  // flow, which every active invocation executes together, as another
  // invocation than the one whose path produced |facts| sees them.
  // |budget|: the steps (values computed, conditions and equalities
  // learnt) the module's evaluations may still take; at zero the lane is
  // unmodelled.
  Lane(const Module& module, uint32_t size, uint32_t lane, Facts* facts, bool shared_ballots_only,
       uint64_t* budget)
      : m_(module),
        size_(size),
        lane_(lane),
        facts_(facts),
        shared_only_(shared_ballots_only),
        budget_(budget) {}

  bool contradiction() const { return contradiction_; }
  bool unmodelled() const { return unmodelled_; }
  bool TakeChanged() { return std::exchange(changed_, false); }
  // A new round: values are computed again from the facts learnt so far.
  void Forget() {
    memo_.clear();
    required_.clear();
    steps_ = 0;
  }

  Value Eval(uint32_t id) {
    if (auto it = memo_.find(id); it != memo_.end()) return it->second;
    if (depth_ >= kMaxDepth || !Spend()) return {};
    const Deeper deeper(&depth_);
    Value v = Compute(id);
    memo_[id] = v;
    return v;
  }

  // Learns what holds if condition |id| has |value|.
  void Require(uint32_t id, bool value) {
    // Each condition once a round (conditions share operands), and a bounded
    // number of steps: learning less is only less precise.
    if (depth_ >= kMaxDepth || ++steps_ > kMaxSteps || !Spend() ||
        !required_.insert({id, value}).second) {
      return;
    }
    const Deeper deeper(&depth_);
    const Value now = Eval(id);
    if (now.Exact()) {
      if ((now.c[0].one & 1) != (value ? 1u : 0u)) contradiction_ = true;
      return;
    }
    const Instruction* def = m_.index.Def(id);
    if (def == nullptr) return;
    switch (def->opcode()) {
      case Op::OpLogicalNot:
        Require(Operand(*def, 0), !value);
        return;
      case Op::OpLogicalAnd:
      case Op::OpLogicalOr:
        if (value == (def->opcode() == Op::OpLogicalAnd)) {
          Require(Operand(*def, 0), value);
          Require(Operand(*def, 1), value);
        }
        return;
      case Op::OpPhi:
        if (const auto sc = ShortCircuit(*def); sc && value == sc->is_and) {
          Require(sc->first, value);
          Require(sc->second, value);
        }
        return;
      case Op::OpIEqual:
      case Op::OpINotEqual:
      case Op::OpLogicalEqual:
      case Op::OpLogicalNotEqual:
        if (value == (def->opcode() == Op::OpIEqual || def->opcode() == Op::OpLogicalEqual)) {
          Equal(Operand(*def, 0), Operand(*def, 1));
        }
        return;
      case Op::OpAll:
      case Op::OpAny:
        // All components equal, or none different.
        if (const Instruction* cmp = m_.index.Def(Operand(*def, 0))) {
          const bool all = def->opcode() == Op::OpAll;
          if (value == all && ((all && cmp->opcode() == Op::OpIEqual) ||
                               (!all && cmp->opcode() == Op::OpINotEqual))) {
            Equal(Operand(*cmp, 0), Operand(*cmp, 1));
          }
        }
        return;
      default:
        return;
    }
  }

  // The invocation |inst| names, at this invocation.
  Value NamedBy(const Instruction& inst) {
    const Value self = Scalar(32, lane_);
    switch (inst.opcode()) {
      case Op::OpGroupNonUniformBroadcast:
      case Op::OpGroupNonUniformShuffle:
        return Narrow(Eval(Operand(inst, 2)));
      case Op::OpGroupNonUniformShuffleXor:
        return Arith(Op::OpBitwiseXor, self, Narrow(Eval(Operand(inst, 2))));
      case Op::OpGroupNonUniformShuffleUp:
        return Arith(Op::OpISub, self, Narrow(Eval(Operand(inst, 2))));
      case Op::OpGroupNonUniformShuffleDown:
        return Arith(Op::OpIAdd, self, Narrow(Eval(Operand(inst, 2))));
      case Op::OpGroupNonUniformRotateKHR:
        if (inst.NumInOperands() != 3) return {};  // clustered: not modelled
        return Arith(Op::OpUMod, Arith(Op::OpIAdd, self, Narrow(Eval(Operand(inst, 2)))),
                     Scalar(32, size_));
      case Op::OpSubgroupReadInvocationKHR:
        return Narrow(Eval(Operand(inst, 1)));
      default:
        return {};
    }
  }

 private:
  bool Spend() {
    if (*budget_ == 0) {
      unmodelled_ = true;
      return false;
    }
    --*budget_;
    return true;
  }

  // One level more of Eval, Require and Constrain, which recurse through
  // operands: every chain is cut at kMaxDepth.
  struct Deeper {
    explicit Deeper(uint32_t* depth) : depth_(depth) { ++*depth_; }
    ~Deeper() { --*depth_; }
    uint32_t* depth_;
  };

  struct ShortCircuitPhi {
    uint32_t first;
    uint32_t second;
    bool is_and;
  };

  uint32_t Operand(const Instruction& inst, uint32_t k) const {
    return k < inst.NumInOperands() ? inst.GetSingleWordInOperand(k) : 0;
  }

  // A 32-bit view of an invocation index of any integer width.
  Value Narrow(const Value& v) const {
    if (!v.Exact() || v.count != 1) return {};
    const uint64_t bits = v.c[0].one;
    return bits > UINT32_MAX ? Scalar(32, UINT32_MAX) : Scalar(32, bits);
  }

  Value ShapeOf(uint32_t type_id) const {
    const Instruction* type = m_.index.Def(type_id);
    if (type == nullptr) return {};
    switch (type->opcode()) {
      case Op::OpTypeBool:
        return Unknown(1, 1);
      case Op::OpTypeInt: {
        const uint32_t width = type->GetSingleWordInOperand(0);
        return width <= 64 ? Unknown(width, 1) : Value{};
      }
      case Op::OpTypeVector: {
        Value v = ShapeOf(type->GetSingleWordInOperand(0));
        const uint32_t count = type->GetSingleWordInOperand(1);
        if (!v.Modelled() || count > 4) return {};
        v.count = count;
        return v;
      }
      default:
        return {};
    }
  }

  Value Compute(uint32_t id) {
    const Instruction* def = m_.index.Def(id);
    if (def == nullptr) return {};
    const Value shape = ShapeOf(def->type_id());
    if (!shape.Modelled()) return {};
    const Op op = def->opcode();
    switch (op) {
      case Op::OpConstantTrue:
      case Op::OpConstantFalse:
        return Boolean(op == Op::OpConstantTrue);
      case Op::OpConstant: {
        uint64_t bits = 0;
        if (shape.count != 1 || !m_.index.IntegerConstant(id, &bits)) return shape;
        return Scalar(shape.width, bits);
      }
      case Op::OpConstantNull: {
        Value v = shape;
        for (uint32_t k = 0; k < v.count; ++k) v.Set(k, 0);
        return v;
      }
      case Op::OpConstantComposite:
      case Op::OpCompositeConstruct:
        return Construct(*def, shape);
      case Op::OpCopyObject:
        return Eval(Operand(*def, 0));
      case Op::OpLoad:
        return Load(*def, shape);
      case Op::OpBitcast:
        return Reinterpret(Eval(Operand(*def, 0)), shape);
      case Op::OpUConvert:
      case Op::OpSConvert:
        return Convert(Eval(Operand(*def, 0)), shape, op == Op::OpSConvert);
      case Op::OpCompositeExtract: {
        const Value v = Eval(Operand(*def, 0));
        const uint32_t k = Operand(*def, 1);
        if (def->NumInOperands() != 2 || !v.Modelled() || k >= v.count) return shape;
        Value out = Unknown(v.width, 1);
        out.c[0] = v.c[k];
        return out;
      }
      case Op::OpVectorShuffle:
        return Shuffle(*def, shape);
      case Op::OpSelect: {
        const Value cond = Eval(Operand(*def, 0));
        const Value a = Eval(Operand(*def, 1));
        const Value b = Eval(Operand(*def, 2));
        if (!a.Modelled() || !b.Modelled() || !cond.Modelled()) return shape;
        Value out = Common(a, b);
        for (uint32_t k = 0; k < out.count; ++k) {
          const uint32_t ck = cond.count == 1 ? 0 : k;
          if (cond.Exact(ck)) out.c[k] = (cond.c[ck].one & 1) ? a.c[k] : b.c[k];
        }
        return out;
      }
      case Op::OpPhi:
        if (const auto sc = ShortCircuit(*def)) {
          return Arith(sc->is_and ? Op::OpLogicalAnd : Op::OpLogicalOr, Eval(sc->first),
                       Eval(sc->second));
        }
        return shape;
      case Op::OpLogicalNot:
      case Op::OpNot:
        return Not(Eval(Operand(*def, 0)));
      case Op::OpAll:
      case Op::OpAny:
        return Reduce(Eval(Operand(*def, 0)), op == Op::OpAll);
      case Op::OpSubgroupBallotKHR:
        return Ballot(*def, Operand(*def, 0));
      case Op::OpGroupNonUniformBallot:
        if (!SubgroupScope(*def)) return shape;
        return Ballot(*def, Operand(*def, 1));
      case Op::OpGroupNonUniformInverseBallot:
      case Op::OpGroupNonUniformBallotBitExtract: {
        if (!SubgroupScope(*def)) return shape;
        const Value mask = Eval(Operand(*def, 1));
        const Value bit = op == Op::OpGroupNonUniformInverseBallot ? Scalar(32, lane_)
                                                                   : Narrow(Eval(Operand(*def, 2)));
        if (mask.width != 32 || mask.count != 4 || !bit.Exact() || bit.c[0].one >= 128) {
          return shape;
        }
        const uint64_t b = bit.c[0].one;
        const Word& w = mask.c[b / 32];
        const uint64_t m = uint64_t{1} << (b % 32);
        if (w.one & m) return Boolean(true);
        if (w.zero & m) return Boolean(false);
        return shape;
      }
      default:
        break;
    }
    if (def->NumInOperands() == 2) {
      Value out = Arith(op, Eval(Operand(*def, 0)), Eval(Operand(*def, 1)));
      if (out.Modelled() && out.width == shape.width && out.count == shape.count) return out;
    }
    return shape;
  }

  bool SubgroupScope(const Instruction& inst) const {
    uint64_t scope = 0;
    return m_.index.IntegerConstant(Operand(inst, 0), &scope) &&
           scope == static_cast<uint64_t>(spv::Scope::Subgroup);
  }

  Value Construct(const Instruction& def, const Value& shape) {
    Value out = shape;
    uint32_t k = 0;
    for (uint32_t i = 0; i < def.NumInOperands(); ++i) {
      const Value part = Eval(Operand(def, i));
      if (!part.Modelled() || part.width != shape.width) return shape;
      for (uint32_t j = 0; j < part.count; ++j) {
        if (k >= out.count) return shape;
        out.c[k++] = part.c[j];
      }
    }
    return k == out.count ? out : shape;
  }

  Value Shuffle(const Instruction& def, const Value& shape) {
    const Value a = Eval(Operand(def, 0));
    const Value b = Eval(Operand(def, 1));
    if (!a.Modelled() || !b.Modelled()) return shape;
    Value out = shape;
    for (uint32_t k = 0; k < out.count; ++k) {
      const uint32_t index = Operand(def, 2 + k);
      if (index < a.count) {
        out.c[k] = a.c[index];
      } else if (index - a.count < b.count) {
        out.c[k] = b.c[index - a.count];
      }
    }
    return out;
  }

  // The same bits as another shape (OpBitcast between scalars and vectors
  // of equal total width).
  static Value Reinterpret(const Value& v, const Value& shape) {
    if (!v.Modelled() || v.width * v.count != shape.width * shape.count) return shape;
    Value out = shape;
    for (uint32_t bit = 0; bit < v.width * v.count; ++bit) {
      const Word& from = v.c[bit / v.width];
      const uint64_t fm = uint64_t{1} << (bit % v.width);
      Word& to = out.c[bit / shape.width];
      const uint64_t tm = uint64_t{1} << (bit % shape.width);
      if (from.zero & fm) to.zero |= tm;
      if (from.one & fm) to.one |= tm;
    }
    return out;
  }

  static Value Convert(const Value& v, const Value& shape, bool sign_extend) {
    if (!v.Modelled() || v.count != shape.count) return shape;
    Value out = shape;
    const uint64_t mask = out.Mask();
    for (uint32_t k = 0; k < v.count; ++k) {
      Word w = v.c[k];
      if (shape.width > v.width) {
        const uint64_t high = mask & ~v.Mask();
        const uint64_t sign = uint64_t{1} << (v.width - 1);
        if (!sign_extend || (w.zero & sign)) {
          w.zero |= high;
        } else if (w.one & sign) {
          w.one |= high;
        }
      }
      out.c[k] = {w.zero & mask, w.one & mask};
    }
    return out;
  }

  static Value Not(const Value& v) {
    Value out = v;
    for (uint32_t k = 0; k < v.count; ++k) out.c[k] = {v.c[k].one, v.c[k].zero};
    return out;
  }

  static Value Reduce(const Value& v, bool all) {
    if (!v.Modelled() || v.width != 1) return {};
    bool every = true;
    for (uint32_t k = 0; k < v.count; ++k) {
      const bool decided = all ? (v.c[k].zero & 1) : (v.c[k].one & 1);
      if (decided) return Boolean(!all);
      every &= static_cast<bool>(all ? (v.c[k].one & 1) : (v.c[k].zero & 1));
    }
    return every ? Boolean(all) : Unknown(1, 1);
  }

  // A two-operand instruction, component by component: bitwise operations
  // bit by bit, the others when both operands are exact.
  static Value Arith(Op op, const Value& a, const Value& b) {
    if (!a.Modelled() || !b.Modelled() || a.count != b.count) return {};
    const bool comparison =
        op == Op::OpIEqual || op == Op::OpINotEqual || op == Op::OpULessThan ||
        op == Op::OpULessThanEqual || op == Op::OpUGreaterThan || op == Op::OpUGreaterThanEqual ||
        op == Op::OpSLessThan || op == Op::OpSLessThanEqual || op == Op::OpSGreaterThan ||
        op == Op::OpSGreaterThanEqual || op == Op::OpLogicalEqual || op == Op::OpLogicalNotEqual;
    const bool shift = op == Op::OpShiftLeftLogical || op == Op::OpShiftRightLogical;
    if (!shift && a.width != b.width) return {};
    Value out = Unknown(comparison ? 1 : a.width, a.count);
    const uint64_t mask = a.Mask();
    for (uint32_t k = 0; k < a.count; ++k) {
      const Word x = a.c[k];
      const Word y = b.c[k];
      switch (op) {
        case Op::OpBitwiseAnd:
        case Op::OpLogicalAnd:
          out.c[k] = {x.zero | y.zero, x.one & y.one};
          continue;
        case Op::OpBitwiseOr:
        case Op::OpLogicalOr:
          out.c[k] = {x.zero & y.zero, x.one | y.one};
          continue;
        case Op::OpBitwiseXor: {
          const uint64_t known = (x.zero | x.one) & (y.zero | y.one);
          const uint64_t bits = x.one ^ y.one;
          out.c[k] = {~bits & known & mask, bits & known & mask};
          continue;
        }
        case Op::OpIEqual:
        case Op::OpINotEqual:
        case Op::OpLogicalEqual:
        case Op::OpLogicalNotEqual: {
          const bool equal_op = op == Op::OpIEqual || op == Op::OpLogicalEqual;
          if ((x.one & y.zero) | (x.zero & y.one)) {
            out.Set(k, equal_op ? 0 : 1);
          } else if (a.Exact(k) && b.Exact(k)) {
            out.Set(k, equal_op ? 1 : 0);
          }
          continue;
        }
        default:
          break;
      }
      if (!a.Exact(k) || !b.Exact(k)) continue;
      const uint64_t p = x.one;
      const uint64_t q = y.one;
      const int64_t sp = SignExtend(p, a.width);
      const int64_t sq = SignExtend(q, b.width);
      std::optional<uint64_t> r;
      switch (op) {
        case Op::OpIAdd:
          r = p + q;
          break;
        case Op::OpISub:
          r = p - q;
          break;
        case Op::OpIMul:
          r = p * q;
          break;
        case Op::OpUDiv:
          if (q != 0) r = p / q;
          break;
        case Op::OpUMod:
          if (q != 0) r = p % q;
          break;
        case Op::OpShiftLeftLogical:
          if (q < a.width) r = p << q;
          break;
        case Op::OpShiftRightLogical:
          if (q < a.width) r = p >> q;
          break;
        case Op::OpULessThan:
          r = p < q;
          break;
        case Op::OpULessThanEqual:
          r = p <= q;
          break;
        case Op::OpUGreaterThan:
          r = p > q;
          break;
        case Op::OpUGreaterThanEqual:
          r = p >= q;
          break;
        case Op::OpSLessThan:
          r = sp < sq;
          break;
        case Op::OpSLessThanEqual:
          r = sp <= sq;
          break;
        case Op::OpSGreaterThan:
          r = sp > sq;
          break;
        case Op::OpSGreaterThanEqual:
          r = sp >= sq;
          break;
        default:
          break;
      }
      if (r) out.Set(k, *r);
    }
    return out;
  }

  // `a && b` and `a || b` as glslang emits them at -O0: a phi at the merge
  // of a selection on |a| whose other side computes |b|.
  std::optional<ShortCircuitPhi> ShortCircuit(const Instruction& phi) const {
    if (phi.NumInOperands() != 4) return std::nullopt;
    const BasicBlock* merge = m_.blocks.Of(phi);
    if (merge == nullptr) return std::nullopt;
    for (uint32_t side = 0; side < 2; ++side) {
      const uint32_t a = Operand(phi, 2 * side);
      const BasicBlock* test = m_.blocks.OfLabel(Operand(phi, 2 * side + 1));
      const uint32_t b = Operand(phi, 2 * (1 - side));
      const uint32_t other = Operand(phi, 2 * (1 - side) + 1);
      if (test == nullptr) continue;
      const Instruction& branch = *test->ctail();
      if (branch.opcode() != Op::OpBranchConditional || Operand(branch, 0) != a) continue;
      const uint32_t on_true = Operand(branch, 1);
      const uint32_t on_false = Operand(branch, 2);
      const bool is_and = on_false == merge->id() && on_true == other;
      const bool is_or = on_true == merge->id() && on_false == other;
      if (!is_and && !is_or) continue;
      const auto& preds = m_.context.cfg()->preds(other);
      if (preds.size() != 1 || preds[0] != test->id()) continue;
      return ShortCircuitPhi{a, b, is_and};
    }
    return std::nullopt;
  }

  Value Load(const Instruction& load, const Value& shape) {
    const Instruction* pointer = m_.index.Def(Operand(load, 0));
    if (pointer == nullptr) return shape;
    uint32_t component = UINT32_MAX;
    if (pointer->opcode() == Op::OpAccessChain || pointer->opcode() == Op::OpInBoundsAccessChain) {
      uint64_t k = 0;
      if (pointer->NumInOperands() != 2 || !m_.index.IntegerConstant(Operand(*pointer, 1), &k)) {
        return shape;
      }
      component = static_cast<uint32_t>(k);
      pointer = m_.index.Def(Operand(*pointer, 0));
      if (pointer == nullptr) return shape;
    }
    if (pointer->opcode() != Op::OpVariable) return shape;
    const auto storage = static_cast<spv::StorageClass>(pointer->GetSingleWordInOperand(0));
    if (storage == spv::StorageClass::Function && component == UINT32_MAX) {
      const uint32_t stored = StoredBefore(load, pointer->result_id());
      return stored != 0 ? Eval(stored) : shape;
    }
    uint32_t builtin = 0;
    if (storage != spv::StorageClass::Input ||
        !m_.index.DecorationOperand(pointer->result_id(), spv::Decoration::BuiltIn, &builtin)) {
      return shape;
    }
    Value whole = BuiltIn(static_cast<spv::BuiltIn>(builtin));
    if (component != UINT32_MAX) {
      if (!whole.Modelled() || component >= whole.count) return shape;
      Value part = Unknown(whole.width, 1);
      part.c[0] = whole.c[component];
      whole = part;
    }
    if (whole.width != shape.width || whole.count != shape.count) return shape;
    return whole;
  }

  Value BuiltIn(spv::BuiltIn builtin) const {
    using B = spv::BuiltIn;
    switch (builtin) {
      case B::SubgroupLocalInvocationId:
        return Scalar(32, lane_);
      case B::SubgroupSize:
        return Scalar(32, size_);
      // Vulkan: the bits of the invocations in range; "all other bits are
      // set to zero".
      case B::SubgroupEqMask:
        return MaskRange(lane_, lane_ + 1);
      case B::SubgroupGeMask:
        return MaskRange(lane_, size_);
      case B::SubgroupGtMask:
        return MaskRange(lane_ + 1, size_);
      case B::SubgroupLeMask:
        return MaskRange(0, lane_ + 1);
      case B::SubgroupLtMask:
        return MaskRange(0, lane_);
      default:
        return {};
    }
  }

  // The value stored to the Function variable |variable| that |load|
  // reads: its only store, which dominates the load, when the variable is
  // otherwise only loaded. 0 when not known.
  uint32_t StoredBefore(const Instruction& load, uint32_t variable) const {
    const auto stores = PlainLocalStores(m_.index, m_.uses, variable);
    if (!stores || stores->size() != 1) return 0;
    const Instruction* store = stores->front();
    const BasicBlock* store_block = m_.blocks.Of(*store);
    const BasicBlock* load_block = m_.blocks.Of(load);
    if (store_block == nullptr || load_block == nullptr) return 0;
    if (store_block == load_block) {
      return m_.blocks.Position(*store) < m_.blocks.Position(load)
                 ? store->GetSingleWordInOperand(1)
                 : 0;
    }
    return m_.dominators.Dominates(store_block->id(), load_block->id())
               ? store->GetSingleWordInOperand(1)
               : 0;
  }

  bool BallotInUniformControlFlow(const Instruction& ballot) const {
    return m_.info.ControlFlowLevel(ballot) <= Uniformity::kSubgroup;
  }

  // The mask of the active set A: this invocation's bit by its predicate,
  // none at or above the size; every bit when the subgroup is launched full
  // and the ballot of `true` runs in uniform control flow.
  Value Ballot(const Instruction& ballot, uint32_t predicate) {
    if (m_.InCycle(ballot)) {
      unmodelled_ = true;  // one dynamic instance per static ballot is assumed
      return {};
    }
    const bool uniform = BallotInUniformControlFlow(ballot);
    Value v = MaskRange(0, size_);
    for (uint32_t k = 0; k < 4; ++k) v.c[k].one = 0;  // inside the range: unknown
    const Value p = Eval(predicate);
    const uint32_t word = lane_ / 32;
    const uint64_t bit = uint64_t{1} << (lane_ % 32);
    if (p.Exact()) ((p.c[0].one & 1) ? v.c[word].one : v.c[word].zero) |= bit;
    const Instruction* pred = m_.index.Def(predicate);
    if (uniform && pred != nullptr && pred->opcode() == Op::OpConstantTrue && m_.Full(size_)) {
      v = MaskRange(0, size_);
    }
    if (shared_only_ && !uniform) return v;
    auto [it, inserted] = facts_->emplace(ballot.result_id(), v);
    if (!inserted && !MergeInto(v, &it->second)) contradiction_ = true;
    return it->second;
  }

  // Learns that |a| and |b| are equal.
  void Equal(uint32_t a, uint32_t b) {
    const Value va = Eval(a);
    const Value vb = Eval(b);
    Constrain(a, vb);
    Constrain(b, va);
  }

  // Learns that |id| has the bits |known| says.
  void Constrain(uint32_t id, const Value& known) {
    if (!known.Modelled() || contradiction_ || depth_ >= kMaxDepth || ++steps_ > kMaxSteps ||
        !Spend()) {
      return;
    }
    const Deeper deeper(&depth_);
    if (Conflicts(Eval(id), known)) {
      contradiction_ = true;
      return;
    }
    const Instruction* def = m_.index.Def(id);
    if (def == nullptr) return;
    switch (def->opcode()) {
      case Op::OpCopyObject:
        Constrain(Operand(*def, 0), known);
        return;
      case Op::OpLoad: {
        const Instruction* pointer = m_.index.Def(Operand(*def, 0));
        if (pointer != nullptr && pointer->opcode() == Op::OpVariable &&
            pointer->GetSingleWordInOperand(0) ==
                static_cast<uint32_t>(spv::StorageClass::Function)) {
          if (const uint32_t stored = StoredBefore(*def, pointer->result_id())) {
            Constrain(stored, known);
          }
        }
        return;
      }
      case Op::OpBitcast: {
        const Value from = Eval(Operand(*def, 0));
        if (from.Modelled())
          Constrain(Operand(*def, 0), Reinterpret(known, Unknown(from.width, from.count)));
        return;
      }
      case Op::OpCompositeConstruct: {
        uint32_t k = 0;
        for (uint32_t i = 0; i < def->NumInOperands(); ++i) {
          const Value part = Eval(Operand(*def, i));
          if (!part.Modelled() || part.width != known.width) return;
          Value slice = Unknown(part.width, part.count);
          for (uint32_t j = 0; j < part.count && k < known.count; ++j) slice.c[j] = known.c[k++];
          Constrain(Operand(*def, i), slice);
        }
        return;
      }
      case Op::OpCompositeExtract: {
        const Value whole = Eval(Operand(*def, 0));
        const uint32_t k = Operand(*def, 1);
        if (def->NumInOperands() != 2 || !whole.Modelled() || k >= whole.count) return;
        Value slice = Unknown(whole.width, whole.count);
        slice.c[k] = known.c[0];
        Constrain(Operand(*def, 0), slice);
        return;
      }
      case Op::OpVectorShuffle: {
        const Value a = Eval(Operand(*def, 0));
        const Value b = Eval(Operand(*def, 1));
        if (!a.Modelled() || !b.Modelled()) return;
        Value sa = Unknown(a.width, a.count);
        Value sb = Unknown(b.width, b.count);
        for (uint32_t k = 0; k < known.count; ++k) {
          const uint32_t index = Operand(*def, 2 + k);
          if (index < a.count) {
            sa.c[index] = known.c[k];
          } else if (index - a.count < b.count) {
            sb.c[index - a.count] = known.c[k];
          }
        }
        Constrain(Operand(*def, 0), sa);
        Constrain(Operand(*def, 1), sb);
        return;
      }
      case Op::OpSubgroupBallotKHR:
      case Op::OpGroupNonUniformBallot: {
        if (shared_only_) return;
        auto it = facts_->find(id);
        if (it == facts_->end()) return;  // not evaluated: not a modelled ballot
        const Value before = it->second;
        if (!MergeInto(known, &it->second)) {
          contradiction_ = true;
          return;
        }
        for (uint32_t k = 0; k < before.count; ++k) {
          if (before.c[k].zero != it->second.c[k].zero || before.c[k].one != it->second.c[k].one) {
            changed_ = true;
          }
        }
        return;
      }
      default:
        return;
    }
  }

  const Module& m_;
  const uint32_t size_;
  const uint32_t lane_;
  Facts* facts_;
  const bool shared_only_;
  uint64_t* budget_;
  std::unordered_map<uint32_t, Value> memo_;
  std::set<std::pair<uint32_t, bool>> required_;  // this round's Require calls
  uint32_t steps_ = 0;                            // this round's Require and Constrain calls
  uint32_t depth_ = 0;
  bool contradiction_ = false;
  bool unmodelled_ = false;
  bool changed_ = false;
};

// The conditions every path to |block| decides one way: the branch of each
// dominator one of whose sides leads to |block| only through that edge.
std::vector<Condition> RequiredConditions(spvtools::opt::IRContext& context,
                                          const spvtools::opt::DominatorAnalysis& dominators,
                                          const BasicBlock& block) {
  std::vector<Condition> conditions;
  const BasicBlock* cur = &block;
  while (const BasicBlock* dom = dominators.ImmediateDominator(cur)) {
    const Instruction& branch = *dom->ctail();
    if (branch.opcode() == Op::OpBranchConditional &&
        branch.GetSingleWordInOperand(1) != branch.GetSingleWordInOperand(2)) {
      for (uint32_t side = 0; side < 2; ++side) {
        const uint32_t target = branch.GetSingleWordInOperand(1 + side);
        const auto& preds = context.cfg()->preds(target);
        if (preds.size() == 1 && preds[0] == dom->id() && dominators.Dominates(target, cur->id())) {
          conditions.push_back({branch.GetSingleWordInOperand(0), side == 0, &branch});
        }
      }
    }
    cur = dom;
  }
  return conditions;
}

// Full subgroups (Vulkan, SubgroupLocalInvocationId): SPIR-V 1.6 and a
// local size X that the subgroup size divides, for every entry point. The
// pipeline flag that also enables them is not in the module.
std::array<bool, 8> FullSubgroups(spvtools::opt::IRContext& context) {
  std::array<bool, 8> full{};
  if (context.module()->version() < 0x00010600u) return full;
  std::unordered_map<uint32_t, uint32_t> local_size_x;
  for (const Instruction& mode : context.module()->execution_modes()) {
    if (mode.opcode() == Op::OpExecutionMode &&
        mode.GetSingleWordInOperand(1) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
      local_size_x[mode.GetSingleWordInOperand(0)] = mode.GetSingleWordInOperand(2);
    }
  }
  for (const Instruction& a : context.module()->annotations()) {
    if (a.opcode() == Op::OpDecorate &&
        a.GetSingleWordInOperand(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
        a.GetSingleWordInOperand(2) == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
      return full;  // the size comes from a constant the modes do not show
    }
  }
  for (uint32_t log = 0; log < full.size(); ++log) {
    bool all = true;
    for (const Instruction& entry : context.module()->entry_points()) {
      const auto model = static_cast<spv::ExecutionModel>(entry.GetSingleWordInOperand(0));
      const bool compute = model == spv::ExecutionModel::GLCompute ||
                           model == spv::ExecutionModel::TaskEXT ||
                           model == spv::ExecutionModel::MeshEXT;
      const auto it = local_size_x.find(entry.GetSingleWordInOperand(1));
      all &= compute && it != local_size_x.end() && it->second % (1u << log) == 0;
    }
    full[log] = all && !context.module()->entry_points().empty();
  }
  return full;
}

bool Modelled(const Instruction& inst) {
  switch (inst.opcode()) {
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
    case Op::OpGroupNonUniformRotateKHR:
    case Op::OpSubgroupReadInvocationKHR:
      return true;
    default:
      return false;
  }
}

}  // namespace

NamedRead NamedInvocations::Of(const Instruction& inst) const {
  if (!Modelled(inst) || !context_.get_feature_mgr()->HasCapability(spv::Capability::Shader)) {
    return {};
  }
  if (inst.opcode() != Op::OpSubgroupReadInvocationKHR) {
    uint64_t scope = 0;
    if (!index_.IntegerConstant(inst.GetSingleWordInOperand(0), &scope) ||
        scope != static_cast<uint64_t>(spv::Scope::Subgroup)) {
      return {};
    }
  }
  const BasicBlock* block = blocks_.Of(inst);
  if (block == nullptr) return {};
  spvtools::opt::Function* function = block->GetParent();
  Module module{context_, index_,
                blocks_,  uses_,
                info_,    *context_.GetDominatorAnalysis(function),
                {},       FullSubgroups(context_)};
  for (const UniformityCycle& cycle : info_.Cycles(function->result_id())) {
    module.cycle_blocks.insert(module.cycle_blocks.end(), cycle.blocks.begin(), cycle.blocks.end());
  }
  std::sort(module.cycle_blocks.begin(), module.cycle_blocks.end());
  if (module.InCycle(block->id())) return {};
  const std::vector<Condition> conditions = RequiredConditions(context_, module.dominators, *block);

  bool every_reader_itself = true;
  std::optional<NamedRead> witness;
  // The most telling witness: one that needs no inactive invocation, then
  // another path before an inactive invocation, then the fewest inactive
  // ones; the largest size among equals.
  auto key = [](const NamedRead& read) {
    const int why = read.why == NamedRead::Why::kOtherPath ? 0 : 1;
    return std::make_tuple(!read.inactive.empty(), why, read.inactive.size(),
                           -static_cast<int64_t>(read.subgroup_size));
  };
  auto offer = [&](const NamedRead& read) {
    if (!witness || key(read) < key(*witness)) witness = read;
  };
  // SPV_KHR_shader_ballot carries GL_ARB_shader_ballot, whose masks and
  // ballots are 64-bit (uint64_t): its subgroups have at most 64
  // invocations.
  const uint32_t max_size =
      context_.get_feature_mgr()->HasCapability(spv::Capability::SubgroupBallotKHR)
          ? 64
          : kMaxSubgroupSize;
  for (uint32_t size = max_size; size >= 1; size /= 2) {
    for (uint32_t reader = 0; reader < size; ++reader) {
      Facts facts;
      Lane lane(module, size, reader, &facts, /*shared_ballots_only=*/false, &budget_);
      for (int round = 0; round < kMaxRounds && !lane.contradiction(); ++round) {
        lane.Forget();
        for (const Condition& c : conditions) lane.Require(c.id, c.value);
        if (!lane.TakeChanged()) break;
      }
      if (lane.unmodelled()) return {};
      if (lane.contradiction()) continue;  // this reader cannot reach |inst|
      lane.Forget();
      bool reaches = true;
      for (const Condition& c : conditions) {
        const Value v = lane.Eval(c.id);
        if (v.Exact() && (v.c[0].one & 1) != (c.value ? 1u : 0u)) reaches = false;
      }
      if (!reaches || lane.contradiction()) continue;
      const Value named = lane.NamedBy(inst);
      if (lane.unmodelled()) return {};
      if (named.Exact() && named.c[0].one == reader) continue;
      every_reader_itself = false;
      if (!named.Exact()) continue;
      NamedRead read;
      read.kind = NamedRead::Kind::kOutside;
      read.subgroup_size = size;
      read.reader = reader;
      read.named = static_cast<uint32_t>(named.c[0].one);
      // An invocation the subgroup does not have is named at that size
      // whatever the control flow: not a witness of this rule.
      if (read.named >= size) continue;
      // Inactive: out of the active set of a ballot of `true` that every
      // active invocation executes together.
      std::vector<bool> inactive(size, false);
      for (const auto& [ballot, mask] : facts) {
        const Instruction* def = index_.Def(ballot);
        const Instruction* pred = index_.Def(
            def->GetSingleWordInOperand(def->opcode() == Op::OpSubgroupBallotKHR ? 0 : 1));
        if (pred == nullptr || pred->opcode() != Op::OpConstantTrue ||
            info_.ControlFlowLevel(*def) > Uniformity::kSubgroup) {
          continue;
        }
        for (uint32_t k = 0; k < size; ++k) {
          if (mask.c[k / 32].zero & (uint64_t{1} << (k % 32))) inactive[k] = true;
        }
      }
      for (uint32_t k = 0; k < size; ++k) {
        if (inactive[k]) read.inactive.push_back(k);
      }
      if (inactive[read.named]) {
        read.why = NamedRead::Why::kInactive;
        offer(read);
      }
      // Another path: the named invocation fails a condition, with what
      // every active invocation sees of the ballots.
      Facts shared = facts;
      Lane other(module, size, read.named, &shared, /*shared_ballots_only=*/true, &budget_);
      for (const Condition& c : conditions) {
        const Value v = other.Eval(c.id);
        if (!other.contradiction() && v.Exact() && (v.c[0].one & 1) != (c.value ? 1u : 0u)) {
          read.why = NamedRead::Why::kOtherPath;
          read.branch = c.branch;
          offer(read);
          // Sizes come largest first: no later witness ranks above this.
          if (read.inactive.empty()) return *witness;
          break;
        }
      }
    }
    if (size == 1) break;
  }
  if (every_reader_itself) return {NamedRead::Kind::kItself};
  return witness ? *witness : NamedRead{};
}

}  // namespace lint
}  // namespace spirv_conv
