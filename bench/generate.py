#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Generates the benchmark inputs of docs/performance.md.

One control-flow graph per (family, size) is built in memory and emitted
twice, so spirv-conv and LLVM analyse the same CFG:

  NAME.spvasm / NAME.spv  a SPIR-V 1.2 Kernel module (Addresses, Kernel, Int64,
                          Physical64 OpenCL). No structured control flow, so
                          irreducible cycles are legal. Kernel parameters are
                          the uniform sources; LocalInvocationId (an Input
                          v3ulong, loaded and converted to uint) is the
                          divergent one.
  NAME.ll                 the same CFG as an AMDGPU LLVM IR kernel for LLVM 19
                          (i32 arguments, llvm.amdgcn.workitem.id.x).

Families:
  reducible    nested loops (while- and do-while-shaped, with phis and
               LCSSA-style exit phis) and if/else diamonds with merge phis;
               conditions on uniform arguments or on the invocation id.
  irreducible  mostly 2- and 3-entry cycles (a ring of blocks entered from a
               dispatch block at every member), each member with a phi and an
               exit; sometimes nested in, or containing, loops and diamonds.

Also writes frag_large.frag (a GLSL fragment shader with many branches,
loops and texture samples) and compiles it with glslangValidator -V. With
--frag NAME=STATEMENTS (repeatable) it writes those shaders instead, e.g.
frag_12k=7700 for the ~12,000-block shader of the lint benchmark
(bench/lint_bench.py). The same seed serves every size, so a smaller shader is
a prefix of a larger one; --sizes "" leaves the kernels out.

The generator is seeded, so every run writes the same files.
"""

import argparse
import array
import os
import random
import subprocess
import sys

SIZES = {"1k": 1000, "10k": 10000, "100k": 100000}
FAMILIES = ("reducible", "irreducible")


class Block:
    __slots__ = ("name", "phis", "insts", "term")

    def __init__(self, name):
        self.name = name
        self.phis = []    # (dest, [(value, predecessor name)])
        self.insts = []   # (dest, op, a, b); op in ARITH or CMP; a, b: names or ints
        self.term = None  # ("br", t) | ("cbr", cond, t, f) | ("ret", value)


ARITH = ("add", "sub", "mul", "xor", "lshr")
CMP = ("ult", "slt", "eq", "ne")


class Cfg:
    """One kernel f(a, b, c, out) whose CFG is built construct by construct.

    Value pools are lists of (name, divergent) for the values that dominate
    the current point; the divergent flag is only the generator's guess and is
    used to mix uniform and divergent conditions.
    """

    def __init__(self, family, target, seed):
        self.family = family
        self.target = target
        self.rng = random.Random(seed)
        self.blocks = []
        self.nvalues = 0
        self.max_depth = 6

    # -- helpers ---------------------------------------------------------
    def block(self):
        b = Block("entry" if not self.blocks else "b%d" % len(self.blocks))
        self.blocks.append(b)
        return b

    def value(self):
        self.nvalues += 1
        return "v%d" % self.nvalues

    def full(self):
        return len(self.blocks) >= self.target

    def pick(self, pool, divergent=None):
        """A recent value of the pool (of the given divergence, if any)."""
        cands = pool if divergent is None else [p for p in pool if p[1] == divergent]
        if not cands:
            cands = pool
        # Prefer recent values (long-ish def-use chains), sometimes old ones.
        if self.rng.random() < 0.7:
            return cands[-1 - self.rng.randrange(min(6, len(cands)))]
        return self.rng.choice(cands)

    def arith(self, b, pool, count):
        for _ in range(count):
            x = self.pick(pool)
            if self.rng.random() < 0.35:
                y = (self.rng.randrange(1, 64), False)
            else:
                y = self.pick(pool)
            op = self.rng.choice(ARITH)
            d = self.value()
            b.insts.append((d, op, x[0], y[0]))
            pool.append((d, x[1] or y[1]))

    def cond(self, b, pool, divergent):
        x = self.pick(pool, divergent)
        if self.rng.random() < 0.5:
            y = (self.rng.randrange(0, 1000), False)
        else:
            y = self.pick(pool, False)
        d = self.value()
        b.insts.append((d, self.rng.choice(CMP), x[0], y[0]))
        return d, x[1] or y[1]

    def coin_divergent(self):
        return self.rng.random() < 0.5

    # -- constructs ------------------------------------------------------
    def region(self, cur, pool, depth):
        """Zero or more constructs starting in open block |cur|; returns the
        open block at the end and its pool."""
        if depth == 0:
            while not self.full():
                cur, pool = self.construct(cur, pool, depth)
            return cur, pool
        count = 0
        if depth < self.max_depth:
            count = self.rng.choice((0, 1, 1, 2) if depth < 3 else (0, 0, 1))
        for _ in range(count):
            if self.full():
                break
            cur, pool = self.construct(cur, pool, depth)
        return cur, pool

    def construct(self, cur, pool, depth):
        r = self.rng.random()
        if self.family == "irreducible":
            if r < 0.6:
                return self.irreducible(cur, pool, depth)
            r = (r - 0.6) / 0.4
        if r < 0.5:
            return self.diamond(cur, pool, depth)
        return self.loop(cur, pool, depth)

    def diamond(self, cur, pool, depth):
        self.arith(cur, pool, self.rng.randrange(1, 3))
        c, cdiv = self.cond(cur, pool, self.coin_divergent())
        then_b = self.block()
        has_else = self.rng.random() < 0.7
        else_b = self.block() if has_else else None
        merge_preds = []
        t_end, t_pool = self.region(then_b, list(pool), depth + 1)
        self.arith(t_end, t_pool, self.rng.randrange(1, 4))
        merge_preds.append((t_end, t_pool))
        if has_else:
            e_end, e_pool = self.region(else_b, list(pool), depth + 1)
            self.arith(e_end, e_pool, self.rng.randrange(1, 4))
            merge_preds.append((e_end, e_pool))
        else:
            merge_preds.append((cur, pool))
        merge = self.block()
        cur.term = ("cbr", c, then_b.name, else_b.name if has_else else merge.name)
        for end, _ in merge_preds[:1 if not has_else else 2]:
            end.term = ("br", merge.name)
        d = self.value()
        picks = [(self.pick(p), e.name) for e, p in merge_preds]
        merge.phis.append((d, [(v[0], e) for v, e in picks]))
        pool = list(pool)
        pool.append((d, cdiv or any(v[1] for v, _ in picks)))
        return merge, pool

    def loop(self, cur, pool, depth):
        pre = cur
        self.arith(pre, pool, 1)
        header = self.block()
        pre.term = ("br", header.name)
        divergent = self.coin_divergent()
        i = self.value()
        acc = self.value()
        i_phi = (i, [(0, pre.name)])
        acc_phi = (acc, [(self.pick(pool)[0], pre.name)])
        header.phis += [i_phi, acc_phi]
        hpool = list(pool) + [(i, divergent), (acc, True)]
        exit_b_preds = []
        while_shaped = self.rng.random() < 0.5
        if while_shaped:
            # A uniform loop has only uniform exits; a divergent one may
            # have a uniform test at the top.
            c, _ = self.cond(header, hpool, divergent and self.coin_divergent())
            body = self.block()
            header_exit = [header, c, body]
            start, spool = body, list(hpool)
        else:
            header_exit = None
            self.arith(header, hpool, 1)
            start, spool = header, list(hpool)
        end, epool = self.region(start, spool, depth + 1)
        self.arith(end, epool, self.rng.randrange(1, 3))
        latch = end
        inext = self.value()
        latch.insts.append((inext, "add", i, 1))
        acc_next = self.pick(epool)[0]
        bound = self.pick(pool, divergent)
        c = self.value()
        latch.insts.append((c, "ult", inext, bound[0]))
        exit_b = self.block()
        latch.term = ("cbr", c, header.name, exit_b.name)
        i_phi[1].append((inext, latch.name))
        acc_phi[1].append((acc_next, latch.name))
        exit_b_preds.append((inext, latch.name))
        if header_exit:
            h, hc, body = header_exit
            h.term = ("cbr", hc, body.name, exit_b.name)
            exit_b_preds.append((i, h.name))
        d = self.value()
        exit_b.phis.append((d, exit_b_preds))
        # The header dominates the exit: its values stay usable after the
        # loop, divergent there (temporal divergence) when the exit is.
        after = pool + [(v, flag or divergent) for v, flag in hpool[len(pool):]]
        after.append((d, True))
        return exit_b, after

    def irreducible(self, cur, pool, depth):
        k = self.rng.choice((2, 3))
        # Uniform cycles: entered and left on uniform conditions only.
        divergent = self.coin_divergent()
        self.arith(cur, pool, 1)
        c, _ = self.cond(cur, pool, divergent)
        dispatch = [cur]
        heads = []
        if k == 2:
            heads = [self.block(), self.block()]
            cur.term = ("cbr", c, heads[0].name, heads[1].name)
            entry_of = [cur, cur]
        else:
            d2 = self.block()
            heads = [self.block(), self.block(), self.block()]
            cur.term = ("cbr", c, heads[0].name, d2.name)
            c2, _ = self.cond(d2, list(pool), divergent)
            d2.term = ("cbr", c2, heads[1].name, heads[2].name)
            dispatch.append(d2)
            entry_of = [cur, d2, d2]
        phis = []
        for n, h in enumerate(heads):
            x = self.value()
            phi = (x, [(self.pick(pool, None if divergent else False)[0], entry_of[n].name)])
            h.phis.append(phi)
            phis.append(phi)
        tails = []
        for n, h in enumerate(heads):
            hpool = list(pool) + [(phis[n][0], divergent)]
            self.arith(h, hpool, self.rng.randrange(1, 3))
            end = h
            if depth + 1 < self.max_depth and self.rng.random() < 0.4 and not self.full():
                end, hpool = self.construct(h, hpool, depth + 1)
            xn = self.value()
            end.insts.append((xn, "add", phis[n][0], 1))
            hpool.append((xn, divergent))
            c, _ = self.cond(end, hpool, divergent)
            tails.append((end, xn, c))
        exit_b = self.block()
        for n, (end, xn, c) in enumerate(tails):
            nxt = heads[(n + 1) % k]
            end.term = ("cbr", c, nxt.name, exit_b.name)
            phis[(n + 1) % k][1].append((xn, end.name))
        d = self.value()
        exit_b.phis.append((d, [(xn, end.name) for end, xn, _ in tails]))
        pool = list(pool) + [(d, divergent)]
        return exit_b, pool

    def build(self):
        entry = self.block()
        entry.insts.append(("tid", "tid", None, None))
        pool = [("a", False), ("b", False), ("c", False), ("tid", True)]
        end, pool = self.region(entry, pool, 0)
        end.term = ("ret", self.pick(pool)[0])
        return self


# -- emitters --------------------------------------------------------------

SPV_ARITH = {"add": "OpIAdd", "sub": "OpISub", "mul": "OpIMul", "xor": "OpBitwiseXor",
             "lshr": "OpShiftRightLogical"}
SPV_CMP = {"ult": "OpULessThan", "slt": "OpSLessThan", "eq": "OpIEqual", "ne": "OpINotEqual"}


def emit_spirv(cfg):
    consts = set()

    def op(v):
        if isinstance(v, int):
            consts.add(v)
            return "%%c%d" % v
        return "%" + v

    body = []
    for b in cfg.blocks:
        body.append("%%%s = OpLabel" % b.name)
        for d, incoming in b.phis:
            body.append("%%%s = OpPhi %%uint %s" % (
                d, " ".join("%s %%%s" % (op(v), p) for v, p in incoming)))
        for d, o, x, y in b.insts:
            if o == "tid":
                body.append("%lid = OpLoad %v3ulong %gl_LocalInvocationID Aligned 32")
                body.append("%lidx = OpCompositeExtract %ulong %lid 0")
                body.append("%tid = OpUConvert %uint %lidx")
            elif o in SPV_ARITH:
                body.append("%%%s = %s %%uint %s %s" % (d, SPV_ARITH[o], op(x), op(y)))
            else:
                body.append("%%%s = %s %%bool %s %s" % (d, SPV_CMP[o], op(x), op(y)))
        t = b.term
        if t[0] == "br":
            body.append("OpBranch %%%s" % t[1])
        elif t[0] == "cbr":
            body.append("OpBranchConditional %%%s %%%s %%%s" % (t[1], t[2], t[3]))
        else:
            body.append("OpStore %%out %s Aligned 4" % op(t[1]))
            body.append("OpReturn")
    head = [
        "; SPIR-V",
        "; Version: 1.2",
        "; Generated by bench/generate.py (%s, %d blocks)" % (cfg.family, len(cfg.blocks)),
        "OpCapability Addresses",
        "OpCapability Kernel",
        "OpCapability Int64",
        "OpMemoryModel Physical64 OpenCL",
        "OpEntryPoint Kernel %f \"f\" %gl_LocalInvocationID",
        "OpName %f \"f\"",
        "OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId",
        "OpDecorate %gl_LocalInvocationID Constant",
        "%void = OpTypeVoid",
        "%bool = OpTypeBool",
        "%uint = OpTypeInt 32 0",
        "%ulong = OpTypeInt 64 0",
        "%v3ulong = OpTypeVector %ulong 3",
        "%ptr_in_v3ulong = OpTypePointer Input %v3ulong",
        "%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint",
        "%fn = OpTypeFunction %void %uint %uint %uint %ptr_cw_uint",
        "%gl_LocalInvocationID = OpVariable %ptr_in_v3ulong Input",
    ]
    head += ["%%c%d = OpConstant %%uint %d" % (v, v) for v in sorted(consts)]
    head += [
        "%f = OpFunction %void None %fn",
        "%a = OpFunctionParameter %uint",
        "%b = OpFunctionParameter %uint",
        "%c = OpFunctionParameter %uint",
        "%out = OpFunctionParameter %ptr_cw_uint",
    ]
    return "\n".join(head + body + ["OpFunctionEnd", ""])


def emit_llvm(cfg):
    def op(v):
        return str(v) if isinstance(v, int) else "%" + v

    out = [
        "; Generated by bench/generate.py (%s, %d blocks)" % (cfg.family, len(cfg.blocks)),
        "target triple = \"amdgcn-amd-amdhsa\"",
        "",
        "declare i32 @llvm.amdgcn.workitem.id.x()",
        "",
        "define amdgpu_kernel void @f(i32 %a, i32 %b, i32 %c, ptr addrspace(1) %out) {",
    ]
    for b in cfg.blocks:
        out.append("%s:" % b.name)
        for d, incoming in b.phis:
            out.append("  %%%s = phi i32 %s" % (
                d, ", ".join("[ %s, %%%s ]" % (op(v), p) for v, p in incoming)))
        for d, o, x, y in b.insts:
            if o == "tid":
                out.append("  %tid = call i32 @llvm.amdgcn.workitem.id.x()")
            elif o in ARITH:
                out.append("  %%%s = %s i32 %s, %s" % (d, o, op(x), op(y)))
            else:
                out.append("  %%%s = icmp %s i32 %s, %s" % (d, o, op(x), op(y)))
        t = b.term
        if t[0] == "br":
            out.append("  br label %%%s" % t[1])
        elif t[0] == "cbr":
            out.append("  br i1 %%%s, label %%%s, label %%%s" % (t[1], t[2], t[3]))
        else:
            out.append("  store i32 %s, ptr addrspace(1) %%out, align 4" % op(t[1]))
            out.append("  ret void")
    out += ["}", ""]
    return "\n".join(out)


# -- GLSL ------------------------------------------------------------------

def emit_glsl(seed, statements):
    """A fragment shader: nested ifs on uniforms, inputs and texture values,
    loops with uniform and divergent trip counts, texture samples inside
    control flow, and a few helper functions called from several places."""
    rng = random.Random(seed)
    lines = []
    counter = [0]
    vars_ = ["acc", "uv.x", "uv.y", "u.k0", "u.k1", "float(u.n)"]

    def var():
        return rng.choice(vars_)

    def expr():
        r = rng.random()
        if r < 0.3:
            return "texture(tex[%d], uv + vec2(%s, %s) * 0.01).%s" % (
                rng.randrange(4), var(), var(), rng.choice("xyzw"))
        if r < 0.5:
            return "helper%d(%s, %s)" % (rng.randrange(4), var(), var())
        return "%s %s %s" % (var(), rng.choice("+-*"), rng.choice((var(), "%.2f" % rng.random())))

    def stmt(depth, ind):
        counter[0] += 1
        pad = "  " * ind
        r = rng.random()
        if depth > 5 or r < 0.35:
            lines.append("%sacc += %s;" % (pad, expr()))
            return
        if r < 0.7:
            cond = rng.choice(("u.k0 > %.2f" % rng.random(),   # uniform
                               "uv.x > %.2f" % rng.random(),   # divergent
                               "acc > %.2f" % rng.random(),
                               "%s > 0.5" % expr()))
            lines.append("%sif (%s) {" % (pad, cond))
            for _ in range(rng.randrange(1, 4)):
                stmt(depth + 1, ind + 1)
            if rng.random() < 0.6:
                lines.append("%s} else {" % pad)
                for _ in range(rng.randrange(1, 3)):
                    stmt(depth + 1, ind + 1)
            lines.append("%s}" % pad)
            return
        i = "i%d" % counter[0]
        bound = rng.choice(("u.n", "int(uv.x * 8.0)", "4"))
        lines.append("%sfor (int %s = 0; %s < %s; ++%s) {" % (pad, i, i, bound, i))
        for _ in range(rng.randrange(1, 4)):
            stmt(depth + 1, ind + 1)
        if rng.random() < 0.3:
            lines.append("%s  if (acc > %.2f) break;" % (pad, 10 * rng.random()))
        lines.append("%s}" % pad)

    head = [
        "#version 450",
        "// Generated by bench/generate.py",
        "layout(location = 0) in vec2 uv;",
        "layout(location = 0) out vec4 color;",
        "layout(set = 0, binding = 0) uniform sampler2D tex[4];",
        "layout(set = 0, binding = 1) uniform U { float k0; float k1; int n; } u;",
    ]
    for h in range(4):
        head += [
            "float helper%d(float x, float y) {" % h,
            "  float r = x;",
            "  if (y > %.2f) r += texture(tex[%d], vec2(x, y)).x; else r *= y;" % (rng.random(), h),
            "  for (int i = 0; i < u.n; ++i) { r += float(i) * y; if (r > 4.0) break; }",
            "  return r;",
            "}",
        ]
    head += ["void main() {", "  float acc = 0.0;"]
    while counter[0] < statements:
        stmt(0, 1)
    return "\n".join(head + lines + ["  color = vec4(acc);", "}", ""])


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def count_labels(spv_path):
    """Blocks in a binary module: OpLabel (opcode 248) instructions."""
    words = array.array("I")
    with open(spv_path, "rb") as f:
        words.frombytes(f.read())
    i, labels = 5, 0
    while i < len(words):
        op, n = words[i] & 0xFFFF, words[i] >> 16
        labels += op == 248
        i += max(n, 1)
    return labels


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (under build/)")
    ap.add_argument("--sizes", default="1k,10k,100k", help="comma-separated: 1k, 10k, 100k")
    ap.add_argument("--glsl-statements", type=int, default=6000,
                    help="statements in frag_large (about 1.5 blocks each)")
    ap.add_argument("--frag", action="append", metavar="NAME=STATEMENTS",
                    help="write this GLSL fragment shader instead of frag_large "
                         "(repeatable; about 1.5 blocks per statement)")
    ap.add_argument("--no-validate", action="store_true", help="skip spirv-val")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    made = []
    for family in FAMILIES:
        for size in filter(None, args.sizes.split(",")):
            name = "%s_%s" % (family, size)
            seed = 1000 + 10 * FAMILIES.index(family) + list(SIZES).index(size)
            cfg = Cfg(family, SIZES[size], seed)
            cfg.build()
            base = os.path.join(args.out, name)
            with open(base + ".spvasm", "w") as f:
                f.write(emit_spirv(cfg))
            with open(base + ".ll", "w") as f:
                f.write(emit_llvm(cfg))
            run(["spirv-as", "--target-env", "spv1.2", base + ".spvasm", "-o", base + ".spv"])
            if not args.no_validate:
                run(["spirv-val", "--target-env", "spv1.2", base + ".spv"])
            made.append((name, len(cfg.blocks)))
    frags = [("frag_large", args.glsl_statements)]
    if args.frag:
        frags = [(name, int(count)) for name, count in (f.split("=", 1) for f in args.frag)]
    for name, statements in frags:
        base = os.path.join(args.out, name)
        with open(base + ".frag", "w") as f:
            f.write(emit_glsl(7, statements))
        run(["glslangValidator", "-V", base + ".frag", "-o", base + ".spv"])
        if not args.no_validate:
            run(["spirv-val", "--target-env", "vulkan1.0", base + ".spv"])
        made.append((name, count_labels(base + ".spv")))
    for name, blocks in made:
        print("%-20s %7d blocks" % (name, blocks))


if __name__ == "__main__":
    sys.exit(main())
