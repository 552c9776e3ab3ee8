#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Seeded random control-flow graphs for the LLVM 19 differential test.

One seed gives one function. The same function is written twice, with the
same value and block names:

  * as AMDGPU LLVM IR (an `amdgpu_kernel`, divergence source
    `llvm.amdgcn.workitem.id.x`, kernel arguments uniform), for
    `opt -passes='print<uniformity>'`;
  * as SPIR-V assembly (a Kernel entry point in a Physical64/OpenCL module,
    divergence source a `LocalInvocationId` Input variable, kernel
    parameters uniform), for `spirv-conv uniformity`.

The graphs mix structured pieces (if, if/else, C-like switches with
fall-through, while and do-while loops with multi-level breaks, continues and
early returns) with irreducible regions (a ring of 2 or 3 blocks entered at
several of them) and a few random extra edges. With --cycle-shapes they also
have loops with two or three latches, the last one the only exit, and rings
nested in a loop or in an irreducible cycle (the seed gives another program
then). Blocks get phis at joins, loop
headers and loop exits; phi inputs mix constants, kernel arguments, the
work-item id and values defined in dominating blocks (often inside loops, for
temporal divergence). Loop bodies also get "invariant chain" values such as
`add %a, 1`.

SSA is kept valid by construction: a value may be used in block B only when
its defining block dominates B (or it is defined earlier in B); a phi input
on the edge P -> B only when its definition dominates P.

Usage:
  gen_cfg.py --seed 17 --llvm f.ll --spirv f.spvasm
  gen_cfg.py --seed 17 --count 25 --llvm batch.ll --spirv batch.spvasm
  gen_cfg.py --seed 17 --dot        # the CFG as Graphviz, for debugging
  gen_cfg.py --seed 17 --cycle-shapes --spirv f.spvasm
  gen_cfg.py --seed 17 --shader s.spvasm [--shader-kernel-twin k.spvasm] [--llvm-host h.ll]
                                    # executable forms for test/structurize/
"""

import argparse
import random
import sys

ARGS = ("a", "b", "n")
ARITH_OPS = ("add", "sub", "mul", "xor", "and", "or")
CMP_OPS = ("slt", "sgt", "ult", "eq", "ne")

LLVM_TO_SPIRV_ARITH = {
    "add": "OpIAdd", "sub": "OpISub", "mul": "OpIMul",
    "xor": "OpBitwiseXor", "and": "OpBitwiseAnd", "or": "OpBitwiseOr",
}
LLVM_TO_SPIRV_CMP = {
    "slt": "OpSLessThan", "sgt": "OpSGreaterThan", "ult": "OpULessThan",
    "eq": "OpIEqual", "ne": "OpINotEqual",
}


# --------------------------------------------------------------------------
# Program model
# --------------------------------------------------------------------------

class Operand:
    """A use: kind is 'const', 'arg', 'tid' or 'val' (a named i32 or i1 def)."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value  # int for const, name (str) otherwise

    def llvm(self):
        return str(self.value) if self.kind == "const" else "%" + self.value

    def __repr__(self):
        return self.llvm()


class Inst:
    """A definition in a block.

    kind: 'phi'     incoming: list of (pred block name, Operand)
          'arith'   op, ops[2]                    (i32)
          'select'  ops = [cond, x, y]            (i32)
          'cmp'     op, ops[2]                    (i1)
          'sel32'   ops = [x]; result = x & mask  (i32 switch selector)
    """

    def __init__(self, name, kind, op=None, ops=None, incoming=None, mask=None):
        self.name = name
        self.kind = kind
        self.op = op
        self.ops = ops or []
        self.incoming = incoming or []
        self.mask = mask

    @property
    def type(self):
        return "i1" if self.kind == "cmp" else "i32"

    def operands(self):
        if self.kind == "phi":
            return [v for _, v in self.incoming]
        return list(self.ops)


class Block:
    def __init__(self, name):
        self.name = name
        self.phis = []
        self.insts = []
        # Terminator: ('ret',) | ('br', T) | ('condbr', cond, T, F)
        #             | ('switch', sel, default, [(value, target), ...])
        self.term = None
        self.cond_kind = None  # how the branch condition was drawn

    def succs(self):
        t = self.term
        if t is None or t[0] == "ret":
            return []
        if t[0] == "br":
            return [t[1]]
        if t[0] == "condbr":
            return [t[2], t[3]]
        return [t[2]] + [target for _, target in t[3]]

    def defs(self):
        return self.phis + self.insts


class Function:
    def __init__(self, name):
        self.name = name
        self.blocks = {}   # name -> Block
        self.order = []    # block names, creation order
        self.rpo = []      # block names, reverse post order (emission order)

    def new_block(self):
        name = "bb%d" % len(self.order)
        b = Block(name)
        self.blocks[name] = b
        self.order.append(name)
        return b

    def preds(self):
        p = {n: [] for n in self.order}
        for n in self.order:
            for s in self.blocks[n].succs():
                p[s].append(n)
        return p

    def succ_map(self):
        return {n: self.blocks[n].succs() for n in self.order}

    def defs(self):
        """name -> (block name, Inst) for every named value."""
        out = {}
        for n in self.order:
            for i in self.blocks[n].defs():
                out[i.name] = (n, i)
        return out


# --------------------------------------------------------------------------
# Graph utilities (also used by the harness)
# --------------------------------------------------------------------------

def reverse_post_order(entry, succ):
    seen, post = set(), []
    stack = [(entry, iter(succ[entry]))]
    seen.add(entry)
    while stack:
        node, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(succ[s])))
                break
        else:
            post.append(node)
            stack.pop()
    return post[::-1]


def dominators(entry, succ):
    """block -> set of its dominators (itself included), for reachable blocks."""
    rpo = reverse_post_order(entry, succ)
    preds = {n: [] for n in rpo}
    for n in rpo:
        for s in succ[n]:
            preds[s].append(n)
    everything = set(rpo)
    dom = {n: set(everything) for n in rpo}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for n in rpo:
            if n == entry:
                continue
            ps = [p for p in preds[n] if p in dom]
            new = set.intersection(*(dom[p] for p in ps)) if ps else set()
            new = new | {n}
            if new != dom[n]:
                dom[n] = new
                changed = True
    return dom


def sccs(nodes, succ):
    """Tarjan; returns a list of sets. succ may mention nodes outside `nodes`."""
    nodes = list(nodes)
    node_set = set(nodes)
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        work = [(v, iter([s for s in succ[v] if s in node_set]))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter([s for s in succ[w] if s in node_set])))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == node:
                        break
                out.append(comp)

    for v in nodes:
        if v not in index:
            strong(v)
    return out


def cyclic_sccs(nodes, succ):
    """The SCCs that contain a cycle (more than one node, or a self loop)."""
    return [c for c in sccs(nodes, succ)
            if len(c) > 1 or any(s == next(iter(c)) for s in succ[next(iter(c))])]


# --------------------------------------------------------------------------
# CFG construction
# --------------------------------------------------------------------------

class Generator:
    def __init__(self, seed, name="f", max_blocks=None, cycle_shapes=False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.f = Function(name)
        r = self.rng
        self.max_blocks = max_blocks or r.choice((6, 9, 12, 16, 20, 26))
        self.irreducible_bias = r.random()  # some functions are knotty, some tidy
        # Also loops with several latches and rings nested in cycles (the
        # shapes of the LLVM-port tests NaturalLoopTwoBackedges, HeaderLabel1,
        # NestedIrreducible and HeadersAT). Off, a seed gives the program it
        # always gave.
        self.cycle_shapes = cycle_shapes
        self.loops = []  # stack of (header, exit) for break/continue
        self.next_value = 0

    # -- statements ---------------------------------------------------------

    def budget_left(self):
        return self.max_blocks - len(self.f.order)

    def gen_seq(self, cur, depth):
        r = self.rng
        for _ in range(r.randint(1, 3)):
            if self.budget_left() <= 0:
                break
            cur = self.gen_stmt(cur, depth)
        return cur

    def gen_stmt(self, cur, depth):
        r = self.rng
        choices = [("plain", 2), ("if", 3), ("ifelse", 3), ("switch", 1.5),
                   ("loop", 3 if depth < 3 else 0.5),
                   ("irreducible", 4 * self.irreducible_bias if depth < 3 else 0)]
        if self.cycle_shapes:
            choices += [("latches", 3 if depth < 3 else 0.5),
                        ("nested_ring", 3 if depth < 2 else 0)]
        if self.loops:
            choices += [("break", 2), ("continue", 1.2)]
        choices.append(("return", 0.6))
        if self.budget_left() < 4:
            choices = [c for c in choices if c[0] in ("plain", "if", "break", "continue", "return")]
        elif self.budget_left() < 8:
            choices = [c for c in choices if c[0] != "nested_ring"]
        kinds, weights = zip(*choices)
        kind = r.choices(kinds, weights)[0]
        return getattr(self, "stmt_" + kind)(cur, depth)

    def stmt_plain(self, cur, depth):
        nxt = self.f.new_block()
        cur.term = ("br", nxt.name)
        return nxt

    def stmt_if(self, cur, depth):
        then = self.f.new_block()
        merge = self.f.new_block()
        self.cond_branch(cur, then.name, merge.name)
        end = self.gen_seq(then, depth + 1)
        end.term = ("br", merge.name)
        return merge

    def stmt_ifelse(self, cur, depth):
        then = self.f.new_block()
        other = self.f.new_block()
        merge = self.f.new_block()
        self.cond_branch(cur, then.name, other.name)
        for arm in (then, other):
            end = self.gen_seq(arm, depth + 1)
            end.term = ("br", merge.name)
        return merge

    def stmt_switch(self, cur, depth):
        r = self.rng
        arms = [self.f.new_block() for _ in range(r.randint(2, 3))]
        merge = self.f.new_block()
        targets = [a.name for a in arms]
        # Some cases go straight to the merge block; the default is an arm or the merge.
        if r.random() < 0.5:
            targets.append(merge.name)
        r.shuffle(targets)
        default, cases = targets[0], targets[1:]
        self.switch_branch(cur, default, cases)
        for i, arm in enumerate(arms):
            end = self.gen_seq(arm, depth + 1)
            # C-like fall-through into the next arm now and then.
            if i + 1 < len(arms) and r.random() < 0.3:
                end.term = ("br", arms[i + 1].name)
            else:
                end.term = ("br", merge.name)
        return merge

    def stmt_loop(self, cur, depth):
        r = self.rng
        header = self.f.new_block()
        exit_ = self.f.new_block()
        cur.term = ("br", header.name)
        self.loops.append((header.name, exit_.name))
        if r.random() < 0.5:
            # while: the header tests, the body branches back.
            body = self.f.new_block()
            self.cond_branch(header, body.name, exit_.name)
            end = self.gen_seq(body, depth + 1)
            end.term = ("br", header.name)
        else:
            # do-while: the latch tests.
            end = self.gen_seq(header, depth + 1)
            if end is header:
                # Give the loop a body block so the back edge is not a self loop
                # every time (self loops still happen through random edges).
                end = self.stmt_plain(end, depth)
            self.cond_branch(end, header.name, exit_.name)
        self.loops.pop()
        return exit_

    def stmt_irreducible(self, cur, depth):
        r = self.rng
        k = r.choice((2, 2, 3))
        entries = [self.f.new_block() for _ in range(k)]
        exit_ = self.f.new_block()
        names = [e.name for e in entries]
        if k == 2 or r.random() < 0.5:
            # Enter at two of the ring's blocks (the third, if any, is entered
            # only from inside the ring).
            self.cond_branch(cur, names[0], names[1])
        else:
            self.switch_branch(cur, names[0], names[1:])
        ends = []
        for e in entries:
            ends.append(self.gen_seq(e, depth + 1) if r.random() < 0.5 else e)
        exits = 0
        for i, end in enumerate(ends):
            nxt = names[(i + 1) % k]
            if exits == 0 and i == k - 1 or r.random() < 0.6:
                self.cond_branch(end, nxt, exit_.name)
                exits += 1
            else:
                end.term = ("br", nxt)
        return exit_

    def stmt_latches(self, cur, depth):
        """A loop with two or three latches, the last one its only exit:
        header -> body -> latch1 -> header | next -> ... -> latchK -> header
        | exit. A divergent latch before the last sends some threads round
        while the others go on and may leave, and every block after it
        post-dominates it (NaturalLoopTwoBackedges, HeaderLabel1)."""
        r = self.rng
        header = self.f.new_block()
        exit_ = self.f.new_block()
        cur.term = ("br", header.name)
        self.loops.append((header.name, exit_.name))
        end = self.gen_seq(header, depth + 1)
        for _ in range(r.choice((1, 1, 2))):
            if end is header:
                end = self.stmt_plain(end, depth)
            nxt = self.f.new_block()
            self.cond_branch(end, header.name, nxt.name, swap=True)
            end = self.gen_seq(nxt, depth + 1) if r.random() < 0.5 else nxt
        if end is header:
            end = self.stmt_plain(end, depth)
        self.cond_branch(end, header.name, exit_.name)
        self.loops.pop()
        return exit_

    def stmt_nested_ring(self, cur, depth):
        """A ring of two or three blocks entered at two of them inside an
        outer cycle, which is a loop (header H) or itself irreducible
        (entered at A and at B, A -> B): the ring's exits lead to the outer
        latch, to the outer exit, or to a block that branches to either.
        Its header does not dominate the joins on the other entry's side
        (NestedIrreducible, HeadersAT)."""
        r = self.rng
        exit_ = self.f.new_block()
        if r.random() < 0.5:
            back = self.f.new_block()
            head = self.f.new_block()
            self.cond_branch(cur, back.name, head.name)
            back.term = ("br", head.name)
        else:
            back = head = self.f.new_block()
            cur.term = ("br", head.name)
        latch = self.f.new_block()
        self.loops.append((back.name, exit_.name))
        k = r.choice((2, 2, 3))
        ring = [self.f.new_block() for _ in range(k)]
        names = [b.name for b in ring]
        if k == 2 or r.random() < 0.5:
            self.cond_branch(head, names[0], names[1])
        else:
            self.switch_branch(head, names[0], names[1:])
        leave = None  # the block that branches to the latch or the exit
        latch_entered = False  # the last ring block leads to the latch if none did
        for i, block in enumerate(ring):
            end = self.gen_seq(block, depth + 1) if r.random() < 0.6 else block
            nxt = names[(i + 1) % k]
            if i == k - 1 or r.random() < 0.7:
                x = r.random()
                if x < 0.4 or (i == k - 1 and leave is None and not latch_entered):
                    target = latch.name
                    latch_entered = True
                elif x < 0.7:
                    target = exit_.name
                else:
                    if leave is None:
                        leave = self.f.new_block()
                        self.cond_branch(leave, latch.name, exit_.name, swap=True)
                    target = leave.name
                self.cond_branch(end, nxt, target, swap=True)
            else:
                end.term = ("br", nxt)
        self.cond_branch(latch, back.name, exit_.name)
        self.loops.pop()
        return exit_

    def stmt_break(self, cur, depth):
        r = self.rng
        _, target = r.choice(self.loops)  # possibly a multi-level break
        nxt = self.f.new_block()
        self.cond_branch(cur, target, nxt.name, swap=True)
        return nxt

    def stmt_continue(self, cur, depth):
        header, _ = self.loops[-1]
        nxt = self.f.new_block()
        self.cond_branch(cur, header, nxt.name, swap=True)
        return nxt

    def stmt_return(self, cur, depth):
        ret = self.f.new_block()
        ret.term = ("ret",)
        nxt = self.f.new_block()
        self.cond_branch(cur, ret.name, nxt.name, swap=True)
        return nxt

    # -- terminators (conditions are filled in once dominators are known) ---

    def cond_branch(self, block, t, f, swap=False):
        if swap and self.rng.random() < 0.5:
            t, f = f, t
        block.term = ("condbr", None, t, f)

    def switch_branch(self, block, default, cases):
        values = list(range(len(cases)))
        self.rng.shuffle(values)
        block.term = ("switch", None, default, list(zip(values, cases)))

    # -- random extra edges ---------------------------------------------------

    def add_random_edges(self):
        r = self.rng
        count = r.choice((0, 0, 1, 1, 2, 3))
        candidates = [b for b in self.f.order[1:]]
        for _ in range(count):
            plain = [self.f.blocks[n] for n in self.f.order if self.f.blocks[n].term[0] == "br"]
            if not plain or not candidates:
                return
            b = r.choice(plain)
            old = b.term[1]
            choices = [c for c in candidates if c != old]
            if not choices:
                return
            new = r.choice(choices)
            self.cond_branch(b, old, new, swap=True)

    # -- values ---------------------------------------------------------------

    def fresh(self, prefix="v"):
        name = "%s%d" % (prefix, self.next_value)
        self.next_value += 1
        return name

    def const(self):
        return Operand("const", self.rng.choice((0, 1, 2, 3, 5, 7, 42)))

    def fill_values(self):
        r = self.rng
        f = self.f
        succ = f.succ_map()
        f.rpo = reverse_post_order("bb0", succ)
        assert len(f.rpo) == len(f.order), "unreachable block"
        dom = dominators("bb0", succ)
        preds = f.preds()
        # Blocks inside some cycle, and for each block the cyclic SCC it sits in.
        in_cycle = set()
        for c in cyclic_sccs(f.order, succ):
            in_cycle |= c
        i32_defs = {}  # block -> [names of i32 defs, in order]
        i1_defs = {}   # block -> [names of i1 defs]

        def dominating(block, kinds):
            """Names defined in strict dominators of `block`."""
            out = []
            for d in f.rpo:
                if d in dom[block] and d != block:
                    out += kinds.get(d, [])
            return out

        def pick_i32(pool, mode):
            # mode: 'uniform' (args/consts), 'divergent' (tid), 'any'
            if mode == "uniform":
                return Operand("arg", r.choice(ARGS)) if r.random() < 0.7 else self.const()
            if mode == "divergent":
                return Operand("tid", "tid")
            x = r.random()
            if pool and x < 0.55:
                # Prefer recent definitions: they are the interesting ones.
                idx = min(len(pool) - 1, int(len(pool) * (1 - r.random() ** 2)))
                return Operand("val", pool[idx])
            if x < 0.72:
                return Operand("arg", r.choice(ARGS))
            if x < 0.82:
                return Operand("tid", "tid")
            return self.const()

        for bname in f.rpo:
            b = f.blocks[bname]
            i32_defs[bname] = []
            i1_defs[bname] = []
            ps = preds[bname]
            # Phis: at joins and loop headers nearly always, at single-predecessor
            # blocks that leave a cycle (LCSSA-style) often.
            nphi = 0
            if len(ps) >= 2:
                nphi = r.choice((0, 1, 1, 2, 2, 3))
            elif len(ps) == 1 and ps[0] in in_cycle and r.random() < 0.6:
                nphi = 1
            for _ in range(nphi):
                name = self.fresh()
                b.phis.append(Inst(name, "phi"))
                i32_defs[bname].append(name)
            # Plain arithmetic; inside cycles some of it is loop invariant.
            for _ in range(r.choice((0, 1, 1, 2, 2, 3))):
                pool = dominating(bname, i32_defs) + i32_defs[bname]
                if bname in in_cycle and r.random() < 0.35:
                    # Invariant chain: only values from outside the cycle
                    # (arguments, constants, defs of dominators outside it) or
                    # earlier invariant values of this block.
                    outside = [v for d in f.rpo if d in dom[bname] and d not in in_cycle
                               for v in i32_defs.get(d, [])]
                    src = outside + [v for v in i32_defs[bname] if v in self.invariant_names]
                    x = Operand("val", r.choice(src)) if src and r.random() < 0.5 else \
                        Operand("arg", r.choice(ARGS))
                    y = self.const() if r.random() < 0.6 else Operand("arg", r.choice(ARGS))
                    name = self.fresh()
                    b.insts.append(Inst(name, "arith", op=r.choice(ARITH_OPS), ops=[x, y]))
                    self.invariant_names.add(name)
                elif r.random() < 0.15 and (dominating(bname, i1_defs) or i1_defs[bname]):
                    conds = dominating(bname, i1_defs) + i1_defs[bname]
                    name = self.fresh()
                    b.insts.append(Inst(name, "select", ops=[Operand("val", r.choice(conds)),
                                                             pick_i32(pool, "any"),
                                                             pick_i32(pool, "any")]))
                else:
                    name = self.fresh()
                    x = pick_i32(pool, "any")
                    y = pick_i32(pool, "any") if r.random() < 0.5 else self.const()
                    b.insts.append(Inst(name, "arith", op=r.choice(ARITH_OPS), ops=[x, y]))
                i32_defs[bname].append(b.insts[-1].name)
            # Branch condition.
            t = b.term
            if t[0] in ("condbr", "switch"):
                pool = dominating(bname, i32_defs) + i32_defs[bname]
                mode = r.choices(("uniform", "divergent", "any"), (4, 3, 3))[0]
                b.cond_kind = mode
                x = pick_i32(pool, mode)
                if mode == "divergent" and r.random() < 0.5:
                    y = pick_i32(pool, "uniform")
                else:
                    y = pick_i32(pool, "uniform" if mode != "any" else "any")
                name = self.fresh("c")
                if t[0] == "condbr":
                    b.insts.append(Inst(name, "cmp", op=r.choice(CMP_OPS), ops=[x, y]))
                    i1_defs[bname].append(name)
                    b.term = ("condbr", name, t[2], t[3])
                else:
                    b.insts.append(Inst(name, "sel32", ops=[x], mask=3))
                    b.term = ("switch", name, t[2], t[3])

        # Phi inputs last, once every block has its definitions: an input on the
        # edge P -> B may be anything defined in a dominator of P (P included),
        # so back edges can carry values computed in the loop body.
        for bname in f.rpo:
            b = f.blocks[bname]
            for phi in b.phis:
                style = r.random()
                same_const = self.const() if style < 0.06 else None
                same_arg = Operand("arg", r.choice(ARGS)) if 0.06 <= style < 0.10 else None
                for p in preds[bname]:
                    if same_const is not None:
                        op = same_const
                    elif same_arg is not None:
                        op = same_arg
                    else:
                        pool = dominating(p, i32_defs) + i32_defs[p]
                        op = pick_i32(pool, r.choice(("any", "any", "any", "uniform")))
                    phi.incoming.append((p, op))

    def generate(self):
        self.invariant_names = set()
        entry = self.f.new_block()
        cur = self.gen_seq(entry, 0)
        while self.budget_left() > 0 and self.rng.random() < 0.7:
            cur = self.gen_stmt(cur, 0)
        cur.term = ("ret",)
        self.add_random_edges()
        self.fill_values()
        return self.f


def generate(seed, name="f", cycle_shapes=False):
    return Generator(seed, name, cycle_shapes=cycle_shapes).generate()


# --------------------------------------------------------------------------
# Emitters
# --------------------------------------------------------------------------

def emit_llvm(funcs):
    out = []
    for f in funcs:
        out.append("define amdgpu_kernel void @%s(i32 %%a, i32 %%b, i32 %%n, "
                   "ptr addrspace(1) %%out) {" % f.name)
        for bname in f.rpo:
            b = f.blocks[bname]
            out.append("%s:" % bname)
            if bname == "bb0":
                out.append("  %tid = call i32 @llvm.amdgcn.workitem.id.x()")
            for i in b.phis:
                inc = ", ".join("[ %s, %%%s ]" % (v.llvm(), p) for p, v in i.incoming)
                out.append("  %%%s = phi i32 %s" % (i.name, inc))
            for i in b.insts:
                o = [x.llvm() for x in i.ops]
                if i.kind == "arith":
                    out.append("  %%%s = %s i32 %s, %s" % (i.name, i.op, o[0], o[1]))
                elif i.kind == "cmp":
                    out.append("  %%%s = icmp %s i32 %s, %s" % (i.name, i.op, o[0], o[1]))
                elif i.kind == "select":
                    out.append("  %%%s = select i1 %s, i32 %s, i32 %s" % (i.name, o[0], o[1], o[2]))
                elif i.kind == "sel32":
                    out.append("  %%%s = and i32 %s, %d" % (i.name, o[0], i.mask))
            t = b.term
            if t[0] == "ret":
                out.append("  ret void")
            elif t[0] == "br":
                out.append("  br label %%%s" % t[1])
            elif t[0] == "condbr":
                out.append("  br i1 %%%s, label %%%s, label %%%s" % (t[1], t[2], t[3]))
            else:
                cases = " ".join("i32 %d, label %%%s" % (v, tg) for v, tg in t[3])
                out.append("  switch i32 %%%s, label %%%s [ %s ]" % (t[1], t[2], cases))
        out.append("}")
        out.append("")
    out.append("declare i32 @llvm.amdgcn.workitem.id.x()")
    return "\n".join(out) + "\n"


def emit_spirv(funcs):
    consts = set()
    for f in funcs:
        for b in f.blocks.values():
            for i in b.defs():
                for v in i.operands():
                    if v.kind == "const":
                        consts.add(v.value)
            for i in b.insts:
                if i.kind == "sel32":
                    consts.add(i.mask)
    out = ["; SPIR-V", "; Generated by test/differential/gen_cfg.py",
           "OpCapability Addresses", "OpCapability Kernel", "OpCapability Int64",
           "OpMemoryModel Physical64 OpenCL"]
    for f in funcs:
        out.append('OpEntryPoint Kernel %%%s "%s" %%lid_var' % (f.name, f.name))
    out.append('OpName %lid_var "lid_var"')
    for f in funcs:
        p = f.name + "_"
        out.append('OpName %%%s "%s"' % (f.name, f.name))
        for a in ARGS:
            out.append('OpName %%%s%s "%s"' % (p, a, a))
        out.append('OpName %%%stid "tid"' % p)
        for bname in f.rpo:
            b = f.blocks[bname]
            out.append('OpName %%%s%s "%s"' % (p, bname, bname))
            for i in b.defs():
                out.append('OpName %%%s%s "%s"' % (p, i.name, i.name))
    out.append("OpDecorate %lid_var BuiltIn LocalInvocationId")
    out.append("OpDecorate %lid_var Constant")
    out += ["%void = OpTypeVoid", "%bool = OpTypeBool", "%uint = OpTypeInt 32 0",
            "%ulong = OpTypeInt 64 0", "%v3ulong = OpTypeVector %ulong 3",
            "%ptr_in_v3ulong = OpTypePointer Input %v3ulong",
            "%fn_type = OpTypeFunction %void %uint %uint %uint"]
    for c in sorted(consts):
        out.append("%%uint_%d = OpConstant %%uint %d" % (c, c))
    out.append("%lid_var = OpVariable %ptr_in_v3ulong Input")

    for f in funcs:
        p = f.name + "_"

        def ref(v):
            if v.kind == "const":
                return "%%uint_%d" % v.value
            return "%" + p + v.value

        out.append("%%%s = OpFunction %%void None %%fn_type" % f.name)
        for a in ARGS:
            out.append("%%%s%s = OpFunctionParameter %%uint" % (p, a))
        for bname in f.rpo:
            b = f.blocks[bname]
            out.append("%%%s%s = OpLabel" % (p, bname))
            if bname == "bb0":
                out.append("%%%slid = OpLoad %%v3ulong %%lid_var" % p)
                out.append("%%%slid_x = OpCompositeExtract %%ulong %%%slid 0" % (p, p))
                out.append("%%%stid = OpUConvert %%uint %%%slid_x" % (p, p))
            for i in b.phis:
                inc = " ".join("%s %%%s%s" % (ref(v), p, pb) for pb, v in i.incoming)
                out.append("%%%s%s = OpPhi %%uint %s" % (p, i.name, inc))
            for i in b.insts:
                o = [ref(x) for x in i.ops]
                res = "%" + p + i.name
                if i.kind == "arith":
                    out.append("%s = %s %%uint %s %s" % (res, LLVM_TO_SPIRV_ARITH[i.op], o[0], o[1]))
                elif i.kind == "cmp":
                    out.append("%s = %s %%bool %s %s" % (res, LLVM_TO_SPIRV_CMP[i.op], o[0], o[1]))
                elif i.kind == "select":
                    out.append("%s = OpSelect %%uint %s %s %s" % (res, o[0], o[1], o[2]))
                elif i.kind == "sel32":
                    out.append("%s = OpBitwiseAnd %%uint %s %%uint_%d" % (res, o[0], i.mask))
            t = b.term
            if t[0] == "ret":
                out.append("OpReturn")
            elif t[0] == "br":
                out.append("OpBranch %%%s%s" % (p, t[1]))
            elif t[0] == "condbr":
                out.append("OpBranchConditional %%%s%s %%%s%s %%%s%s" % (p, t[1], p, t[2], p, t[3]))
            else:
                cases = " ".join("%d %%%s%s" % (v, p, tg) for v, tg in t[3])
                out.append("OpSwitch %%%s%s %%%s%s %s" % (p, t[1], p, t[2], cases))
        out.append("OpFunctionEnd")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Executable forms for the structurizer tests (test/structurize/)
# --------------------------------------------------------------------------
#
# The same CFG as an executable, terminating program without merge
# instructions: a GLCompute Shader module (--shader), a Kernel twin of it for
# validating everything but the structured rules (--shader-kernel-twin), and a
# host LLVM function for lli (--llvm-host). All three share the
# instrumentation below; none of it changes the CFG:
#
#   * a fuel counter, decremented in every block; once it is below 1, every
#     conditional branch and switch takes the successor closest to a return
#     (OpSelect / select on the condition or selector), so every run ends;
#   * a path hash h = h * 31 + block number, updated in every block, threaded
#     through phis or, for odd seeds, a Function variable (an alloca on the
#     host);
#   * at every return, OUT_WORDS words: the hash, the fuel left and two values
#     generated by gen_cfg that are live there (defined in a dominator).
#
# The divergent id `tid` is GlobalInvocationId.x % TID_MODULUS (gen_cfg's
# divergent conditions compare it with small numbers, so with the plain
# invocation index only the first subgroup would diverge); the words go to
# out[GlobalInvocationId.x * OUT_WORDS + j].

OUT_WORDS = 4          # words each invocation writes (out[gid.x * OUT_WORDS + j])
TID_MODULUS = 13       # tid = GlobalInvocationId.x % 13: every subgroup diverges
FUEL_MASK = 255        # fuel at the start: (fuel argument + tid * FUEL_PER_TID) & FUEL_MASK
FUEL_PER_TID = 3       # (so invocations run out of fuel at different times: divergent exits)
HASH_SEED = 17
ARG_MEMBERS = ("a", "b", "n", "fuel")   # the uniform block at set 0 binding 0


def block_number(bname):
    return int(bname[2:])


def return_distances(f):
    """block -> fewest edges to a return; every block must reach one."""
    preds = f.preds()
    dist = {n: 0 for n in f.order if f.blocks[n].term[0] == "ret"}
    work = list(dist)
    while work:
        nxt = []
        for n in work:
            for p in preds[n]:
                if p not in dist:
                    dist[p] = dist[n] + 1
                    nxt.append(p)
        work = nxt
    stuck = [n for n in f.order if n not in dist]
    assert not stuck, "blocks that cannot reach a return: %s" % stuck
    return dist


class _Plan:
    """What the executable forms need beyond the CFG, computed once."""

    def __init__(self, f, seed):
        self.f = f
        self.dist = return_distances(f)
        self.preds = f.preds()
        succ = f.succ_map()
        dom = dominators("bb0", succ)
        self.hash_in_var = bool(seed % 2)
        r = random.Random(seed * 7919 + 1)   # never the generator's own stream
        # Where a branch goes once the fuel is gone.
        self.forced = {}
        for n in f.rpo:
            t = f.blocks[n].term
            if t[0] == "condbr":
                self.forced[n] = self.dist[t[2]] <= self.dist[t[3]]     # the condition
            elif t[0] == "switch":
                best = min([t[2]] + [tg for _, tg in t[3]], key=lambda b: self.dist[b])
                values = [v for v, tg in t[3] if tg == best]
                self.forced[n] = values[0] if values else 7             # 7 matches no case
        # Two live i32 values per return block.
        self.live = {}
        for n in f.rpo:
            if f.blocks[n].term[0] != "ret":
                continue
            pool = []
            for d in f.rpo:
                if d in dom[n]:
                    pool += [i.name for i in f.blocks[d].defs() if i.type == "i32"]
            picks = []
            for _ in range(OUT_WORDS - 2):
                if pool and r.random() < 0.85:
                    # Mostly recent definitions (inside loops, after joins).
                    picks.append(Operand("val", pool[min(len(pool) - 1,
                                                         int(len(pool) * (1 - r.random() ** 3)))]))
                else:
                    picks.append(Operand("arg", r.choice(ARGS)) if r.random() < 0.5
                                 else Operand("tid", "tid"))
            self.live[n] = picks


def _plan_consts(f, plan):
    consts = {0, 1, 31, HASH_SEED, FUEL_MASK, FUEL_PER_TID, OUT_WORDS, TID_MODULUS}
    consts |= set(range(len(ARG_MEMBERS))) | set(range(OUT_WORDS))
    for n in f.order:
        b = f.blocks[n]
        consts.add(block_number(n))
        for i in b.defs():
            for v in i.operands():
                if v.kind == "const":
                    consts.add(v.value)
            if i.kind == "sel32":
                consts.add(i.mask)
        for v in plan.live.get(n, []):
            if v.kind == "const":
                consts.add(v.value)
    for n, forced in plan.forced.items():
        if f.blocks[n].term[0] == "switch":
            consts.add(forced)
    return consts


def emit_shader(f, seed, local_size=64, kernel_twin=False):
    """The CFG as a GLCompute Shader module (SPIR-V 1.3, no merge
    instructions), or with kernel_twin as a Kernel module with the same
    function body, which spirv-val checks completely (Kernel modules have no
    structured-control-flow rules)."""
    plan = _Plan(f, seed)
    consts = _plan_consts(f, plan)
    out = ["; SPIR-V", "; Version: 1.%d" % (2 if kernel_twin else 3),
           "; Generator: test/differential/gen_cfg.py --seed %d --%s" % (
               seed, "shader-kernel-twin" if kernel_twin else "shader"),
           "; Unstructured GLCompute shader (no merge instructions); see docs/structurize-tests.md"]
    if kernel_twin:
        out += ["OpCapability Addresses", "OpCapability Kernel", "OpCapability Int64",
                "OpMemoryModel Physical64 OpenCL",
                'OpEntryPoint Kernel %main "main" %gid_var']
    else:
        out += ["OpCapability Shader", "OpMemoryModel Logical GLSL450",
                'OpEntryPoint GLCompute %main "main" %gid_var',
                "OpExecutionMode %%main LocalSize %d 1 1" % local_size]
    out += ['OpName %main "main"', 'OpName %gid_var "gid"', 'OpName %tid "tid"',
            'OpName %h_var "hash"']
    for a in ARG_MEMBERS:
        out.append('OpName %%%s "%s"' % (a, a))
    if not kernel_twin:
        out += ['OpName %Args "Args"', 'OpName %args_var "args"', 'OpName %Out "Out"',
                'OpName %out_var "out"']
    for n in f.rpo:
        out.append('OpName %%%s "%s"' % (n, n))
        for i in f.blocks[n].defs():
            out.append('OpName %%%s "%s"' % (i.name, i.name))
    out.append("OpDecorate %gid_var BuiltIn GlobalInvocationId")
    if kernel_twin:
        out.append("OpDecorate %gid_var Constant")
    else:
        out += ["OpDecorate %Args Block"]
        for k in range(len(ARG_MEMBERS)):
            out.append("OpMemberDecorate %%Args %d Offset %d" % (k, 4 * k))
            out.append("OpMemberDecorate %%Args %d NonWritable" % k)
        out += ["OpDecorate %args_var DescriptorSet 0", "OpDecorate %args_var Binding 0",
                "OpDecorate %rt_uint ArrayStride 4", "OpDecorate %Out Block",
                "OpMemberDecorate %Out 0 Offset 0",
                "OpDecorate %out_var DescriptorSet 0", "OpDecorate %out_var Binding 1"]
    out += ["%void = OpTypeVoid", "%bool = OpTypeBool", "%uint = OpTypeInt 32 0",
            "%ptr_fn_uint = OpTypePointer Function %uint"]
    if kernel_twin:
        out += ["%ulong = OpTypeInt 64 0", "%v3ulong = OpTypeVector %ulong 3",
                "%ptr_in_v3 = OpTypePointer Input %v3ulong",
                "%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint",
                "%fn_type = OpTypeFunction %void %uint %uint %uint %uint %ptr_cw_uint"]
    else:
        out += ["%v3uint = OpTypeVector %uint 3", "%ptr_in_v3 = OpTypePointer Input %v3uint",
                "%Args = OpTypeStruct" + " %uint" * len(ARG_MEMBERS),
                "%ptr_uni_Args = OpTypePointer Uniform %Args",
                "%ptr_uni_uint = OpTypePointer Uniform %uint",
                "%rt_uint = OpTypeRuntimeArray %uint", "%Out = OpTypeStruct %rt_uint",
                "%ptr_sb_Out = OpTypePointer StorageBuffer %Out",
                "%ptr_sb_uint = OpTypePointer StorageBuffer %uint",
                "%fn_type = OpTypeFunction %void"]
    out += ["%true = OpConstantTrue %bool", "%false = OpConstantFalse %bool"]
    for c in sorted(consts):
        out.append("%%uint_%d = OpConstant %%uint %d" % (c, c))
    out.append("%gid_var = OpVariable %ptr_in_v3 Input")
    if not kernel_twin:
        out += ["%args_var = OpVariable %ptr_uni_Args Uniform",
                "%out_var = OpVariable %ptr_sb_Out StorageBuffer"]

    def ref(v):
        if v.kind == "const":
            return "%%uint_%d" % v.value
        return "%" + v.value

    out.append("%main = OpFunction %void None %fn_type")
    if kernel_twin:
        for a in ARG_MEMBERS:
            out.append("%%%s = OpFunctionParameter %%uint" % a)
        out.append("%out_ptr = OpFunctionParameter %ptr_cw_uint")
    for n in f.rpo:
        b = f.blocks[n]
        num = block_number(n)
        preds = plan.preds[n]
        out.append("%%%s = OpLabel" % n)
        if n == "bb0":
            out.append("%h_var = OpVariable %ptr_fn_uint Function")
            out.append("%%gid = OpLoad %s %%gid_var" % ("%v3ulong" if kernel_twin else "%v3uint"))
            if kernel_twin:
                out += ["%gid_x64 = OpCompositeExtract %ulong %gid 0",
                        "%gid_x = OpUConvert %uint %gid_x64"]
            else:
                out.append("%gid_x = OpCompositeExtract %uint %gid 0")
                for k, a in enumerate(ARG_MEMBERS):
                    out.append("%%p_%s = OpAccessChain %%ptr_uni_uint %%args_var %%uint_%d"
                               % (a, k))
                    out.append("%%%s = OpLoad %%uint %%p_%s" % (a, a))
            out.append("%%tid = OpUMod %%uint %%gid_x %%uint_%d" % TID_MODULUS)
            out.append("%%out_base = OpIMul %%uint %%gid_x %%uint_%d" % OUT_WORDS)
            out.append("%%tid_fuel = OpIMul %%uint %%tid %%uint_%d" % FUEL_PER_TID)
            out.append("%fuel_sum = OpIAdd %uint %fuel %tid_fuel")
            out.append("%%fuel_start = OpBitwiseAnd %%uint %%fuel_sum %%uint_%d" % FUEL_MASK)
            out.append("OpStore %%h_var %%uint_%d" % HASH_SEED)
        # Phis: the generator's, then fuel (and the hash when it is not in memory).
        for i in b.phis:
            inc = " ".join("%s %%%s" % (ref(v), pb) for pb, v in i.incoming)
            out.append("%%%s = OpPhi %%uint %s" % (i.name, inc))
        # Fuel (and the hash when it is not in memory) coming in: the entry's
        # start value, the one predecessor's value, or a phi.
        incoming = {}
        for what in ["fuel"] + ([] if plan.hash_in_var else ["h"]):
            if n == "bb0":
                incoming[what] = "%fuel_start" if what == "fuel" else "%%uint_%d" % HASH_SEED
            elif len(preds) == 1:
                incoming[what] = "%%%s_out_%s" % (what, preds[0])
            else:
                incoming[what] = "%%%s_in_%s" % (what, n)
                inc = " ".join("%%%s_out_%s %%%s" % (what, p, p) for p in preds)
                out.append("%%%s_in_%s = OpPhi %%uint %s" % (what, n, inc))
        out.append("%%fuel_out_%s = OpISub %%uint %s %%uint_1" % (n, incoming["fuel"]))
        if plan.hash_in_var:
            incoming["h"] = "%%h_in_%s" % n
            out.append("%%h_in_%s = OpLoad %%uint %%h_var" % n)
        out.append("%%h_mul_%s = OpIMul %%uint %s %%uint_31" % (n, incoming["h"]))
        out.append("%%h_out_%s = OpIAdd %%uint %%h_mul_%s %%uint_%d" % (n, n, num))
        if plan.hash_in_var:
            out.append("OpStore %%h_var %%h_out_%s" % n)
        for i in b.insts:
            o = [ref(x) for x in i.ops]
            res = "%" + i.name
            if i.kind == "arith":
                out.append("%s = %s %%uint %s %s" % (res, LLVM_TO_SPIRV_ARITH[i.op], o[0], o[1]))
            elif i.kind == "cmp":
                out.append("%s = %s %%bool %s %s" % (res, LLVM_TO_SPIRV_CMP[i.op], o[0], o[1]))
            elif i.kind == "select":
                out.append("%s = OpSelect %%uint %s %s %s" % (res, o[0], o[1], o[2]))
            elif i.kind == "sel32":
                out.append("%s = OpBitwiseAnd %%uint %s %%uint_%d" % (res, o[0], i.mask))
        t = b.term
        if t[0] in ("condbr", "switch"):
            out.append("%%empty_%s = OpSLessThan %%bool %%fuel_out_%s %%uint_1" % (n, n))
        if t[0] == "ret":
            words = ["%%h_out_%s" % n, "%%fuel_out_%s" % n] + [ref(v) for v in plan.live[n]]
            for j, w in enumerate(words):
                out.append("%%idx_%s_%d = OpIAdd %%uint %%out_base %%uint_%d" % (n, j, j))
                if kernel_twin:
                    out.append("%%p_%s_%d = OpInBoundsPtrAccessChain %%ptr_cw_uint %%out_ptr "
                               "%%idx_%s_%d" % (n, j, n, j))
                else:
                    out.append("%%p_%s_%d = OpAccessChain %%ptr_sb_uint %%out_var %%uint_0 "
                               "%%idx_%s_%d" % (n, j, n, j))
                out.append("OpStore %%p_%s_%d %s" % (n, j, w))
            out.append("OpReturn")
        elif t[0] == "br":
            out.append("OpBranch %%%s" % t[1])
        elif t[0] == "condbr":
            forced = "%true" if plan.forced[n] else "%false"
            out.append("%%cond_%s = OpSelect %%bool %%empty_%s %s %%%s" % (n, n, forced, t[1]))
            out.append("OpBranchConditional %%cond_%s %%%s %%%s" % (n, t[2], t[3]))
        else:
            out.append("%%sel_%s = OpSelect %%uint %%empty_%s %%uint_%d %%%s"
                       % (n, n, plan.forced[n], t[1]))
            cases = " ".join("%d %%%s" % (v, tg) for v, tg in t[3])
            out.append("OpSwitch %%sel_%s %%%s %s" % (n, t[2], cases))
    out.append("OpFunctionEnd")
    return "\n".join(out) + "\n"


def emit_llvm_host(f, seed, name="f"):
    """The shader's program as a host LLVM function for lli:
    `define i32 @NAME(i32 %a, i32 %b, i32 %n, i32 %tid, i32 %fuel)`, returning
    the words the shader stores, folded: ((h * 31 + fuel) * 31 + v1) * 31 + v2.
    No switch lowering, no single return: the structurizer pipeline under test
    has to do that."""
    plan = _Plan(f, seed)

    def ref(v):
        return v.llvm()

    out = ["define i32 @%s(i32 %%a, i32 %%b, i32 %%n, i32 %%tid, i32 %%fuel) {" % name]
    for n in f.rpo:
        b = f.blocks[n]
        num = block_number(n)
        preds = plan.preds[n]
        out.append("%s:" % n)
        if n == "bb0":
            out.append("  %h_var = alloca i32")
            out.append("  store i32 %d, ptr %%h_var" % HASH_SEED)
            out.append("  %%tid_fuel = mul i32 %%tid, %d" % FUEL_PER_TID)
            out.append("  %fuel_sum = add i32 %fuel, %tid_fuel")
            out.append("  %%fuel_start = and i32 %%fuel_sum, %d" % FUEL_MASK)
        for i in b.phis:
            inc = ", ".join("[ %s, %%%s ]" % (ref(v), p) for p, v in i.incoming)
            out.append("  %%%s = phi i32 %s" % (i.name, inc))
        incoming = {}
        for what in ["fuel"] + ([] if plan.hash_in_var else ["h"]):
            if n == "bb0":
                incoming[what] = "%fuel_start" if what == "fuel" else str(HASH_SEED)
            elif len(preds) == 1:
                incoming[what] = "%%%s_out_%s" % (what, preds[0])
            else:
                incoming[what] = "%%%s_in_%s" % (what, n)
                inc = ", ".join("[ %%%s_out_%s, %%%s ]" % (what, p, p) for p in preds)
                out.append("  %%%s_in_%s = phi i32 %s" % (what, n, inc))
        out.append("  %%fuel_out_%s = sub i32 %s, 1" % (n, incoming["fuel"]))
        if plan.hash_in_var:
            incoming["h"] = "%%h_in_%s" % n
            out.append("  %%h_in_%s = load i32, ptr %%h_var" % n)
        out.append("  %%h_mul_%s = mul i32 %s, 31" % (n, incoming["h"]))
        out.append("  %%h_out_%s = add i32 %%h_mul_%s, %d" % (n, n, num))
        if plan.hash_in_var:
            out.append("  store i32 %%h_out_%s, ptr %%h_var" % n)
        for i in b.insts:
            o = [x.llvm() for x in i.ops]
            if i.kind == "arith":
                out.append("  %%%s = %s i32 %s, %s" % (i.name, i.op, o[0], o[1]))
            elif i.kind == "cmp":
                out.append("  %%%s = icmp %s i32 %s, %s" % (i.name, i.op, o[0], o[1]))
            elif i.kind == "select":
                out.append("  %%%s = select i1 %s, i32 %s, i32 %s" % (i.name, o[0], o[1], o[2]))
            elif i.kind == "sel32":
                out.append("  %%%s = and i32 %s, %d" % (i.name, o[0], i.mask))
        t = b.term
        if t[0] in ("condbr", "switch"):
            out.append("  %%empty_%s = icmp slt i32 %%fuel_out_%s, 1" % (n, n))
        if t[0] == "ret":
            words = ["%%h_out_%s" % n, "%%fuel_out_%s" % n] + [ref(v) for v in plan.live[n]]
            acc = words[0]
            for j, w in enumerate(words[1:]):
                out.append("  %%r_mul_%s_%d = mul i32 %s, 31" % (n, j, acc))
                out.append("  %%r_%s_%d = add i32 %%r_mul_%s_%d, %s" % (n, j, n, j, w))
                acc = "%%r_%s_%d" % (n, j)
            out.append("  ret i32 %s" % acc)
        elif t[0] == "br":
            out.append("  br label %%%s" % t[1])
        elif t[0] == "condbr":
            forced = "true" if plan.forced[n] else "false"
            out.append("  %%cond_%s = select i1 %%empty_%s, i1 %s, i1 %%%s" % (n, n, forced, t[1]))
            out.append("  br i1 %%cond_%s, label %%%s, label %%%s" % (n, t[2], t[3]))
        else:
            out.append("  %%sel_%s = select i1 %%empty_%s, i32 %d, i32 %%%s"
                       % (n, n, plan.forced[n], t[1]))
            cases = " ".join("i32 %d, label %%%s" % (v, tg) for v, tg in t[3])
            out.append("  switch i32 %%sel_%s, label %%%s [ %s ]" % (n, t[2], cases))
    out.append("}")
    return "\n".join(out) + "\n"


def emit_dot(f):
    out = ["digraph %s {" % f.name]
    for bname in f.rpo:
        b = f.blocks[bname]
        label = bname
        if b.term[0] in ("condbr", "switch"):
            label += "\\n%s (%s)" % (b.term[1], b.cond_kind)
        out.append('  %s [label="%s"];' % (bname, label))
        for s in b.succs():
            out.append("  %s -> %s;" % (bname, s))
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=1,
                    help="functions f<seed>..f<seed+count-1> in one module (default 1: one function @f)")
    ap.add_argument("--llvm", help="write LLVM IR here")
    ap.add_argument("--spirv", help="write SPIR-V assembly here")
    ap.add_argument("--dot", action="store_true", help="print the CFG as Graphviz")
    ap.add_argument("--shader", metavar="FILE.spvasm",
                    help="write the CFG as an executable GLCompute Shader module without merge "
                         "instructions (test/structurize/; one function only)")
    ap.add_argument("--shader-kernel-twin", metavar="FILE.spvasm",
                    help="write the --shader program's Kernel twin, which spirv-val checks "
                         "in full (no structured-control-flow rules)")
    ap.add_argument("--llvm-host", metavar="FILE.ll",
                    help="write the --shader program as a host LLVM function "
                         "i32 @f(a, b, n, tid, fuel), for lli")
    ap.add_argument("--local-size", type=int, default=64,
                    help="--shader: LocalSize x (default 64)")
    ap.add_argument("--cycle-shapes", action="store_true",
                    help="also draw loops with several latches and rings nested in cycles")
    args = ap.parse_args(argv)
    if (args.shader or args.shader_kernel_twin or args.llvm_host) and args.count != 1:
        ap.error("--shader, --shader-kernel-twin and --llvm-host take one function (--count 1)")
    if args.count == 1:
        funcs = [generate(args.seed, "f", args.cycle_shapes)]
    else:
        funcs = [generate(s, "f%d" % s, args.cycle_shapes)
                 for s in range(args.seed, args.seed + args.count)]
    if args.llvm:
        with open(args.llvm, "w") as fh:
            fh.write(emit_llvm(funcs))
    if args.spirv:
        with open(args.spirv, "w") as fh:
            fh.write(emit_spirv(funcs))
    if args.shader:
        with open(args.shader, "w") as fh:
            fh.write(emit_shader(funcs[0], args.seed, args.local_size))
    if args.shader_kernel_twin:
        with open(args.shader_kernel_twin, "w") as fh:
            fh.write(emit_shader(funcs[0], args.seed, args.local_size, kernel_twin=True))
    if args.llvm_host:
        with open(args.llvm_host, "w") as fh:
            fh.write(emit_llvm_host(funcs[0], args.seed))
    if args.dot:
        for f in funcs:
            sys.stdout.write(emit_dot(f))
    if not (args.llvm or args.spirv or args.dot or args.shader or args.shader_kernel_twin
            or args.llvm_host):
        sys.stdout.write(emit_llvm(funcs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
