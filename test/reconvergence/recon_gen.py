#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Random structured compute programs with tagged ballots, their GLSL, and an
independent reference model of SPV_KHR_maximal_reconvergence.

A program is a tree of the small statement classes below (Ballot, If, Loop,
Switch, Call, Break, Continue, Return). `generate(seed)` builds one at random,
`to_glsl(program)` prints it as a GLSL compute shader, and
`expected_output(program, subgroup_size)` runs the *reference model* — an
interpreter of the statement tree itself, not of SPIR-V — and returns the
words the two output buffers must hold. The rules the model implements are in
docs/reconvergence-tests.md ("The reference model"); each branch of
`Model._exec` names the rule it follows.

Buffers of every program (set 0):
  binding 0  InputA  { uint stride; uint a[256]; }   stride, then a[i] = i
  binding 1  OutputB { uint b[]; }  records: invocation L's record k is the
             RECORD_WORDS words at ((L * stride) + k) * RECORD_WORDS:
             tag, ballot.x, ballot.y, ballot.z, ballot.w
  binding 2  OutputC { uint loc[]; }  loc[L] = the number of records L wrote

The workgroup is LOCAL_SIZE = 7x13x1 (91 invocations, as in the CTS): no
subgroup size from 4 to 128 divides 91, so the last subgroup is always partial.
Subgroup k holds local invocation indices [k*S, min((k+1)*S, 91)), lane =
index - k*S (the assignment every in-order implementation makes; Vulkan does
not promise it, the simulator and lavapipe do it).

Command line (reproducing a failure):
  recon_gen.py --seed N [--glsl OUT.comp] [--subgroup-size S] [--records]
"""

import argparse
import random
import sys

LOCAL_SIZE = (91, 1, 1)
NUM_INVOCATIONS = LOCAL_SIZE[0] * LOCAL_SIZE[1] * LOCAL_SIZE[2]
RECORD_WORDS = 5
INPUT_VALUES = 256          # InputA.a[i] = i for i < INPUT_VALUES
MAX_RECORDS = 64            # programs needing more records per invocation are redrawn
MAX_STEPS = 200000          # model statements per program and subgroup size
TAG_BASE = 0x10000          # tags are TAG_BASE + the ballot's number
GENERATION_SUBGROUP_SIZES = (4, 8, 16, 32, 64, 128)


# ---------------------------------------------------------------------------
# The program tree.

class Ballot:
    """`storeBallot(tag, subgroupBallot(true))`: one record per active invocation."""

    def __init__(self, tag):
        self.tag = tag


class If:
    """`if (COND) {then} else {orelse}`. kind and arg:
      mask       arg = 128-bit int M: testBit(uvec4(M), gl_SubgroupInvocationID)
      uniform    arg = (k, truth): inputA.a[k] == k (truth) or == k + 1
      loopcount  arg = loop id N: gl_SubgroupInvocationID == iN
      lid        arg = T: gl_LocalInvocationIndex >= inputA.a[T]
      elect      arg = None: subgroupElect()
    """

    def __init__(self, kind, arg, then, orelse=None):
        self.kind, self.arg, self.then, self.orelse = kind, arg, then, orelse or []


class Loop:
    """A loop with counter iN (N = ident). kind and arg:
      for_unif   arg = n: for (iN = 0; iN < inputA.a[n]; iN++)    n may be 0
      for_var    arg = K: for (iN = 0; iN < (lane % K) + 1; iN++)
      for_inf    arg = None: for (iN = 0; ; iN++); the body starts with
                 `if (subgroupElect()) { [ballot] break; }`
      do_unif    arg = n >= 1: iN = 0; do {...} while (++iN < inputA.a[n])
    """

    def __init__(self, kind, ident, arg, body):
        self.kind, self.ident, self.arg, self.body = kind, ident, arg, body


class Switch:
    """`switch (SEL)`; cases = [(labels, body)], labels = [value] or None (default).
    Every case ends in `break` (no fall-through). kind and arg:
      unif       arg = k: switch (inputA.a[k]), selector k for everybody
      lane       arg = None: switch (gl_SubgroupInvocationID & 3u); at most one
                 possible value reaches `default`
      loopcount  arg = loop id N: switch (iN)
    """

    def __init__(self, kind, arg, cases):
        self.kind, self.arg, self.cases = kind, arg, cases


class Call:
    """`funcN();` — the body of funcN is program.functions[N]."""

    def __init__(self, ident):
        self.ident = ident


class Break:
    pass


class Continue:
    pass


class Return:
    pass


class Program:
    def __init__(self, seed, main, functions):
        self.seed = seed
        self.main = main                # list of statements
        self.functions = functions      # {ident: list of statements}


# ---------------------------------------------------------------------------
# The reference model.

class ModelError(Exception):
    """The program needs more steps or records than allowed (the generator redraws it)."""


class _Frame:
    """Where escaping invocations go: a loop, a switch or a function."""

    def __init__(self, kind, ident=None):
        self.kind = kind        # "loop", "switch", "function", "main"
        self.ident = ident      # loop id
        self.i = 0              # loop: the iteration being executed
        self.brk = 0            # invocations that left by break (loop, switch)
        self.cont = 0           # invocations that continue (loop)
        self.ret = 0            # invocations that returned (function)


class Model:
    """Runs one subgroup of a program. Masks are ints: bit l = lane l.
    The active mask passed around *is* the tangle (the set of invocations
    executing the same dynamic instance of a statement)."""

    def __init__(self, program, subgroup_size, base, lanes):
        self.program = program
        self.size = subgroup_size
        self.base = base                      # local invocation index of lane 0
        self.lanes = lanes                    # lanes in this (maybe partial) subgroup
        self.records = [[] for _ in range(lanes)]
        self.steps = 0

    def run(self):
        self._block(self.program.main, (1 << self.lanes) - 1, [_Frame("main")])
        return self.records

    # Statements return the mask that falls through to the next statement.
    def _block(self, stmts, mask, frames):
        for stmt in stmts:
            if not mask:
                break
            mask = self._exec(stmt, mask, frames)
        return mask

    def _exec(self, stmt, mask, frames):
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ModelError("more than %d steps" % MAX_STEPS)
        if isinstance(stmt, Ballot):
            return self._ballot(stmt, mask)
        if isinstance(stmt, If):
            # Divergence at the conditional branch; the two tangles reconverge at
            # the selection's merge block (those that did not escape).
            cond = self._condition(stmt, mask, frames)
            taken, not_taken = mask & cond, mask & ~cond
            merged = 0
            if taken:
                merged |= self._block(stmt.then, taken, frames)
            if not_taken:
                merged |= self._block(stmt.orelse, not_taken, frames)
            return merged
        if isinstance(stmt, Loop):
            return self._loop(stmt, mask, frames)
        if isinstance(stmt, Switch):
            return self._switch(stmt, mask, frames)
        if isinstance(stmt, Call):
            # A new function frame; every invocation that entered the call
            # together is converged again after OpFunctionCall, returned or not.
            frame = _Frame("function")
            out = self._block(self.program.functions[stmt.ident], mask, [frame])
            return out | frame.ret
        if isinstance(stmt, Break):
            # To the innermost loop's or switch's merge block.
            next(f for f in reversed(frames) if f.kind in ("loop", "switch")).brk |= mask
            return 0
        if isinstance(stmt, Continue):
            # To the innermost loop's continue target (through switches).
            next(f for f in reversed(frames) if f.kind == "loop").cont |= mask
            return 0
        if isinstance(stmt, Return):
            # Out of the function; from main: gone for good.
            frames[0].ret |= mask
            return 0
        raise TypeError(stmt)

    def _ballot(self, stmt, mask):
        for lane in range(self.lanes):
            if mask >> lane & 1:
                if len(self.records[lane]) >= MAX_RECORDS:
                    raise ModelError("more than %d records" % MAX_RECORDS)
                self.records[lane].append((stmt.tag, mask))
        return mask

    def _lanes_where(self, predicate):
        mask = 0
        for lane in range(self.lanes):
            if predicate(lane):
                mask |= 1 << lane
        return mask

    def _loop_frame(self, frames, ident):
        return next(f for f in frames if f.kind == "loop" and f.ident == ident)

    def _condition(self, stmt, mask, frames):
        kind, arg = stmt.kind, stmt.arg
        if kind == "mask":
            return arg & ((1 << self.lanes) - 1)
        if kind == "uniform":
            return -1 if arg[1] else 0
        if kind == "loopcount":
            i = self._loop_frame(frames, arg).i
            return (1 << i) if i < self.lanes else 0
        if kind == "lid":
            return self._lanes_where(lambda lane: self.base + lane >= arg)
        if kind == "elect":
            return mask & -mask     # the active invocation with the lowest id
        raise ValueError(kind)

    def _header_condition(self, loop, i):
        """Who of the loop's invocations runs iteration i (for loops: tested first)."""
        if loop.kind == "for_unif":
            return -1 if i < loop.arg else 0
        if loop.kind == "for_var":
            return self._lanes_where(lambda lane: i < lane % loop.arg + 1)
        return -1   # for_inf

    def _loop(self, loop, mask, frames):
        # Each iteration's tangle is every invocation that entered the loop
        # together and is still continuing (reconvergence at the continue
        # target and the header). Those leaving — by the condition or by break,
        # in whatever iteration — reconverge at the merge block.
        frame = _Frame("loop", loop.ident)
        inner = frames + [frame]
        active, left = mask, 0
        i = 0
        while active:
            if loop.kind != "do_unif":
                runs = active & self._header_condition(loop, i)
                left |= active & ~runs
                active = runs
                if not active:
                    break
            frame.i, frame.brk, frame.cont = i, 0, 0
            fell = self._block(loop.body, active, inner)
            left |= frame.brk
            active = fell | frame.cont       # the continue target
            i += 1
            if loop.kind == "do_unif" and not i < loop.arg:
                left |= active
                active = 0
        return left

    def _switch(self, switch, mask, frames):
        # Divergence by case construct; all reconverge at the merge block.
        frame = _Frame("switch")
        inner = frames + [frame]
        selector = self._selectors(switch, frames)
        labelled = {v for labels, _ in switch.cases if labels for v in labels}
        merged, reached = 0, 0
        for labels, body in switch.cases:
            if labels is None:
                case_mask = self._lanes_where(lambda lane: selector(lane) not in labelled)
            else:
                case_mask = self._lanes_where(lambda lane: selector(lane) in labels)
            case_mask &= mask
            reached |= case_mask
            if case_mask:
                merged |= self._block(body, case_mask, inner)
        return merged | frame.brk | (mask & ~reached)

    def _selectors(self, switch, frames):
        if switch.kind == "unif":
            return lambda lane: switch.arg
        if switch.kind == "lane":
            return lambda lane: lane & 3
        i = self._loop_frame(frames, switch.arg).i
        return lambda lane: i


def model_records(program, subgroup_size, num_invocations=NUM_INVOCATIONS):
    """[(tag, ballot as int)] per local invocation index, under maximal reconvergence."""
    records = []
    for base in range(0, num_invocations, subgroup_size):
        lanes = min(subgroup_size, num_invocations - base)
        records += Model(program, subgroup_size, base, lanes).run()
    return records


def stride_for(records):
    """Record slots per invocation in OutputB: the most any invocation writes, plus
    one spare slot that a run writing too many records clamps into."""
    return max(len(r) for r in records) + 1


def expected_buffers(records, stride):
    """The exact words of OutputB and OutputC for these records."""
    out_b = [0] * (len(records) * stride * RECORD_WORDS)
    for lid, recs in enumerate(records):
        for k, (tag, ballot) in enumerate(recs):
            at = (lid * stride + k) * RECORD_WORDS
            out_b[at] = tag
            for w in range(4):
                out_b[at + 1 + w] = (ballot >> (32 * w)) & 0xFFFFFFFF
    out_c = [len(recs) for recs in records]
    return out_b, out_c


def input_words(stride):
    return [stride] + list(range(INPUT_VALUES))


# ---------------------------------------------------------------------------
# The generator.

class _Context:
    """What the statement being generated may refer to."""

    def __init__(self, loops=(), breakable=False, in_function=False):
        self.loops = list(loops)          # loop ids of the enclosing loops, this function
        self.breakable = breakable        # inside a loop or a switch
        self.in_function = in_function

    def with_loop(self, ident):
        return _Context(self.loops + [ident], True, self.in_function)

    def with_switch(self):
        return _Context(self.loops, True, self.in_function)


class Generator:
    """One random program per seed (random.Random(seed) decides everything)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seed = seed

    def program(self):
        """The next program of this seed's random stream."""
        self.max_depth = self.rng.randint(2, 5)
        self.tags = 0
        self.loop_ids = 0
        self.functions = {}
        main = self._block(0, _Context(), min_len=2)
        main.append(self._ballot())
        return Program(self.seed, main, self.functions)

    def _ballot(self):
        self.tags += 1
        return Ballot(TAG_BASE + self.tags)

    def _block(self, depth, ctx, min_len=1, escape_ok=False):
        rng = self.rng
        stmts = [self._statement(depth, ctx) for _ in range(rng.randint(min_len, 3))]
        if escape_ok and rng.random() < 0.35:
            stmts.append(self._escape(ctx))
        return stmts

    def _escape(self, ctx):
        choices = [Return] * 1
        if ctx.breakable:
            choices += [Break] * 3
        if ctx.loops:
            choices += [Continue] * 2
        return self.rng.choice(choices)()

    def _statement(self, depth, ctx):
        rng = self.rng
        if depth >= self.max_depth:
            return self._ballot()
        options = [("ballot", 4), ("if_mask", 4), ("if_uniform", 1), ("if_lid", 1),
                   ("elect", 1), ("switch_unif", 1), ("switch_lane", 1)]
        if ctx.loops:
            options += [("if_loopcount", 2), ("switch_loopcount", 1)]
        if len(ctx.loops) < 3:
            options += [("for_unif", 1), ("for_var", 2), ("for_inf", 1), ("do_unif", 1)]
        if not ctx.in_function and len(self.functions) < 2:
            options += [("call", 1)]
        kind = rng.choices([o for o, _ in options], [w for _, w in options])[0]
        if kind == "ballot":
            return self._ballot()
        if kind.startswith("if") or kind == "elect":
            return self._if(kind, depth, ctx)
        if kind.startswith("switch"):
            return self._switch(kind, depth, ctx)
        if kind == "call":
            return self._call(depth)
        return self._loop(kind, depth, ctx)

    def _if(self, kind, depth, ctx):
        rng = self.rng
        if kind == "if_mask":
            arg = rng.getrandbits(128)
        elif kind == "if_uniform":
            arg = (rng.randrange(INPUT_VALUES - 1), rng.random() < 0.6)
        elif kind == "if_loopcount":
            arg = rng.choice(ctx.loops)
        elif kind == "if_lid":
            arg = rng.randrange(NUM_INVOCATIONS + 1)
        else:
            arg = None
        then = self._block(depth + 1, ctx, escape_ok=True)
        orelse = self._block(depth + 1, ctx, escape_ok=True) if rng.random() < 0.4 else []
        return If(kind[3:] if kind.startswith("if_") else kind, arg, then, orelse)

    def _loop(self, kind, depth, ctx):
        rng = self.rng
        self.loop_ids += 1
        ident = self.loop_ids
        inner = ctx.with_loop(ident)
        arg = {"for_unif": lambda: rng.choice([0, 1, 2, 2, 3]),
               "for_var": lambda: rng.randint(2, 4),
               "for_inf": lambda: None,
               "do_unif": lambda: rng.randint(1, 3)}[kind]()
        body = self._block(depth + 1, inner, escape_ok=True)
        if kind == "for_inf":
            leave = [Break()]
            if rng.random() < 0.5:
                leave.insert(0, self._ballot())
            body.insert(0, If("elect", None, leave))
        return Loop(kind, ident, arg, body)

    def _switch(self, kind, depth, ctx):
        rng = self.rng
        inner = ctx.with_switch()
        if kind == "switch_lane":
            values = [0, 1, 2, 3]
            rng.shuffle(values)
            labelled = values[:rng.randint(1, 4)]
            # `default` may take at most one selector value (several values in
            # one case construct may or may not stay together: not defined).
            default = len(labelled) >= 3 and rng.random() < 0.5
            arg = None
        else:
            labelled = rng.sample(range(4), rng.randint(1, 3))
            default = rng.random() < 0.5
            arg = rng.randrange(4) if kind == "switch_unif" else rng.choice(ctx.loops)
        cases = [([v], self._block(depth + 1, inner, escape_ok=True)) for v in labelled]
        if default:
            cases.insert(rng.randrange(len(cases) + 1),
                         (None, self._block(depth + 1, inner, escape_ok=True)))
        return Switch(kind[len("switch_"):], arg, cases)

    def _call(self, depth):
        ident = len(self.functions) + 1
        self.functions[ident] = None    # reserve the number before generating the body
        self.functions[ident] = self._block(depth + 1, _Context(in_function=True), min_len=2)
        return Call(ident)


def generate(seed):
    """A program for |seed| whose model stays within MAX_STEPS and MAX_RECORDS for
    every subgroup size in GENERATION_SUBGROUP_SIZES (redrawn from the same
    random stream until it does), so the GLSL does not depend on the sizes tested."""
    gen = Generator(seed)
    while True:
        program = gen.program()
        try:
            for size in GENERATION_SUBGROUP_SIZES:
                model_records(program, size)
            return program
        except ModelError:
            continue


# ---------------------------------------------------------------------------
# GLSL.

GLSL_HEADER = """#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Reconvergence program, seed %(seed)d (test/reconvergence/recon_gen.py).
// Expected results: the reference model under SPV_KHR_maximal_reconvergence.
layout(local_size_x = %(x)d, local_size_y = %(y)d, local_size_z = %(z)d) in;
layout(set = 0, binding = 0, std430) readonly buffer InputA { uint stride; uint a[]; } inputA;
layout(set = 0, binding = 1, std430) buffer OutputB { uint b[]; } outputB;
layout(set = 0, binding = 2, std430) buffer OutputC { uint loc[]; } outputC;

bool testBit(uvec4 mask, uint bit) {
    return ((mask[bit >> 5u] >> (bit & 31u)) & 1u) != 0u;
}

void storeBallot(uint tag, uvec4 ballot) {
    uint lid = gl_LocalInvocationIndex;
    uint slot = min(outputC.loc[lid], inputA.stride - 1u);
    outputC.loc[lid] = outputC.loc[lid] + 1u;
    uint at = (lid * inputA.stride + slot) * %(words)du;
    outputB.b[at] = tag;
    outputB.b[at + 1u] = ballot.x;
    outputB.b[at + 2u] = ballot.y;
    outputB.b[at + 3u] = ballot.z;
    outputB.b[at + 4u] = ballot.w;
}
"""


def _mask_text(mask):
    words = [(mask >> (32 * w)) & 0xFFFFFFFF for w in range(4)]
    return "uvec4(%s)" % ", ".join("0x%08xu" % w for w in words)


def _condition_text(stmt):
    if stmt.kind == "mask":
        return "testBit(%s, gl_SubgroupInvocationID)" % _mask_text(stmt.arg)
    if stmt.kind == "uniform":
        k, truth = stmt.arg
        return "inputA.a[%d] == %du" % (k, k if truth else k + 1)
    if stmt.kind == "loopcount":
        return "gl_SubgroupInvocationID == i%d" % stmt.arg
    if stmt.kind == "lid":
        return "gl_LocalInvocationIndex >= inputA.a[%d]" % stmt.arg
    return "subgroupElect()"


def _emit_block(stmts, indent, out):
    for stmt in stmts:
        _emit(stmt, indent, out)


def _ends_in_escape(stmts):
    return bool(stmts) and isinstance(stmts[-1], (Break, Continue, Return))


def _emit(stmt, indent, out):
    pad = "    " * indent
    if isinstance(stmt, Ballot):
        out.append("%sstoreBallot(0x%xu, subgroupBallot(true));" % (pad, stmt.tag))
    elif isinstance(stmt, If):
        out.append("%sif (%s) {" % (pad, _condition_text(stmt)))
        _emit_block(stmt.then, indent + 1, out)
        if stmt.orelse:
            out.append("%s} else {" % pad)
            _emit_block(stmt.orelse, indent + 1, out)
        out.append("%s}" % pad)
    elif isinstance(stmt, Loop):
        _emit_loop(stmt, indent, out)
    elif isinstance(stmt, Switch):
        selector = {"unif": lambda: "inputA.a[%d]" % stmt.arg,
                    "lane": lambda: "gl_SubgroupInvocationID & 3u",
                    "loopcount": lambda: "i%d" % stmt.arg}[stmt.kind]()
        out.append("%sswitch (%s) {" % (pad, selector))
        for labels, body in stmt.cases:
            label = "default" if labels is None else "case %du" % labels[0]
            out.append("%s%s: {" % (pad, label))
            _emit_block(body, indent + 1, out)
            if not _ends_in_escape(body):
                out.append("%s    break;" % pad)
            out.append("%s}" % pad)
        out.append("%s}" % pad)
    elif isinstance(stmt, Call):
        out.append("%sfunc%d();" % (pad, stmt.ident))
    elif isinstance(stmt, Break):
        out.append("%sbreak;" % pad)
    elif isinstance(stmt, Continue):
        out.append("%scontinue;" % pad)
    elif isinstance(stmt, Return):
        out.append("%sreturn;" % pad)
    else:
        raise TypeError(stmt)


def _emit_loop(loop, indent, out):
    pad = "    " * indent
    i = "i%d" % loop.ident
    if loop.kind == "do_unif":
        out.append("%suint %s = 0u;" % (pad, i))
        out.append("%sdo {" % pad)
        _emit_block(loop.body, indent + 1, out)
        out.append("%s} while (++%s < inputA.a[%d]);" % (pad, i, loop.arg))
        return
    if loop.kind == "for_unif":
        condition = "%s < inputA.a[%d]" % (i, loop.arg)
    elif loop.kind == "for_var":
        condition = "%s < (gl_SubgroupInvocationID %% %du) + 1u" % (i, loop.arg)
    else:
        condition = ""
    out.append("%sfor (uint %s = 0u; %s; %s++) {" % (pad, i, condition, i))
    _emit_block(loop.body, indent + 1, out)
    out.append("%s}" % pad)


def to_glsl(program):
    out = [GLSL_HEADER % {"seed": program.seed, "x": LOCAL_SIZE[0], "y": LOCAL_SIZE[1],
                          "z": LOCAL_SIZE[2], "words": RECORD_WORDS}]
    for ident in sorted(program.functions):
        out.append("void func%d() {" % ident)
        _emit_block(program.functions[ident], 1, out)
        out.append("}\n")
    out.append("void main() {")
    _emit_block(program.main, 1, out)
    out.append("}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------

def describe_record(record):
    tag, ballot = record
    return "tag 0x%x ballot 0x%x" % (tag, ballot)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--glsl", help="write the GLSL here (default: stdout)")
    parser.add_argument("--subgroup-size", type=int, default=8)
    parser.add_argument("--records", action="store_true",
                        help="print the expected records of every invocation")
    args = parser.parse_args(argv)
    program = generate(args.seed)
    text = to_glsl(program)
    if args.glsl:
        with open(args.glsl, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.records:
        for lid, recs in enumerate(model_records(program, args.subgroup_size)):
            print("invocation %d: %s" % (lid, "; ".join(describe_record(r) for r in recs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
