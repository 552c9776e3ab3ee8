#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Seeded random GLSL programs for fuzzing the analysis and the passes on
valid modules (docs/fuzzing.md).

  glsl_gen.py --seed N [--count K] --out DIR [--check] [--comparable]

writes K programs, seeds N, N+1, ..., as DIR/gen_<seed>.frag or
DIR/gen_<seed>.comp (the stage is the seed's first random draw). As a library:
`generate(seed, comparable=False) -> (filename, source_text)`.

`--comparable` writes fragment shaders only, whose results a Vulkan driver and
the simulator must agree on (test/vulkan/fragment_sim_test.py): no subgroup
operations but the quad ones, and those, derivatives and implicit-LOD sampling
only in control flow that is uniform across the draw and before any
`discard` or `demote` in the function (derivatives and implicit LOD also after
`demote`, which keeps helpers); no `subgroupElect`, `gl_SubgroupInvocationID`
or `gl_SubgroupSize` (how pixels map to subgroups is the driver's choice);
descriptor arrays indexed by constants, buffer arrays also by push constants
(never divergently, and never `nonuniformEXT`: lavapipe has none of the
non-uniform indexing features, nor dynamic indexing of sampled images); float
literals multiples of 1/16. Without the option the programs are unchanged.

What the programs contain (each feature drawn at random, so any one program
has a few of them and a few hundred seeds have all of them): nested `for`,
`while` and `do` loops with `break` and `continue`, `switch` with
fall-through, helper functions with `in`/`out`/`inout` parameters, early
returns; in fragment shaders `discard`, `demote`
(GL_EXT_demote_to_helper_invocation), derivatives and implicit-LOD sampling;
in compute shaders barriers, shared memory and atomics, and in one in ten
explicit-LOD sampling and texel fetches; in both the subgroup
operations of GL_KHR_shader_subgroup_{basic,vote,ballot,arithmetic,shuffle,
shuffle_relative,clustered,quad}, and descriptor arrays indexed by a constant,
a push constant, or a divergent value with and without `nonuniformEXT`
(GL_EXT_nonuniform_qualifier). Every program has, with some probability, the
loop shape on which the lint's explainer once crashed
(test/lint/explain/fog_break_counter.frag): a loop counter in a Function
variable, a divergent `break`, and the counter tested after the loop around a
convergent operation or a descriptor access.

Guarantees the driver (command_driver.py) relies on:
- Every program compiles with `glslangValidator -V --target-env vulkan1.1`
  and with vulkan1.2 (spirv-conv's default for GLSL), and spirv-val accepts
  the result for that env. `--check` verifies this for the programs written.
- Every loop has a bounded counter, every local and `out` parameter is
  written before it is read, and no expression is undefined (no division, no
  float-to-int conversion outside [0, 1000], no NaN or infinity: float
  variables are clamped to [-1000, 1000] at every assignment), so the
  simulator's result does not depend on how an optimizer folds undefined
  values.
- Compute shaders without images run in the simulator (`spirv-conv run`,
  which has no images) without a fault
  when every buffer and push-constant word is below BUFFER_WORD_LIMIT (the
  driver's jobs fill them so): accesses are in bounds, and barriers are only
  placed where the whole workgroup arrives. Conditions that the analysis
  must call divergent but that hold for every invocation at run time
  (`inb.data[LID & 63u] < 256u`) let barriers sit in statically divergent
  control flow too. Invocations only write their own output words and
  shared-memory slot, and read other slots only between two barriers, so
  the result does not depend on the order subgroups run in. Their switches
  fall through only on a uniform selector: invocations falling through into
  a case may or may not reconverge with those that branched there directly
  (SPV_KHR_maximal_reconvergence leaves it open), so a subgroup operation
  there would have two right results.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys

BUFFER_WORD_LIMIT = 256     # every buffer/push-constant word of a job is below this
OUT_SLOTS = 8               # output words per invocation (compute)
MAX_DEPTH = 4               # statement nesting
TARGET_ENVS = ("vulkan1.1", "vulkan1.2")

EXTENSIONS = """\
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
"""

# Resources shared by both stages: a plain buffer, an array of buffers and an
# array of uniform blocks (descriptor arrays: the NonUniform rules and passes),
# and push constants (the uniform values).
COMMON_RESOURCES = """\
layout(push_constant) uniform PC { uint sel; uint n; uint mode; uint pad; } pc;
layout(set = 0, binding = 0) readonly buffer In { uint data[64]; } inb;
layout(set = 0, binding = 2) readonly buffer Arr { uint data[16]; } arr[4];
layout(set = 0, binding = 3) uniform Ubo { uvec4 v[4]; } ubos[3];
"""

FRAG_RESOURCES = """\
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint fid;
layout(location = 0) out vec4 color;
"""

IMAGE_RESOURCES = """\
layout(set = 1, binding = 0) uniform sampler2D tex0;
layout(set = 1, binding = 1) uniform sampler2D tex1;
layout(set = 1, binding = 2) uniform sampler2D texArr[4];
layout(set = 1, binding = 3) uniform texture2D imgs[4];
layout(set = 1, binding = 4) uniform sampler smp;
"""

COMP_RESOURCES = """\
layout(local_size_x = %(x)d, local_size_y = %(y)d, local_size_z = 1) in;
layout(set = 0, binding = 1) buffer Out { uint count; uint o[]; } outb;
shared uint sh[%(local)d];
#define LID gl_LocalInvocationIndex
#define GID (gl_WorkGroupID.x * %(local)du + gl_LocalInvocationIndex)
"""

LOCAL_SIZES = ((64, 1), (32, 1), (16, 1), (8, 4))


class Ctx:
    """Where a statement is generated. |uniform|: the whole workgroup (compute)
    is known to execute it together at run time, so a barrier may go there.
    |brk|, |cont|: None outside a breakable construct / loop, else whether
    the body of the innermost one is |uniform| (a divergent break or continue
    would make it non-uniform after the fact, so it is only allowed when it
    is not). |outer|: the same for the outermost loop or switch of the
    function (a divergent return leaves all of them). |counters|: the loop
    counters in scope, (name, uniform)."""

    def __init__(self, uniform=True, brk=None, cont=None, outer=None, counters=(), depth=0):
        self.uniform = uniform
        self.brk, self.cont, self.outer = brk, cont, outer
        self.counters = counters
        self.depth = depth

    def inner(self, uniform=None, **changes):
        fields = dict(uniform=self.uniform if uniform is None else self.uniform and uniform,
                      brk=self.brk, cont=self.cont, outer=self.outer,
                      counters=self.counters, depth=self.depth + 1)
        fields.update(changes)
        return Ctx(**fields)


class Function:
    """The function being written. |tainted|: a divergent return was emitted,
    so the rest of it runs with part of the workgroup. |barriers|: it may
    contain barriers, so it is only called where the workgroup is uniform."""

    def __init__(self, name, returns, params, barriers):
        self.name, self.returns, self.params, self.barriers = name, returns, params, barriers
        self.tainted = False


class Generator:
    def __init__(self, seed, comparable=False):
        self.r = random.Random(seed)
        self.seed = seed
        self.comparable = comparable
        self.frag = self.r.random() < 0.5 or comparable
        # comparable: where quad operations / derivatives may go (see statement()).
        self.quad_ok = self.deriv_ok = True
        self.discarded = self.demoted = False
        # A few compute shaders sample images too: the simulator has none, so
        # `run` must refuse them cleanly (and the transforms go unexecuted).
        self.images = self.frag or self.r.random() < 0.1
        self.lines = []
        self.indent = 0
        self.names = 0
        self.budget = 0                            # statements left in this function
        self.helpers = []
        self.fn = None
        self.uvars = self.fvars = ()
        self.ctx_counters = ()
        if not self.frag:
            self.local = self.r.choice(LOCAL_SIZES)

    # -- output ---------------------------------------------------------------

    def emit(self, line):
        self.lines.append("    " * self.indent + line)

    def fresh(self, prefix):
        self.names += 1
        return "%s%d" % (prefix, self.names)

    def chance(self, p):
        return self.r.random() < p

    # -- expressions ----------------------------------------------------------

    def divergent_uint(self):
        """A built-in or input that differs between invocations."""
        if self.frag and self.comparable:
            return self.r.choice(("fid", "uint(gl_FragCoord.x)", "uint(gl_FragCoord.y)"))
        if self.frag:
            return self.r.choice(("fid", "gl_SubgroupInvocationID", "uint(gl_FragCoord.x)",
                                  "uint(gl_FragCoord.y)"))
        return self.r.choice(("LID", "GID", "gl_SubgroupInvocationID", "gl_LocalInvocationID.x",
                              "gl_GlobalInvocationID.x"))

    def uniform_uint(self):
        choices = ["pc.sel", "pc.n", "pc.mode", "%du" % self.r.randint(0, 9), "gl_SubgroupSize"]
        if self.comparable:
            choices.pop()
        if not self.frag:
            choices.append("gl_WorkGroupID.x")
        return self.r.choice(choices)

    def descriptor_index(self, count, images=False):
        """An index into an array of |count| descriptors: constant, uniform (a
        push constant), divergent, or divergent under nonuniformEXT (also,
        redundantly, around a uniform one)."""
        kind = self.r.randrange(5)
        if self.comparable:
            # Constant, or uniform for the buffer arrays (|images|: sampled images,
            # which lavapipe cannot index dynamically at all).
            if kind == 1 and not images:
                return "pc.sel %% %du" % count
            return str(self.r.randrange(count))
        if kind == 0:
            return str(self.r.randrange(count))
        if kind == 1:
            return "pc.sel %% %du" % count
        if kind == 4:
            return "nonuniformEXT(pc.mode %% %du)" % count
        index = "%s %% %du" % (self.uexpr(1), count)
        return "nonuniformEXT(%s)" % index if kind == 3 else index

    def load(self):
        """A buffer or uniform-block read, in bounds."""
        kind = self.r.randrange(3)
        if kind == 0:
            return "inb.data[(%s) & 63u]" % self.uexpr(1)
        if kind == 1:
            return "arr[%s].data[(%s) & 15u]" % (self.descriptor_index(4), self.uexpr(1))
        return "ubos[%s].v[(%s) & 3u].%s" % (self.descriptor_index(3), self.uexpr(1),
                                             self.r.choice("xyzw"))

    def subgroup_uint(self, depth):
        e = self.uexpr(depth + 1)
        op = self.r.randrange(12)
        if self.comparable:
            if not self.quad_ok:
                return e
            op = 9 + op % 2
        if op == 0:
            return "subgroup%s(%s)" % (self.r.choice(("Add", "Min", "Max", "And", "Or", "Xor",
                                                      "Mul")), e)
        if op == 1:
            return "subgroup%s%s(%s)" % (self.r.choice(("Inclusive", "Exclusive")),
                                         self.r.choice(("Add", "Max", "Xor")), e)
        if op == 2:
            return "subgroupBroadcastFirst(%s)" % e
        if op == 3:
            return "subgroupBroadcast(%s, %du)" % (e, self.r.randrange(4))
        if op == 4:
            return "subgroupBallotBitCount(subgroupBallot(%s))" % self.cond_divergent(depth + 1)
        if op == 5:
            return "subgroupBallotFindLSB(subgroupBallot(%s))" % self.cond_divergent(depth + 1)
        if op == 6:
            lane = self.r.choice(("0u", "gl_SubgroupInvocationID ^ 1u",
                                  "(%s) & 7u" % self.uexpr(2)))
            return "subgroupShuffle(%s, %s)" % (e, lane)
        if op == 7:
            return "subgroupShuffle%s(%s, %du)" % (self.r.choice(("Xor", "Up", "Down")), e,
                                                  self.r.choice((1, 2)))
        if op == 8:
            return "subgroupClustered%s(%s, %du)" % (self.r.choice(("Add", "Max", "Or")), e,
                                                    self.r.choice((2, 4)))
        if op == 9:
            return "subgroupQuadBroadcast(%s, %du)" % (e, self.r.randrange(4))
        if op == 10:
            return "subgroupQuadSwap%s(%s)" % (self.r.choice(("Horizontal", "Vertical",
                                                              "Diagonal")), e)
        return "uint(subgroup%s(%s))" % (self.r.choice(("All", "Any")),
                                         self.cond_divergent(depth + 1))

    def uexpr(self, depth=0):
        """A uint expression; |depth| bounds the nesting."""
        leaf = depth >= 3 or self.chance(0.35)
        if leaf:
            choices = [lambda: "%du" % self.r.randint(0, 300), self.divergent_uint,
                       self.uniform_uint]
            if self.uvars:
                choices += [lambda: self.r.choice(self.uvars)] * 3
            return self.r.choice(choices)()
        kind = self.r.randrange(9)
        if kind <= 2:
            return "(%s %s %s)" % (self.uexpr(depth + 1), self.r.choice("+-*^&|"),
                                   self.uexpr(depth + 1))
        if kind == 3:
            return "(%s %s %du)" % (self.uexpr(depth + 1), self.r.choice(("<<", ">>")),
                                    self.r.randint(1, 7))
        if kind == 4:
            return "%s(%s, %s)" % (self.r.choice(("min", "max")), self.uexpr(depth + 1),
                                   self.uexpr(depth + 1))
        if kind == 5:
            return self.load()
        if kind == 6:
            return self.subgroup_uint(depth)
        if kind == 7:
            return "uint(clamp(%s, 0.0, 1000.0))" % self.fexpr(depth + 1)
        return "(%s ? %s : %s)" % (self.cond(depth + 1)[0], self.uexpr(depth + 1),
                                   self.uexpr(depth + 1))

    def sample(self, depth):
        """A texture read, one float channel. Compute shaders have no implicit
        derivatives: explicit LOD, gradients and texel fetches only."""
        uv = "uv" if self.frag else "CUV"
        coord = self.r.choice((uv, "%s * %s" % (uv, self.fexpr(depth + 1)),
                               "%s + vec2(%s)" % (uv, self.fexpr(depth + 1))))
        channel = self.r.choice("rgba")
        kind = self.r.randrange(7) if self.frag else self.r.choice((2, 3, 5))
        if self.comparable and not self.deriv_ok and kind in (0, 1, 4, 6):
            kind = self.r.choice((2, 3, 5))
        if kind == 0:
            return "texture(tex0, %s).%s" % (coord, channel)
        if kind == 1:
            return "texture(tex1, %s, %s).%s" % (coord, self.fexpr(depth + 1), channel)
        if kind == 2:
            return "textureLod(tex0, %s, %s).%s" % (coord, self.fexpr(depth + 1), channel)
        if kind == 3:
            return "textureGrad(tex1, %s, vec2(%s), vec2(0.01)).%s" % (coord, self.fexpr(depth + 1),
                                                                       channel)
        if kind == 4:
            return "texture(texArr[%s], %s).%s" % (self.descriptor_index(4, True), coord, channel)
        if kind == 5:
            return "texelFetch(texArr[%s], ivec2(%s & 7u, 1), 0).%s" % (
                self.descriptor_index(4, True), self.uexpr(depth + 1), channel)
        index = self.descriptor_index(4, True)
        if self.chance(0.3) and not self.comparable:
            return "texture(nonuniformEXT(sampler2D(imgs[%s], smp)), %s).%s" % (
                index.replace("nonuniformEXT", ""), coord, channel)
        return "texture(sampler2D(imgs[%s], smp), %s).%s" % (index, coord, channel)

    def fexpr(self, depth=0):
        """A float expression, finite: its leaves are in [-1000, 1023] and it
        has at most three levels of products."""
        leaf = depth >= 3 or self.chance(0.35)
        if leaf:
            choices = [lambda: self.literal(),
                       lambda: "float(%s & 1023u)" % self.uexpr(3)]
            if self.fvars:
                choices += [lambda: self.r.choice(self.fvars)] * 3
            if self.frag:
                choices += [lambda: self.r.choice(("uv.x", "uv.y", "gl_FragCoord.x * %s" % (
                    "0.015625" if self.comparable else "0.01")))]
            return self.r.choice(choices)()
        kind = self.r.randrange(8 if self.frag else 7 if self.images else 5)
        if kind <= 1:
            return "(%s %s %s)" % (self.fexpr(depth + 1), self.r.choice("+-*"),
                                   self.fexpr(depth + 1))
        if kind == 2:
            return "%s(%s)" % (self.r.choice(("fract", "abs", "floor")), self.fexpr(depth + 1))
        if kind == 3:
            ops = ("Add", "Max", "InclusiveAdd", "QuadSwapHorizontal", "BroadcastFirst")
            op = self.r.choice(ops)
            if self.comparable:
                if not self.quad_ok:
                    return "abs(%s)" % self.fexpr(depth + 1)
                op = "QuadSwapHorizontal"
            return "subgroup%s(%s)" % (op, self.fexpr(depth + 1))
        if kind == 4:
            return "%s(%s, %s)" % (self.r.choice(("min", "max")), self.fexpr(depth + 1),
                                   self.fexpr(depth + 1))
        if kind <= 6:
            return self.sample(depth)
        if self.comparable and not self.deriv_ok:
            return "fract(%s)" % self.fexpr(depth + 1)
        return "%s(%s)" % (self.r.choice(("dFdx", "dFdy", "fwidth", "dFdxFine", "dFdyCoarse")),
                           self.fexpr(depth + 1))

    def literal(self):
        if self.comparable:
            return "%.4f" % (self.r.randint(-64, 64) / 16.0)
        return "%.2f" % self.r.uniform(-4, 4)

    def cond_divergent(self, depth=0):
        kind = self.r.randrange(5)
        if kind == 0:
            return "(%s & %du) == %du" % (self.uexpr(depth + 1), 3, self.r.randrange(4))
        if kind == 1:
            return "%s > %s" % (self.fexpr(depth + 1), self.fexpr(depth + 1))
        if kind == 2 and not self.comparable:
            return "subgroupElect()"
        if kind == 3:
            return "%s < %du" % (self.divergent_uint(), self.r.randint(1, 40))
        return "%s %s %s" % (self.uexpr(depth + 1), self.r.choice(("<", ">=", "!=")),
                             self.uexpr(depth + 1))

    def cond(self, depth=0):
        """(condition, uniform at run time)."""
        kind = self.r.randrange(6)
        if kind == 0:
            return "%s %s %du" % (self.uniform_uint(), self.r.choice(("<", ">", "==", "!=")),
                                  self.r.randint(0, 9)), True
        counters = [c for c in self.ctx_counters if c[1]]
        if kind == 1 and counters:
            return "%s %s %d" % (self.r.choice(counters)[0], self.r.choice(("<", "==", ">")),
                                 self.r.randint(0, 4)), True
        if kind == 2 and not self.frag:
            # Divergent for the analysis, uniform at run time (BUFFER_WORD_LIMIT).
            load = "inb.data[(%s) & 63u]" % self.uexpr(2)
            if self.chance(0.5):
                return "%s < %du" % (load, BUFFER_WORD_LIMIT), True
            return "%s >= %du" % (load, BUFFER_WORD_LIMIT + self.r.randint(0, 100)), True
        return self.cond_divergent(depth), False

    # -- statements -----------------------------------------------------------

    def block(self, ctx, count=None):
        """Statements at |ctx|, one level deeper than the enclosing line."""
        self.indent += 1
        counters = self.ctx_counters      # the nested loops' go out of scope after it
        n = count if count is not None else self.r.randint(1, 4)
        for _ in range(n):
            if self.budget <= 0:
                break
            self.statement(ctx)
        self.ctx_counters = counters
        self.indent -= 1

    def here(self, ctx):
        """|ctx| with what happened earlier in the function (a divergent return)."""
        return ctx.inner(uniform=not self.fn.tainted, depth=ctx.depth)

    def statement(self, ctx):
        ctx = self.here(ctx)
        self.ctx_counters = ctx.counters
        self.quad_ok = ctx.uniform and not self.discarded and not self.demoted
        self.deriv_ok = ctx.uniform and not self.discarded
        self.budget -= 1
        options = [(self.assign, 6), (self.accumulate, 3)]
        if ctx.depth < MAX_DEPTH:
            options += [(self.if_stmt, 4), (self.for_loop, 3), (self.counted_while, 2),
                        (self.do_loop, 1), (self.switch, 2), (self.guarded_loop, 1)]
        if self.helpers:
            options.append((self.call, 2))
        if ctx.brk is not None or ctx.cont is not None:
            options.append((self.jump, 3))
        options.append((self.early_return, 1))
        if self.frag:
            options += [(self.kill, 1)]
        else:
            # Barriers only where the whole workgroup arrives.
            options += [(self.barrier, 2 if ctx.uniform else 0),
                        (self.exchange, 1 if ctx.uniform else 0),
                        (self.atomic, 1), (self.own_slot, 1)]
        options.append((self.elect_block,
                        1 if ctx.depth < MAX_DEPTH and not self.comparable else 0))
        fns = [f for f, w in options for _ in range(w)]
        self.r.choice(fns)(ctx)

    def assign(self, ctx):
        if self.chance(0.6):
            var = self.r.choice(self.uvars)
            self.emit("%s %s %s;" % (var, self.r.choice(("=", "+=", "^=")), self.uexpr()))
        else:
            var = self.r.choice(self.fvars)
            self.emit("%s = clamp(%s, -1000.0, 1000.0);" % (var, self.fexpr()))

    def accumulate(self, ctx):
        """Into the program's output: the fragment colour, or this invocation's words."""
        if self.frag:
            self.emit("color.%s += %s;" % (self.r.choice("xyzw"), self.fexpr()))
        else:
            self.emit("outb.o[GID * %du + %du] += %s;" % (OUT_SLOTS, self.r.randrange(OUT_SLOTS),
                                                        self.uexpr()))

    def if_stmt(self, ctx):
        cond, uniform = self.cond()
        self.emit("if (%s) {" % cond)
        self.block(ctx.inner(uniform))
        if self.chance(0.4):
            self.emit("} else {")
            self.block(ctx.inner(uniform))
        self.emit("}")

    def loop_ctx(self, ctx, uniform, counter=None):
        """The body's context. A loop is planned with or without divergent
        exits: with them, its body is non-uniform from the start (a thread
        that broke in an earlier iteration misses the code before the break)."""
        body_uniform = ctx.uniform and uniform and not self.chance(0.5)
        counters = ctx.counters + ((counter,) if counter else ())
        outer = body_uniform if ctx.outer is None else ctx.outer
        return ctx.inner(body_uniform, brk=body_uniform, cont=body_uniform, outer=outer,
                         counters=counters)

    def bound(self):
        """(loop bound as an int expression, uniform at run time)."""
        kind = self.r.randrange(4)
        if kind == 0:
            return str(self.r.randint(1, 5)), True
        if kind == 1:
            return "int(min(%s, 5u))" % self.uniform_uint(), True
        if kind == 2 and not self.frag:
            return "3 + int(inb.data[(%s) & 63u] >> 12u)" % self.divergent_uint(), True
        return "int((%s) %% 5u)" % self.uexpr(2), False

    def for_loop(self, ctx):
        i = self.fresh("i")
        bound, uniform = self.bound()
        self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, bound, i))
        self.block(self.loop_ctx(ctx, uniform, (i, uniform)))
        self.emit("}")

    def do_loop(self, ctx):
        # The counter goes up first, so `continue` (to the test) cannot skip it.
        d = self.fresh("d")
        bound, uniform = self.bound()
        self.emit("int %s = 0;" % d)
        self.emit("do {")
        self.indent += 1
        self.emit("%s++;" % d)
        self.indent -= 1
        self.block(self.loop_ctx(ctx, uniform, (d, uniform)))
        self.emit("} while (%s < %s);" % (d, bound))

    def guarded_loop(self, ctx):
        """`for (;;)` left only by breaks, the first of them bounded."""
        g = self.fresh("g")
        cond, _ = self.cond()
        self.emit("for (int %s = 0; ; %s++) {" % (g, g))
        self.indent += 1
        self.emit("if (%s >= %d || %s) break;" % (g, self.r.randint(1, 4), cond))
        self.indent -= 1
        # The break's condition may differ between invocations.
        self.block(self.loop_ctx(ctx, False, (g, False)))
        self.emit("}")

    def counted_while(self, ctx):
        """Issue 38 §1's shape: a Function-variable counter, a divergent break,
        the counter tested after the loop around a convergent operation or a
        descriptor access. Nothing else leaves the loop (no `continue`: it
        would skip the increment; no second `break`)."""
        n = self.fresh("n")
        limit = self.r.randint(2, 6)
        never = False
        if self.frag and self.comparable:
            # Explicit LOD: the break is divergent, so later iterations lack lanes.
            brk = "textureLod(%s, uv * float(%s + 1), 0.0).%s > 0.7" % (
                self.r.choice(("tex0", "texArr[%s]" % self.descriptor_index(4, True))), n,
                self.r.choice("rgba"))
        elif self.frag:
            brk = "texture(%s, uv * float(%s + 1)).%s > 0.7" % (
                self.r.choice(("tex0", "texArr[%s]" % self.descriptor_index(4))), n,
                self.r.choice("rgba"))
        elif self.chance(0.5):
            # Never true at run time (BUFFER_WORD_LIMIT), so the code after the
            # loop stays uniform and may hold a barrier.
            brk = "inb.data[(%s + uint(%s)) & 63u] > %du" % (self.divergent_uint(), n,
                                                            BUFFER_WORD_LIMIT + 7)
            never = True
        else:
            brk = "%s == uint(%s)" % (self.r.choice(("gl_SubgroupInvocationID", "(LID & 7u)")), n)
        self.emit("int %s = 0;" % n)
        self.emit("while (%s < %d) {" % (n, limit))
        self.indent += 1
        self.emit("if (%s) break;" % brk)
        self.indent -= 1
        if self.chance(0.4):
            body = self.loop_ctx(ctx, False)
            body.brk = body.cont = None
            self.block(body, 1)
        self.indent += 1
        self.emit("%s++;" % n)
        self.indent -= 1
        self.emit("}")
        self.emit("if (%s == %d) {" % (n, limit))
        self.indent += 1
        self.convergent_use(never and self.here(ctx).uniform)
        self.indent -= 1
        self.emit("}")

    def convergent_use(self, uniform):
        """A convergent operation or a descriptor access (the explainer's subjects)."""
        if self.frag and self.comparable:
            # After a divergent break: no derivatives, no subgroup operations.
            if self.chance(0.5):
                self.emit("color += textureLod(%s, uv, 0.0);" % self.r.choice(
                    ("tex1", "texArr[%s]" % self.descriptor_index(4, True))))
            else:
                self.emit("color.y += float(%s);" % self.uexpr(1))
            return
        if self.frag:
            kind = self.r.randrange(3)
            if kind == 0:
                self.emit("color += texture(%s, uv);" % self.r.choice(
                    ("tex1", "texArr[%s]" % self.descriptor_index(4))))
            elif kind == 1:
                self.emit("color.x += dFdx(%s);" % self.fexpr(1))
            else:
                self.emit("color.y += float(subgroupAdd(%s));" % self.uexpr(1))
            return
        kind = self.r.randrange(3)
        if kind == 0 and uniform:
            self.emit("barrier();")
        elif kind == 1:
            self.emit("%s += arr[%s].data[0];" % (self.r.choice(self.uvars),
                                                  self.descriptor_index(4)))
        else:
            self.emit("%s += subgroupAdd(%s);" % (self.r.choice(self.uvars), self.uexpr(1)))

    def switch(self, ctx):
        divergent = self.chance(0.5)
        selector = "%s %% 5u" % (self.uexpr(1) if divergent else self.uniform_uint())
        switch_uniform = ctx.uniform and not divergent and self.chance(0.5)
        outer = switch_uniform if ctx.outer is None else ctx.outer
        inner = ctx.inner(switch_uniform, brk=switch_uniform, outer=outer)
        labels = sorted(self.r.sample(range(5), self.r.randint(1, 4)))
        self.emit("switch (%s) {" % selector)
        cases = ["case %du:" % v for v in labels]
        if self.chance(0.6):
            cases.insert(self.r.randint(0, len(cases)), "default:")
        # Invocations falling through into a case may or may not reconverge
        # with those that branched to it directly (SPV_KHR_maximal_reconvergence
        # leaves it open), so a subgroup operation there has two right results
        # and a transform may pick the other one. Compute shaders, which the
        # driver runs, fall through only where the selector is uniform.
        fall_through = self.frag or not divergent
        for k, label in enumerate(cases):
            self.emit(label)
            # Consecutive labels share a body; otherwise a body that may fall through.
            if k + 1 < len(cases) and self.chance(0.2):
                continue
            self.block(inner, self.r.randint(1, 2))
            if k + 1 == len(cases) or not fall_through or self.chance(0.6):
                self.indent += 1
                self.emit("break;")
                self.indent -= 1
        self.emit("}")

    def jump(self, ctx):
        """`break` or `continue` under a condition; a divergent one only where
        the construct it leaves is already non-uniform."""
        cond, uniform = self.cond()
        uniform = uniform and ctx.uniform
        can = [kw for kw, body in (("break", ctx.brk), ("continue", ctx.cont))
               if body is not None and (uniform or not body)]
        if can:
            self.emit("if (%s) %s;" % (cond, self.r.choice(can)))

    def early_return(self, ctx):
        cond, uniform = self.cond()
        uniform = uniform and ctx.uniform
        if not uniform and ctx.outer:
            # Would leave a loop or switch planned uniform divergently.
            return
        value = " %s" % self.expr_of(self.fn.returns) if self.fn.returns != "void" else ""
        self.emit("if (%s) return%s;" % (cond, value))
        if not uniform:
            self.fn.tainted = True

    def kill(self, ctx):
        cond, _ = self.cond()
        kind = self.r.choice(("discard", "demote", "demote"))
        self.emit("if (%s) %s;" % (cond, kind))
        if kind == "discard":
            self.discarded = True
        else:
            self.demoted = True
        if self.chance(0.3):
            self.emit("color.w += float(helperInvocationEXT());")

    def barrier(self, ctx):
        self.emit(self.r.choice(("barrier();", "memoryBarrierShared(); barrier();",
                                 "groupMemoryBarrier(); barrier();", "subgroupBarrier();",
                                 "subgroupMemoryBarrierShared(); barrier();")))

    def exchange(self, ctx):
        """Shared memory: write the own slot, read another between barriers."""
        self.emit("sh[LID] = %s;" % self.uexpr())
        self.emit("barrier();")
        self.emit("%s += sh[(LID + %du) %% %du];" % (self.r.choice(self.uvars),
                                                    self.r.randint(1, self.local_count - 1),
                                                    self.local_count))
        self.emit("barrier();")

    def own_slot(self, ctx):
        if self.chance(0.5):
            self.emit("sh[LID] = %s;" % self.uexpr())
        else:
            self.emit("%s ^= sh[LID];" % self.r.choice(self.uvars))

    def atomic(self, ctx):
        # The result is not used: the final count does not depend on the order.
        self.emit("atomic%s(outb.count, %s);" % (self.r.choice(("Add", "Max", "Or")),
                                                 self.uexpr(1)))

    def elect_block(self, ctx):
        self.emit("if (subgroupElect()) {")
        self.block(ctx.inner(False), 1)
        self.emit("}")

    def call(self, ctx):
        callable_ = [h for h in self.helpers if ctx.uniform or not h.barriers]
        if not callable_:
            return
        h = self.r.choice(callable_)
        args = []
        for qualifier, type_ in h.params:
            if qualifier == "in":
                args.append(self.expr_of(type_))
            else:
                args.append(self.r.choice(self.uvars if type_ == "uint" else self.fvars))
        call = "%s(%s)" % (h.name, ", ".join(args))
        if h.returns == "void":
            self.emit(call + ";")
        elif h.returns == "uint":
            self.emit("%s += %s;" % (self.r.choice(self.uvars), call))
        else:
            self.emit("%s = clamp(%s, -1000.0, 1000.0);" % (self.r.choice(self.fvars), call))

    def expr_of(self, type_):
        return self.uexpr() if type_ == "uint" else "clamp(%s, -1000.0, 1000.0)" % self.fexpr()

    # -- functions and the program --------------------------------------------

    def locals_(self, uvars, fvars):
        """Declares and initialises locals, each from what is declared before
        it (a read of an uninitialised variable is undefined, and an optimizer
        may fold it to anything); |self.uvars|, |self.fvars| end up holding them."""
        for v in uvars:
            self.emit("uint %s = %s;" % (v, self.uexpr(2)))
            self.uvars += (v,)
        for v in fvars:
            self.emit("float %s = clamp(%s, -1000.0, 1000.0);" % (v, self.fexpr(2)))
            self.fvars += (v,)

    def helper(self, k):
        returns = self.r.choice(("void", "uint", "float"))
        params = [(self.r.choice(("in", "out", "inout")), self.r.choice(("uint", "float")))
                  for _ in range(self.r.randint(1, 3))]
        barriers = not self.frag and self.chance(0.3)
        fn = Function("helper%d" % k, returns, params, barriers)
        self.discarded = self.demoted = False
        self.quad_ok = self.deriv_ok = False   # a helper may be called anywhere
        names = ["p%d" % j for j in range(len(params))]
        self.emit("%s %s(%s) {" % (returns, fn.name, ", ".join(
            "%s %s %s" % (q, t, n) for (q, t), n in zip(params, names))))
        self.indent += 1
        self.uvars = tuple(n for (q, t), n in zip(params, names) if t == "uint")
        self.fvars = tuple(n for (q, t), n in zip(params, names) if t == "float")
        for (q, t), n in zip(params, names):
            if q == "out":
                self.emit("%s = %s;" % (n, "0u" if t == "uint" else "0.0"))
        self.fn = fn
        self.budget = self.r.randint(3, 15)
        self.locals_(["l0"], ["lf0"])
        self.indent -= 1
        self.block(Ctx(uniform=barriers), self.r.randint(1, 4))
        self.indent += 1
        if returns != "void":
            self.emit("return %s;" % self.expr_of(returns))
        self.indent -= 1
        self.emit("}")
        self.emit("")
        self.helpers.append(fn)

    def header(self):
        out = ["#version 450", "// glsl_gen.py --seed %d (test/fuzz/glsl_gen.py)" % self.seed]
        out.append(EXTENSIONS.rstrip("\n"))
        if self.frag:
            out.append(FRAG_RESOURCES.rstrip("\n"))
        else:
            x, y = self.local
            out.append(COMP_RESOURCES.rstrip("\n") % {"x": x, "y": y, "local": x * y})
            if self.images:
                out.append("#define CUV vec2(float(gl_LocalInvocationIndex) * 0.03, 0.25)")
        if self.images:
            out.append(IMAGE_RESOURCES.rstrip("\n"))
        out.append(COMMON_RESOURCES.rstrip("\n"))
        return out + [""]

    def program(self):
        if not self.frag:
            self.local_count = self.local[0] * self.local[1]
        for k in range(self.r.randint(0, 3)):
            self.helper(k)
        self.fn = Function("main", "void", [], barriers=not self.frag)
        self.discarded = self.demoted = False
        self.quad_ok = self.deriv_ok = True
        self.uvars = self.fvars = ()
        self.budget = self.r.randint(10, 45)
        self.emit("void main() {")
        self.indent += 1
        if self.frag:
            self.emit("color = vec4(0.0);")
        self.locals_(("u0", "u1", "u2"), ("f0", "f1"))
        self.indent -= 1
        self.block(Ctx(uniform=True), self.r.randint(3, 8))
        self.indent += 1
        self.fn.tainted = False
        if self.frag:
            self.emit("color += vec4(%s, %s, float((%s) & 255u), 1.0);" % (
                self.fvars[0], self.fvars[1], " ^ ".join(self.uvars)))
        else:
            for k, v in enumerate(self.uvars + self.fvars):
                value = v if v in self.uvars else "uint(clamp(%s, 0.0, 1000.0))" % v
                self.emit("outb.o[GID * %du + %du] += %s;" % (OUT_SLOTS, k, value))
        self.indent -= 1
        self.emit("}")
        return "\n".join(self.header() + self.lines) + "\n"


def generate(seed, comparable=False):
    """(file name, GLSL source) of the program of |seed| (|comparable|: the
    driver-comparable fragment shaders of the module docstring)."""
    g = Generator(seed, comparable)
    text = g.program()
    return "gen_%d.%s" % (seed, "frag" if g.frag else "comp"), text


def check(path, glslang, spirv_val):
    """None when |path| compiles and validates for every TARGET_ENVS, else why not."""
    for env in TARGET_ENVS:
        spv = path + "." + env + ".spv"
        for cmd in ([glslang, "-V", "--target-env", env, path, "-o", spv],
                    [spirv_val, "--target-env", env, spv]):
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, check=False)
            if proc.returncode != 0:
                return "`%s` exits %d:\n%s" % (" ".join(cmd), proc.returncode,
                                               proc.stdout.decode(errors="replace"))
        os.unlink(spv)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--out", required=True, help="folder for the programs")
    ap.add_argument("--comparable", action="store_true",
                    help="fragment shaders whose results a Vulkan driver and the simulator must "
                         "agree on (no subgroup layout dependence, see above)")
    ap.add_argument("--check", action="store_true",
                    help="compile each with glslangValidator and validate it with spirv-val")
    ap.add_argument("--glslang", default=shutil.which("glslangValidator") or "glslangValidator")
    ap.add_argument("--spirv-val", default=shutil.which("spirv-val") or "spirv-val")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    bad = 0
    for seed in range(args.seed, args.seed + args.count):
        name, text = generate(seed, args.comparable)
        path = os.path.join(args.out, name)
        with open(path, "w") as f:
            f.write(text)
        if args.check:
            problem = check(path, args.glslang, args.spirv_val)
            if problem:
                bad += 1
                print("FAIL %s: %s" % (path, problem.strip()))
    if args.check:
        print("%d generated, %d failed to compile or validate" % (args.count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
