#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Random GLSL compute shaders for loop fast-forwarding, used by
fast_forward_test.py (CTest structurize.fast-forward-random,
docs/structurize-tests.md).

  gen_loops.py --seed S [-o FILE] [--loops]

Loops of the shapes `spirv-conv opt --fast-forward-loops` rewrites
(docs/fast-forward.md): `loop { P; if (c) E else C; T }` (shape A) and, where a
loop nests in P or T, `loop { P; loop { B }; Q }` (shape B), with random
variations: for, while, while (true) and do loops; an expensive arm E
(hash rounds, nested ifs, an inner loop with a divergent trip count, calls
to helper functions, a nested loop of the same shape); E in the else arm or
the else arm missing; break and continue in P, C, T and sometimes E; uniform
or divergent trip counts (the bound depends on the invocation id); loops
nested in P, E and T; a uniform condition now and then; values defined in the
loop read after it; and, in some loops, something that rules
fast-forwarding out: barrier() (alone, or with a cross-invocation
shared-memory read), a subgroup reduction, an atomic, a store to shared memory, a call to
a function doing the last two, or a return from a helper's loop.

Every program terminates (every loop counts up to a bound of at most 16 that
is checked on every trip, and every loop's counter goes up before any
continue) and has no undefined behaviour: uint arithmetic only, divisors
(x & 7) + 1, shift counts masked, indices in range, every shared-memory read
preceded by the invocation's own store or by a barrier after the store of
the invocation it reads. barrier() and subgroup operations only appear in
workgroup-uniform control flow (loops with a constant or workgroup-id bound,
no break or continue, in such a loop or in main), so the result is the same
under every reconvergence model; atomics only combine commutatively (one
operation per counter word) and their results are not read.

One storage buffer, set 0 binding 0, of buffer_words(workgroups) words: 8
words for the atomics, then OUT_WORDS words per invocation (the state
variables v0..v3 at the end of main). Local size 64.

generate(seed) returns the source and one record per loop, whose "start" and
"end" are the source lines of the loop statement (what glslang -g puts on
its OpLoopMerge, so the pass's --report entries can be matched to them) and
"forbidden" what in the loop (or in a function it calls) must make the pass
decline.
"""

import argparse
import json
import random
import sys

LOCAL_SIZE = 64
COUNTER_WORDS = 8
OUT_WORDS = 4
MAX_TRIPS = (16, 6, 4)   # per nesting depth
# The atomic counters: (operation, word); words 0 and 1 only ever get atomicAdd.
ATOMIC_WORDS = (("atomicAdd", 0), ("atomicAdd", 1), ("atomicAdd", 7), ("atomicXor", 2),
                ("atomicXor", 3), ("atomicMax", 4), ("atomicOr", 5), ("atomicMin", 6))

HASH = """\
uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
"""


def buffer_words(workgroups):
    return COUNTER_WORDS + OUT_WORDS * LOCAL_SIZE * workgroups


class Generator:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed * 7919 + 17)
        self.lines = []
        self.indent = 0
        self.counter = 0
        self.loops = []
        self.stack = []           # the records of the loops being generated
        self.helpers = []         # (name, forbidden) callable as f(uint, uint)
        self.forbidden_of = {}    # helper name -> why a loop calling it must be declined
        self.function = None
        self.uses_subgroup = False
        self.features = {}
        # Per function: the state variables, the divergent value, the local id.
        self.state = ()
        self.idv = "id"
        self.lid = "lid"
        self.in_helper = False

    # -- emission ---------------------------------------------------------

    def emit(self, text):
        self.lines.append("  " * self.indent + text)
        return len(self.lines)   # its line number

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def k(self):
        return "0x%08xu" % self.r.getrandbits(32)

    def var(self):
        return self.r.choice(self.state)

    def feature(self, name):
        self.features[name] = self.features.get(name, 0) + 1

    def forbid(self, why):
        for rec in self.stack:
            if why not in rec["forbidden"]:
                rec["forbidden"].append(why)
        if self.in_helper:
            self.forbidden_of.setdefault(self.function, [])
            if why not in self.forbidden_of[self.function]:
                self.forbidden_of[self.function].append(why)

    # -- pieces -------------------------------------------------------------

    def cheap(self, x):
        """One cheap statement on a state variable."""
        r = self.r
        s, t = self.var(), self.var()
        forms = [
            "%s = %s * 3u + (%s >> 7);" % (s, s, x),
            "%s ^= %s + %s;" % (s, x, self.k()),
            "%s += (%s >> (%s & 15u));" % (s, x, t),
            "%s = (%s << 1) | (%s & 1u);" % (s, s, x),
            "%s += %s / ((%s & 7u) + 1u);" % (s, t, x),
            "%s = %s %% ((%s & 15u) + 1u) + %s;" % (s, t, x, s),
            "%s = min(%s, %s) + 1u;" % (s, s, x),
            "%s = (%s & 1u) == 0u ? %s + 1u : %s;" % (s, x, s, t),
        ]
        self.emit(r.choice(forms))

    def cond(self, divergent, x, i):
        r = self.r
        if divergent:
            m = r.choice((2, 3, 4, 5, 8))
            return r.choice((
                "(%s %% %du) == 0u" % (x, m),
                "(%s & %du) == 0u" % (x, r.choice((1, 3, 7))),
                "((%s ^ %s) %% %du) != 0u" % (self.var(), x, m),
                "(hash(%s * 0x9e3779b9u + %s) %% %du) == 0u" % (self.idv, i, m),
            ))
        forms = ["(%s %% %du) == 0u" % (i, r.choice((2, 3))),
                 "(hash(%s + %s) & 3u) == 0u" % (i, self.k()),
                 "%s > %du" % (i, r.randint(1, 4))]
        if not self.in_helper:
            forms.append("gl_WorkGroupID.x == 0u")
        return r.choice(forms)

    def exit_stmt(self, kind, value):
        """`if (rare) break;` and the like."""
        if kind == "return":
            self.emit("if ((%s & 15u) == %du) return %s;" % (value, self.r.randint(0, 15), value))
        else:
            self.emit("if ((%s & 7u) == %du) %s;" % (value, self.r.randint(0, 7), kind))
        self.feature("%s" % kind)

    def special(self, what, x):
        s, t = self.var(), self.var()
        if what == "barrier" and self.r.random() < 0.3:
            self.emit("barrier();")   # alone: OpControlBarrier, no shared memory
            self.forbid("barrier")
        elif what == "barrier":
            self.emit("sh[%s] = %s ^ %s;" % (self.lid, s, x))
            self.emit("barrier();")
            self.emit("%s += sh[(%s + %du) & 63u];" % (t, self.lid, self.r.randint(1, 63)))
            self.emit("barrier();")
            self.forbid("barrier")
        elif what == "subgroup":
            op = self.r.choice(("subgroupAdd", "subgroupMax", "subgroupMin", "subgroupXor",
                                "subgroupInclusiveAdd", "subgroupExclusiveAdd", "subgroupOr"))
            self.emit("%s += %s(%s & 255u);" % (s, op, t))
            self.uses_subgroup = True
            self.forbid("subgroup operation")
        elif what == "atomic":
            # Each counter word has one operation, so the final value does not
            # depend on the order (atomicAdd and atomicXor do not commute).
            op, word = self.r.choice(ATOMIC_WORDS)
            self.emit("%s(result.data[%du], %s & 15u);" % (op, word, s))
            self.forbid("atomic")
        elif what == "shared":
            self.emit("sh[%s] = %s + %s;" % (self.lid, s, x))
            self.emit("%s ^= sh[%s];" % (t, self.lid))
            self.forbid("shared-memory store")
        elif what == "call-bad":
            name = self.r.choice([n for n, why in self.helpers if why])
            self.call(name, x)
        self.feature(what)

    def call(self, name, x):
        a = self.var()
        self.emit("%s = %s(%s, %s);" % (a, name, a, x))
        for why in self.forbidden_of.get(name, ()):
            self.forbid("%s (in %s)" % (why, name))
        self.feature("call")

    def pure_helpers(self):
        return [n for n, why in self.helpers if not why]

    # -- loops --------------------------------------------------------------

    def loop(self, depth, uniform_ctx):
        """One loop of the shape; |uniform_ctx|: the code around it is in
        workgroup-uniform control flow."""
        r = self.r
        rec = {"function": self.function, "depth": depth, "start": None, "end": None,
               "forbidden": [], "exits": {}, "divergent_cond": True, "else": True,
               "expensive_in_else": False, "uniform_bound": False, "kind": None}
        self.loops.append(rec)
        self.stack.append(rec)

        special, where = None, None
        x = r.random()
        if x < 0.07 and uniform_ctx:
            special = "barrier"
        elif x < 0.14 and uniform_ctx:
            special = "subgroup"
        elif x < 0.19:
            special = "atomic"
        elif x < 0.23:
            special = "shared"
        elif x < 0.27 and any(why for _, why in self.helpers):
            special = "call-bad"
        needs_uniform = special in ("barrier", "subgroup")
        if special:
            where = r.choice(("P", "T") if needs_uniform else ("P", "C", "T", "E"))

        uniform_bound = needs_uniform or r.random() < 0.35
        rec["uniform_bound"] = uniform_bound
        rec["divergent_cond"] = needs_uniform or r.random() > 0.1
        exits = rec["exits"]
        if not needs_uniform:
            for part, p in (("P", 0.15), ("C", 0.08), ("T", 0.15), ("E", 0.07)):
                if r.random() < p:
                    exits[part] = r.choice(("break", "continue"))
            if self.in_helper and r.random() < 0.3:
                exits[r.choice(("P", "E", "T"))] = "return"
        loop_uniform = uniform_ctx and uniform_bound and not exits
        if "return" in exits.values():
            rec["forbidden"].append("return")

        trips = MAX_TRIPS[depth]
        if uniform_bound:
            if not self.in_helper and r.random() < 0.2:
                bound = "(gl_WorkGroupID.x + %du)" % r.randint(1, trips - 1)
            else:
                bound = "%du" % r.randint(1, trips)
        else:
            lo = r.randint(0, 2)
            if r.random() < 0.5:
                bound = "(%du + (hash(%s ^ %s) %% %du))" % (lo, self.idv, self.k(), trips - lo)
            else:
                mask = 7 if trips - lo > 8 else 3
                bound = "((%s & %du) + %du)" % (self.var(), mask, lo)
        if r.random() < 0.3:
            n = self.fresh("n")
            self.emit("uint %s = %s;" % (n, bound))
            bound = n

        last = None
        if r.random() < 0.35:
            last = self.fresh("last")
            self.emit("uint %s = 0u;" % last)
        i = self.fresh("i")
        kinds = ["for", "while", "do"] + ([] if loop_uniform else ["while-true"])
        kind = r.choice(kinds)
        rec["kind"] = kind
        self.feature("loop " + kind)
        if kind == "for":
            rec["start"] = self.emit("for (uint %s = 0u; %s < %s; ++%s) {" % (i, i, bound, i))
        else:
            self.emit("uint %s = 0u;" % i)
            rec["start"] = self.emit({"while": "while (%s < %s) {" % (i, bound),
                                      "do": "do {", "while-true": "while (true) {"}[kind])
        self.indent += 1
        if kind == "while-true":
            self.emit("if (%s >= %s) break;" % (i, bound))
        if kind != "for":
            self.emit("%s++;" % i)

        # P
        x = self.fresh("x")
        self.emit("uint %s = hash(%s * 64u + %s + %s);" % (x, i, self.idv, self.k()))
        for _ in range(r.randint(0, 2)):
            self.cheap(x)
        if "P" in exits:
            self.exit_stmt(exits["P"], x)
        if depth + 1 < len(MAX_TRIPS) and r.random() < (0.3, 0.15, 0)[depth]:
            self.feature("nested in P")
            self.loop(depth + 1, loop_uniform)
        if where == "P":
            self.special(special, x)

        # if (c) E else C
        c = self.cond(rec["divergent_cond"], x, i)
        if not rec["divergent_cond"]:
            self.feature("uniform condition")
        swap = r.random() < 0.2
        has_else = swap or r.random() > 0.2
        rec["else"] = has_else
        rec["expensive_in_else"] = swap
        self.emit("if (%s) {" % c)
        self.indent += 1
        if swap:
            self.cheap_arm(x, exits, special if where == "C" else None)
        else:
            self.expensive_arm(depth, x, i, exits, special if where == "E" else None, last)
        self.indent -= 1
        if has_else:
            self.emit("} else {")
            self.indent += 1
            if swap:
                self.expensive_arm(depth, x, i, exits, special if where == "E" else None, last)
            else:
                self.cheap_arm(x, exits, special if where == "C" else None)
            self.indent -= 1
        else:
            self.feature("no else")
            if where == "C":    # no C to put it in
                self.special(special, x)
        self.emit("}")

        # T
        for _ in range(r.randint(0, 2)):
            self.cheap(x)
        if last and r.random() < 0.6:
            self.emit("%s = %s ^ %s;" % (last, x, self.var()))
        if "T" in exits:
            self.exit_stmt(exits["T"], x)
        if depth + 1 < len(MAX_TRIPS) and r.random() < (0.2, 0.1, 0)[depth]:
            self.feature("nested in T")
            self.loop(depth + 1, loop_uniform)
        if where == "T":
            self.special(special, x)
        self.indent -= 1
        rec["end"] = self.emit("} while (%s < %s);" % (i, bound) if kind == "do" else "}")

        # Values of the loop read after it.
        if last:
            self.emit("%s += %s;" % (self.var(), last))
            self.feature("value used after the loop")
        if kind != "for" and r.random() < 0.5:
            self.emit("%s += %s;" % (self.var(), i))
        self.stack.pop()

    def cheap_arm(self, x, exits, special):
        for _ in range(self.r.randint(1, 2)):
            self.cheap(x)
        if "C" in exits:
            self.exit_stmt(exits["C"], x)
        if special:
            self.special(special, x)

    def expensive_arm(self, depth, x, i, exits, special, last):
        r = self.r
        a = self.fresh("a")
        self.emit("uint %s = %s ^ %s;" % (a, x, self.var()))
        for _ in range(r.randint(2, 6)):
            self.emit("%s = hash(%s + %s);" % (a, a, self.k()))
        parts = ["if", "inner", "call", "loop"]
        r.shuffle(parts)
        for part in parts:
            if part == "if" and r.random() < 0.35:
                self.emit("if ((%s & %du) == 0u) {" % (a, r.choice((1, 3))))
                self.emit("  %s = hash(%s ^ %s);" % (a, a, self.k()))
                self.emit("  %s = hash(%s + %s);" % (a, a, self.k()))
                self.emit("} else {")
                self.emit("  %s += %s;" % (a, self.k()))
                self.emit("}")
                self.feature("E: nested if")
            elif part == "inner" and r.random() < 0.35:
                k = self.fresh("k")
                rec = {"function": self.function, "depth": depth + 1, "forbidden": [],
                       "exits": {}, "divergent_cond": False, "else": False,
                       "expensive_in_else": False, "uniform_bound": False, "kind": "simple"}
                rec["start"] = self.emit("for (uint %s = 0u; %s < (%s & 7u); ++%s) {"
                                         % (k, k, a, k))
                self.emit("  %s = hash(%s + %s);" % (a, a, k))
                rec["end"] = self.emit("}")
                self.loops.append(rec)
                self.feature("E: inner loop")
            elif part == "call" and r.random() < 0.3 and self.pure_helpers():
                name = r.choice(self.pure_helpers())
                self.emit("%s = %s(%s, %s);" % (a, name, a, i))
                for why in self.forbidden_of.get(name, ()):
                    self.forbid("%s (in %s)" % (why, name))
                self.feature("E: call")
            elif part == "loop" and depth + 1 < len(MAX_TRIPS) and r.random() < 0.12:
                self.feature("nested in E")
                self.loop(depth + 1, False)
        if "E" in exits:
            self.exit_stmt(exits["E"], a)
            self.feature("E: " + exits["E"])
        if special:
            self.special(special, a)
        s = self.var()
        self.emit(r.choice(("%s = %s * 31u + %s;" % (s, s, a), "%s += %s;" % (s, a),
                            "%s ^= %s;" % (s, a))))
        if last and r.random() < 0.5:
            self.emit("%s = %s;" % (last, a))

    # -- functions ----------------------------------------------------------

    def helper(self, name, kind):
        """uint name(uint a, uint b)."""
        self.function = name
        self.in_helper = True
        self.state = ("s0", "s1", "s2", "s3")
        self.idv = "a"
        self.lid = "gl_LocalInvocationID.x"
        self.emit("uint %s(uint a, uint b) {" % name)
        self.indent += 1
        self.emit("uint s0 = a, s1 = b ^ %s, s2 = hash(a + b), s3 = 0u;" % self.k())
        if kind == "pure":
            for _ in range(self.r.randint(1, 3)):
                self.emit("s0 = hash(s0 + %s);" % self.k())
            if self.r.random() < 0.4:
                k = self.fresh("k")
                rec = {"function": name, "depth": 0, "forbidden": [], "exits": {},
                       "divergent_cond": False, "else": False, "expensive_in_else": False,
                       "uniform_bound": False, "kind": "simple"}
                rec["start"] = self.emit("for (uint %s = 0u; %s < (s1 & 3u) + 1u; ++%s) {"
                                         % (k, k, k))
                self.emit("  s2 = hash(s2 ^ %s);" % k)
                rec["end"] = self.emit("}")
                self.loops.append(rec)
        elif kind == "atomic":
            self.emit("atomicAdd(result.data[s0 & 1u], 1u);")
            self.emit("s0 = hash(s0 + s1);")
            self.forbid("atomic")
        elif kind == "stash":
            self.emit("sh[gl_LocalInvocationID.x] = s0 ^ s1;")
            self.emit("s3 = sh[gl_LocalInvocationID.x] + 1u;")
            self.forbid("shared-memory store")
        elif kind == "find":
            k = self.fresh("k")
            rec = {"function": name, "depth": 0, "forbidden": ["return"], "exits": {"P": "return"},
                   "divergent_cond": False, "else": False, "expensive_in_else": False,
                   "uniform_bound": False, "kind": "simple"}
            rec["start"] = self.emit("for (uint %s = 0u; %s < (s1 & 7u) + 1u; ++%s) {" % (k, k, k))
            self.emit("  s0 = hash(s0 + %s);" % k)
            self.emit("  if ((s0 & 7u) == 0u) return s0;")
            rec["end"] = self.emit("}")
            self.loops.append(rec)
        elif kind == "walk":
            self.loop(1, False)
        self.emit("return s0 ^ s1 ^ s2 ^ s3;")
        self.indent -= 1
        self.emit("}")
        self.emit("")
        self.helpers.append((name, list(self.forbidden_of.get(name, ()))))
        self.feature("helper " + kind)

    def main(self):
        r = self.r
        self.function = "main"
        self.in_helper = False
        self.state = ("v0", "v1", "v2", "v3")
        self.idv = "id"
        self.lid = "lid"
        self.emit("void main() {")
        self.indent += 1
        self.emit("uint id = gl_GlobalInvocationID.x;")
        self.emit("uint lid = gl_LocalInvocationID.x;")
        self.emit("uint v0 = hash(id ^ %s);" % self.k())
        self.emit("uint v1 = id * %s + %s;" % (self.k(), self.k()))
        self.emit("uint v2 = %s;" % self.k())
        self.emit("uint v3 = 0u;")
        loops = 1 + (r.random() < 0.5) + (r.random() < 0.15)
        for n in range(loops):
            if n:
                self.cheap("v%d" % r.randint(0, 3))
            self.loop(0, True)
        for j in range(OUT_WORDS):
            self.emit("result.data[%du + id * %du + %du] = v%d;" % (COUNTER_WORDS, OUT_WORDS, j, j))
        self.indent -= 1
        self.emit("}")

    def generate(self):
        r = self.r
        self.lines = [
            "#version 450",
            None,   # the extension line, once known
            "// gen_loops.py --seed %d (test/structurize/fast_forward_test.py)" % self.seed,
            "layout(local_size_x = %d) in;" % LOCAL_SIZE,
            "layout(set = 0, binding = 0) buffer Out { uint data[]; } result;",
            "shared uint sh[%d];" % LOCAL_SIZE,
            "",
        ]
        self.lines += HASH.splitlines() + [""]
        names = iter("helper%d" % n for n in range(10))
        kinds = ["pure"] * r.randint(1, 2)
        if r.random() < 0.25:
            kinds.append("atomic")
        if r.random() < 0.2:
            kinds.append("stash")
        if r.random() < 0.2:
            kinds.append("find")
        r.shuffle(kinds)
        if r.random() < 0.35:
            kinds.append("walk")   # a loop of the shape in a helper, after the others
        for kind in kinds:
            self.helper(next(names), kind)
        self.main()
        self.lines[1] = ("#extension GL_KHR_shader_subgroup_arithmetic : require"
                         if self.uses_subgroup else "// (no subgroup operations)")
        return "\n".join(self.lines) + "\n"


def generate(seed):
    """{'source', 'loops', 'features', 'subgroup'} for |seed|."""
    g = Generator(seed)
    source = g.generate()
    return {"source": source, "loops": g.loops, "features": g.features,
            "subgroup": g.uses_subgroup}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--loops", action="store_true", help="print the loop records (JSON) instead")
    opts = ap.parse_args(argv)
    prog = generate(opts.seed)
    text = json.dumps(prog["loops"], indent=1) + "\n" if opts.loops else prog["source"]
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
