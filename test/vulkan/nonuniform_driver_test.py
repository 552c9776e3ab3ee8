#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Driver-level tests of the NonUniform lowerings on a real Vulkan driver (lavapipe).

  python3 test/vulkan/nonuniform_driver_test.py --runner PATH --spirv-conv PATH
      --glslang PATH --work-dir DIR [--seed N] [--case NAME]... [--device NAME]

The GLSL shaders of shaders/vulkan/ are compiled with glslangValidator, run
with vk_runner, and their outputs compared with what the CPU computes
(test/vulkan/README.md). Cases:

  ubo_array           an array of uniform buffers with per-invocation indices:
                      the module as compiled must give WRONG results on
                      lavapipe for non-uniform index patterns (so this test can
                      fail) and right ones for uniform patterns; lowered with
                      `spirv-conv opt --waterfall` it must be right for all.
  ssbo_array          an array of storage buffers: reads, stores, atomics;
                      lowered with --waterfall it must be right.
  textbook_waterfall  the hand-written waterfall loop whose result leaves the
                      loop: wrong on lavapipe (the driver trap); the variant
                      that stores inside the branch: right.
  material_lod        render: an array of mip-mapped textures sampled with
                      implicit LOD and a per-pixel material; the reference is
                      the scene drawn once per material with a constant index,
                      composed by the material mask. A hand-lowered switch with
                      hoisted gradients must match it; the naive switch and
                      the module as compiled are recorded; lowered with
                      `spirv-conv opt --descriptor-switch` it must match.

Every lowering must succeed (exit 0) and give the expected results.
Expectations
specific to lavapipe (a wrong result shown for the unlowered module) are
asserted only when the device is llvmpipe; elsewhere they are printed.
Exit codes: 0 all checks passed, 1 a check failed, 77 no Vulkan device.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vk_job  # noqa: E402  (test/vulkan/vk_job.py)
from vk_job import buffer_binding, u32, zeros  # noqa: E402

CASES = ("ubo_array", "ssbo_array", "textbook_waterfall", "material_lod")

WORKGROUP = 64     # local_size_x of the compute shaders
INVOCATIONS = 512  # 8 workgroups
UBO_COUNT = 8      # ubos[8] in ubo_array.comp / textbook_waterfall.comp
SSBO_COUNT = 4     # datas[4] in ssbo_array.comp
SSBO_VALUES = 64   # values[64]

# The features an application would enable on lavapipe: dynamic (not non-uniform) indexing.
COMPUTE_FEATURES = ["shaderUniformBufferArrayDynamicIndexing",
                    "shaderStorageBufferArrayDynamicIndexing"]


class Context:
    def __init__(self, args, checks):
        self.tools = vk_job.Tools(args.runner, args.glslang, args.work_dir, device=args.device,
                                  prefer="llvmpipe")
        self.spirv_conv = os.path.abspath(args.spirv_conv)
        self.shaders = os.path.abspath(args.shaders)
        self.seed = args.seed
        self.checks = checks

    def shader(self, name):
        return os.path.join(self.shaders, name)

    def lower(self, flag, spv):
        """`spirv-conv opt FLAG spv -o out`; None when it fails (a failed check)."""
        out = spv[:-len(".spv")] + flag.replace("--", ".") + ".spv"
        code, stdout, stderr = self.tools.run_tool([self.spirv_conv, "opt", flag, spv, "-o", out])
        what = "spirv-conv opt %s %s" % (flag, os.path.basename(spv))
        if not self.checks.expect(code == 0, what, "exit %s\n%s%s" % (code, stdout, stderr)):
            return None
        return out


def is_lavapipe(run):
    return "llvmpipe" in run.device["name"]


# Index patterns.

def index_patterns(seed, value_count, subgroup):
    """(name, indices, non-uniform?) for INVOCATIONS invocations: random ones with at
    least three distinct values in every subgroup, one with all-distinct values per
    subgroup, and two uniform ones (per workgroup, constant)."""
    patterns = []
    for round_ in range(2):
        rng = random.Random(seed * 1000 + round_)
        indices = []
        for _ in range(INVOCATIONS // subgroup):
            while True:
                group = [rng.randrange(value_count) for _ in range(subgroup)]
                if len(set(group)) >= min(3, value_count):
                    break
            indices += group
        patterns.append(("random%d" % (round_ + 1), indices, True))
    rng = random.Random(seed * 1000 + 99)
    indices = []
    for _ in range(INVOCATIONS // subgroup):
        group = [i % value_count for i in range(subgroup)]
        rng.shuffle(group)
        indices += group
    patterns.append(("distinct", indices, True))
    per_group = [rng.randrange(value_count) for _ in range(INVOCATIONS // WORKGROUP)]
    patterns.append(("workgroup-uniform", [per_group[i // WORKGROUP] for i in range(INVOCATIONS)],
                     False))
    patterns.append(("constant", [value_count - 1] * INVOCATIONS, False))
    return patterns


def mismatches(got, expected):
    return sum(1 for a, b in zip(got, expected) if a != b) + abs(len(got) - len(expected))


# ubo_array and textbook_waterfall: uniform buffer k holds words[j] = 1000 * (k + 1) + j.

def ubo_word(k, j):
    return 1000 * (k + 1) + j


def ubo_job(spv, indices):
    ubos = [u32([ubo_word(k, j) for j in range(4) for _ in range(4)]) for k in range(UBO_COUNT)]
    return {"mode": "compute", "spv": spv, "groups": [INVOCATIONS // WORKGROUP, 1, 1],
            "features": COMPUTE_FEATURES,
            "bindings": [buffer_binding(0, 0, "uniform_buffer", ubos),
                         buffer_binding(0, 1, "storage_buffer", [u32(indices)]),
                         buffer_binding(0, 2, "storage_buffer", [zeros(INVOCATIONS * 4)])]}


def ubo_expected(indices):
    return [ubo_word(k, i % 4) for i, k in enumerate(indices)]


def first_invocation_model(indices, subgroup):
    """lavapipe's non-uniform UBO indexing: the subgroup's first index for all of it."""
    return [ubo_word(indices[i - i % subgroup], i % 4) for i in range(len(indices))]


def last_iteration_model(indices, subgroup):
    """lavapipe's textbook-waterfall result: every invocation gets the value of its
    subgroup's last loop iteration (the last distinct index, in first-active order)."""
    model = []
    for base in range(0, len(indices), subgroup):
        remaining = list(indices[base:base + subgroup])
        last = None
        while remaining:
            last = remaining[0]
            remaining = [k for k in remaining if k != last]
        model += [ubo_word(last, i % 4) for i in range(base, base + subgroup)]
    return model


def describe_model(got, model, name):
    return ("matches the %s model exactly" % name if got == model
            else "differs from the %s model at %d invocations" % (name, mismatches(got, model)))


def case_ubo_array(ctx):
    checks, tools = ctx.checks, ctx.tools
    spv = tools.compile(ctx.shader("ubo_array.comp"), "ubo_array.spv")
    lowered = ctx.lower("--waterfall", spv)
    subgroup = None
    for name, indices, nonuniform in index_patterns(ctx.seed, UBO_COUNT, 8):
        expected = ubo_expected(indices)
        run = tools.run_ok(ubo_job(spv, indices), "ubo_array." + name)
        subgroup = run.device["subgroup_size"]
        got = run.buffer(0, 2)
        wrong = mismatches(got, expected)
        what = "ubo_array %s, unlowered: %d of %d invocations wrong" % (name, wrong, INVOCATIONS)
        if not nonuniform:
            checks.expect(wrong == 0, what + " (uniform indices must work unlowered)")
        elif is_lavapipe(run):
            checks.expect(wrong > 0, what + " (lavapipe must get non-uniform UBO indexing wrong, "
                          "else this test cannot fail); "
                          + describe_model(got, first_invocation_model(indices, subgroup),
                                           "first-invocation"))
        else:
            checks.note(what + " on %s (not lavapipe: not asserted)" % run.device["name"])
        if lowered:
            run = tools.run_ok(ubo_job(lowered, indices), "ubo_array.waterfall." + name)
            wrong = mismatches(run.buffer(0, 2), expected)
            checks.expect(wrong == 0, "ubo_array %s, --waterfall: %d of %d invocations wrong"
                          % (name, wrong, INVOCATIONS))
    checks.note("device subgroup size %s" % subgroup)


# ssbo_array: storage buffer k holds values[j] = 100000 * (k + 1) + j, a counter and
# a written[] slot per invocation.

def ssbo_job(spv, indices):
    datas = [u32([100000 * (k + 1) + j for j in range(SSBO_VALUES)],
                 size=(SSBO_VALUES + 1 + INVOCATIONS) * 4) for k in range(SSBO_COUNT)]
    return {"mode": "compute", "spv": spv, "groups": [INVOCATIONS // WORKGROUP, 1, 1],
            "features": COMPUTE_FEATURES,
            "bindings": [buffer_binding(0, 0, "storage_buffer", datas),
                         buffer_binding(0, 1, "storage_buffer", [u32(indices)]),
                         buffer_binding(0, 2, "storage_buffer", [zeros(INVOCATIONS * 8)])]}


def ssbo_errors(run, indices):
    """What differs from the CPU's expectation, as short texts."""
    errors = []
    results = run.buffer(0, 2)
    reads = results[0::2]
    olds = results[1::2]
    expected_reads = [100000 * (k + 1) + i % SSBO_VALUES for i, k in enumerate(indices)]
    if reads != expected_reads:
        errors.append("%d reads wrong" % mismatches(reads, expected_reads))
    for k in range(SSBO_COUNT):
        data = run.buffer(0, 0, k)
        chose = [i for i, index in enumerate(indices) if index == k]
        if data[SSBO_VALUES] != len(chose):
            errors.append("buffer %d: counter %d, expected %d" % (k, data[SSBO_VALUES], len(chose)))
        written = data[SSBO_VALUES + 1:]
        expected_written = [expected_reads[i] + 1 if indices[i] == k else 0
                            for i in range(INVOCATIONS)]
        if written != expected_written:
            errors.append("buffer %d: %d stores wrong" % (k, mismatches(written,
                                                                        expected_written)))
        if sorted(olds[i] for i in chose) != list(range(len(chose))):
            errors.append("buffer %d: atomicAdd's old values are not 0..%d"
                          % (k, len(chose) - 1))
    return errors


def case_ssbo_array(ctx):
    checks, tools = ctx.checks, ctx.tools
    spv = tools.compile(ctx.shader("ssbo_array.comp"), "ssbo_array.spv")
    lowered = ctx.lower("--waterfall", spv)
    for name, indices, nonuniform in index_patterns(ctx.seed, SSBO_COUNT, 8):
        run = tools.run_ok(ssbo_job(spv, indices), "ssbo_array." + name)
        errors = ssbo_errors(run, indices)
        what = "ssbo_array %s, unlowered: %s" % (name, "; ".join(errors) or "all right")
        if nonuniform:
            # Not guaranteed without shaderStorageBufferArrayNonUniformIndexing: recorded only.
            checks.note(what + " (recorded, not asserted)")
        else:
            checks.expect(not errors, what)
        if lowered:
            run = tools.run_ok(ssbo_job(lowered, indices), "ssbo_array.waterfall." + name)
            errors = ssbo_errors(run, indices)
            checks.expect(not errors, "ssbo_array %s, --waterfall: %s"
                          % (name, "; ".join(errors) or "all right"))


def case_textbook_waterfall(ctx):
    checks, tools = ctx.checks, ctx.tools
    source = ctx.shader("textbook_waterfall.comp")
    textbook = tools.compile(source, "textbook_waterfall.spv")
    in_branch = tools.compile(source, "textbook_waterfall.in_branch.spv", ["WRITE_IN_BRANCH"])
    for name, indices, nonuniform in index_patterns(ctx.seed, UBO_COUNT, 8):
        expected = ubo_expected(indices)
        run = tools.run_ok(ubo_job(textbook, indices), "textbook_waterfall." + name)
        got = run.buffer(0, 2)
        wrong = mismatches(got, expected)
        what = ("textbook_waterfall %s, result used after the loop: %d of %d invocations wrong"
                % (name, wrong, INVOCATIONS))
        if not nonuniform:
            checks.expect(wrong == 0, what + " (one iteration per subgroup: must be right)")
        elif is_lavapipe(run):
            checks.expect(wrong > 0, what + " (the lavapipe trap must show); " + describe_model(
                got, last_iteration_model(indices, run.device["subgroup_size"]), "last-iteration"))
        else:
            checks.note(what + " on %s (not lavapipe: not asserted)" % run.device["name"])
        run = tools.run_ok(ubo_job(in_branch, indices), "textbook_waterfall.in_branch." + name)
        wrong = mismatches(run.buffer(0, 2), expected)
        checks.expect(wrong == 0, "textbook_waterfall %s, result stored in the branch: %d of %d "
                      "invocations wrong" % (name, wrong, INVOCATIONS))


# material_lod: 4 textures of 64x64 with 7 levels, level l of texture k a solid colour
# whose red channel names k and whose green channel names l; with linear mipmap
# filtering the green channel shows the fractional LOD.

WIDTH = HEIGHT = 112  # LOD = max(x, y) / 16: every level 0..6
TEXTURES = 4
TEXTURE_SIZE = 64
LEVELS = 7
TOLERANCE = 2  # per channel, of 255: rounding in the LOD fraction and the blend


def level_color(k, level):
    return [(64 * k + 32) / 255.0, (36 * level + 16) / 255.0, 1.0, 1.0]


def material(x, y):
    """material() of material_lod.frag."""
    return (x // 3 + 2 * (y // 5)) % 4


def material_job(spv, ppm):
    textures = [{"width": TEXTURE_SIZE, "height": TEXTURE_SIZE,
                 "levels": [{"color": level_color(k, level)} for level in range(LEVELS)],
                 "sampler": {"filter": "nearest", "mipmap": "linear", "address": "repeat"}}
                for k in range(TEXTURES)]
    return {"mode": "render", "spv": spv, "width": WIDTH, "height": HEIGHT,
            "framebuffer_file": ppm,
            "bindings": [{"set": 0, "binding": 0, "type": "combined_image_sampler",
                          "count": TEXTURES, "elements": textures}]}


def write_ppm(path, pixels):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (WIDTH, HEIGHT))
        f.write(bytes(p for i, p in enumerate(pixels) if i % 4 != 3))


def straddles(x, y):
    """True when the 2x2 quad of pixel (x, y) holds more than one material."""
    qx, qy = x - x % 2, y - y % 2
    return len({material(qx + dx, qy + dy) for dx in (0, 1) for dy in (0, 1)}) > 1


def compare_image(got, reference):
    """(pixels off by more than TOLERANCE, of them in quads straddling materials, max diff)."""
    off = border = 0
    worst = 0
    for pixel in range(WIDTH * HEIGHT):
        diff = max(abs(got[4 * pixel + c] - reference[4 * pixel + c]) for c in range(4))
        worst = max(worst, diff)
        if diff > TOLERANCE:
            off += 1
            border += straddles(pixel % WIDTH, pixel // WIDTH)
    return off, border, worst


def describe_diff(off, border, worst):
    return ("%d of %d pixels differ by more than %d/255 (%d in quads straddling materials), "
            "max difference %d" % (off, WIDTH * HEIGHT, TOLERANCE, border, worst))


def case_material_lod(ctx):
    checks, tools = ctx.checks, ctx.tools
    source = ctx.shader("material_lod.frag")

    # The reference: each material drawn over the whole image with a constant index
    # (allowed everywhere), then per pixel the drawing of that pixel's material.
    drawings = []
    for k in range(TEXTURES):
        spv = tools.compile(source, "material_lod.constant%d.spv" % k, ["CONSTANT_MATERIAL=%d" % k])
        drawings.append(tools.run_ok(material_job(spv, tools.path("constant%d.ppm" % k)),
                                     "material_lod.constant%d" % k).pixels)
    reference = []
    for pixel in range(WIDTH * HEIGHT):
        k = material(pixel % WIDTH, pixel // WIDTH)
        reference += drawings[k][4 * pixel:4 * pixel + 4]
    write_ppm(tools.path("reference.ppm"), reference)
    # Every level must show up, or the test would not see a wrong LOD.
    levels = {round((reference[4 * p + 1] - 16) / 36.0) for p in range(WIDTH * HEIGHT)}
    checks.expect(levels == set(range(LEVELS)),
                  "material_lod reference shows every mip level 0..%d (nearest levels seen: %s)"
                  % (LEVELS - 1, sorted(levels)))

    def render(name, spv):
        """(off-tolerance pixel count or None when vk_runner failed, description, run)."""
        run = tools.run(material_job(spv, tools.path(name + ".ppm")), "material_lod." + name)
        if run.code != 0:
            return None, "vk_runner exit %s: %s" % (run.code, run.stderr.strip()), run
        off, border, worst = compare_image(run.pixels, reference)
        return off, "on %s: %s" % (run.device["name"], describe_diff(off, border, worst)), run

    # The hand-lowered switch (gradients before it, textureGrad in the cases) shows that
    # the reference and the tolerance are sound: a correct lowering passes.
    off, what, _ = render("grad_switch", tools.compile(
        source, "material_lod.grad_switch.spv", ["GRAD_SWITCH"]))
    checks.expect(off == 0, "material_lod hand-lowered switch with hoisted gradients matches "
                  "the reference " + what)

    # Recorded, not asserted: whether this driver's derivatives in divergent control
    # flow happen to be right.
    _, what, _ = render("naive_switch", tools.compile(
        source, "material_lod.naive_switch.spv", ["NAIVE_SWITCH"]))
    checks.note("material_lod naive switch (implicit LOD inside the cases) " + what)

    # The module as compiled indexes a sampled-image array non-uniformly, which needs
    # features lavapipe lacks; it runs without them, as on such a device.
    spv = tools.compile(source, "material_lod.spv")
    off, what, run = render("unlowered", spv)
    what = "material_lod unlowered " + ("(pipeline created) " if off is not None else "") + what
    if off is not None and is_lavapipe(run):
        checks.expect(off > 0, what + " (lavapipe cannot index sampled-image arrays "
                      "dynamically: the image must be wrong, else this test cannot fail)")
    else:
        checks.note(what + " (recorded, not asserted)")

    lowered = ctx.lower("--descriptor-switch", spv)
    if lowered:
        off, what, _ = render("descriptor_switch", lowered)
        checks.expect(off == 0, "material_lod --descriptor-switch matches the reference " + what)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", required=True, help="the vk_runner binary")
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--glslang", required=True, help="glslangValidator")
    parser.add_argument("--work-dir", required=True, help="folder for modules, jobs, results")
    parser.add_argument("--shaders", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shaders", "vulkan"),
        help="the test shaders (default: shaders/vulkan of this repository)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random index patterns")
    parser.add_argument("--case", action="append", choices=CASES,
                        help="run only this case (repeatable; default: all)")
    parser.add_argument("--device", default="",
                        help="run on the first device whose name contains this (default: "
                             "lavapipe (llvmpipe) when present, else the first device)")
    args = parser.parse_args(argv)

    checks = vk_job.Checks("nonuniform")

    def body():
        ctx = Context(args, checks)
        started = time.monotonic()
        for case in args.case or CASES:
            case_started = time.monotonic()
            globals()["case_" + case](ctx)
            ctx.checks.note("%s took %.1f s" % (case, time.monotonic() - case_started))
        return ctx.checks.summary(started)

    return vk_job.main_guard(body, checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
