#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The simulator's fragment shaders against a Vulkan driver (issue 43): every
bundled fragment shader and generated ones run as the same render job on
vk_runner (lavapipe) and in `spirv-conv run --job`, attachments and storage
buffers compared (test/vulkan/README.md, "vulkan.fragment_sim").

  python3 test/vulkan/fragment_sim_test.py --runner PATH --spirv-conv PATH --glslang PATH
      --work-dir DIR [--shaders DIR] [--generated N] [--seed S] [--size N] [--device NAME]
      [--case SUBSTRING]

One line per case: `ok`, `FAIL` (a difference the Vulkan spec does not allow,
i.e. where it makes the result exact, or one beyond the tolerance of the
case's class), `not comparable` (the simulator reports undefined derivatives,
or the shader's result depends on the subgroup layout), `skipped: why`; then a
summary. Every job, module, vertex shader and both results stay in the work
directory. Exit codes: 0 passed, 1 failed, 77 no Vulkan device.

Exactness classes (each justified by the Vulkan spec, "Precision and
Operation of SPIR-V Instructions", and measured on lavapipe):
  exact   add, sub, mul, conversions, comparisons, min/max/clamp/abs/floor/
          fract/..., derivatives (differences of exact values), texel fetches,
          sampling of images whose every level is one solid colour (then the
          LOD, the filter and the coordinate's rounding cannot change the
          texel), flat and linear inputs with dyadic planes at 32x32 (the
          interpolation at w = 1 is exact). Compared bit for bit.
          The spec lets an implementation fuse a multiply and an add that lack
          NoContraction; lavapipe does not (a*b+d at a = b = 1+2^-12, d = -1 gives
          2^-11, not 2^-11+2^-24), so mul/add chains are in this class.
  approx  the module has an instruction with an error bound: OpFDiv (2.5 ULP),
          OpFRem/OpFMod, OpDot and the matrix products (precision inherited, the
          order of the sums is not fixed; the simulator rounds once),
          GLSL.std.450's transcendental functions, Sqrt/InverseSqrt/Length/
          Normalize/Distance, Pow, Mix/SmoothStep/Fma (inherited), Pack*/Unpack*,
          Determinant/MatrixInverse. Tolerance: 2/255 per channel (and 1e-4
          relative for buffer words): a few ULPs of a float in [0, 1] move an
          8-bit channel by at most one step; the second step is the unorm
          conversion's own rounding freedom. Values that feed a branch can still
          flip it: such a case fails and is judged by hand in the README.
  lod     a second run of each shader that samples images with implicit LOD or
          gradients, with a different solid colour per mip level and nearest
          mipmapping, so the chosen level shows: the spec approximates the LOD
          ("λ" within mipmapPrecisionBits, the scale factor ρ may be
          approximated), so a pixel may take the neighbouring level where the
          exact LOD is within that error of a rounding point k + 0.5.
          Tolerance: at most 2 % of the pixels differ, each by one level.
"""

import argparse
import json
import os
import random
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reconvergence"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz"))
import spirv_reflect as sr  # noqa: E402
import vk_job  # noqa: E402
from sim_tools import bits_f32, f32_bits  # noqa: E402
import glsl_gen  # noqa: E402  (test/fuzz/glsl_gen.py)

LEVELS = 7            # mip levels of every sampled image (64x64)
IMAGE_SIZE = 64
RUNTIME_LENGTH = 16   # elements of a runtime array in a buffer
FEATURES = ["fragmentStoresAndAtomics", "shaderUniformBufferArrayDynamicIndexing",
            "shaderStorageBufferArrayDynamicIndexing"]
CHANNEL_TOLERANCE = 2  # approx class, per 8-bit channel
LOD_PIXEL_FRACTION = 0.02

# Opcodes and GLSL.std.450 instructions with an error bound (class approx).
APPROX_OPCODES = {136: "OpFDiv", 140: "OpFRem", 141: "OpFMod", 148: "OpDot",
                  144: "OpVectorTimesMatrix", 145: "OpMatrixTimesVector",
                  146: "OpMatrixTimesMatrix"}
APPROX_GLSL = {13: "Sin", 14: "Cos", 15: "Tan", 16: "Asin", 17: "Acos", 18: "Atan", 19: "Sinh",
               20: "Cosh", 21: "Tanh", 22: "Asinh", 23: "Acosh", 24: "Atanh", 25: "Atan2",
               26: "Pow", 27: "Exp", 28: "Log", 29: "Exp2", 30: "Log2", 31: "Sqrt",
               32: "InverseSqrt", 33: "Determinant", 34: "MatrixInverse", 46: "FMix",
               49: "SmoothStep", 50: "Fma", 54: "PackSnorm4x8", 55: "PackUnorm4x8",
               56: "PackSnorm2x16", 57: "PackUnorm2x16", 58: "PackHalf2x16",
               60: "UnpackSnorm2x16", 61: "UnpackUnorm2x16", 62: "UnpackHalf2x16",
               63: "UnpackSnorm4x8", 64: "UnpackUnorm4x8", 66: "Length", 67: "Distance",
               69: "Normalize", 70: "FaceForward", 71: "Reflect", 72: "Refract"}
# Sampling whose result depends on the LOD (implicit, or from gradients).
LOD_OPCODES = {87, 89, 91, 93}  # OpImageSample{,Dref,Proj,ProjDref}ImplicitLod
EXPLICIT_LOD_OPCODES = {88, 90, 92, 94}
OP_IMAGE_QUERY_LOD = 105
# Subgroup operations other than the quad ones, and subgroup built-ins: which
# pixels share a subgroup is the driver's choice.
NON_QUAD_SUBGROUP = set(range(333, 365)) | {4421, 4422, 4428, 4429, 4430, 4432}
SUBGROUP_BUILTINS = {36, 38, 40, 41, 4416, 4417, 4418, 4419, 4420}
ATOMIC_OPCODES = set(range(227, 243))
# Descriptor indexing lavapipe has no feature for (test/vulkan/README.md, "What
# lavapipe does"): without the feature the access is invalid, whatever comes out.
NON_UNIFORM_CAPABILITIES = {5306: "UniformBufferArrayNonUniformIndexing",
                            5307: "SampledImageArrayNonUniformIndexing",
                            5308: "StorageBufferArrayNonUniformIndexing",
                            5309: "StorageImageArrayNonUniformIndexing",
                            5302: "RuntimeDescriptorArray"}


# -- the job ----------------------------------------------------------------

def image_colours(index, level, per_level):
    """RGBA bytes of image |index|'s |level|: one colour per image, or per level."""
    r, a = (53 * index + 40) % 256, (61 * index + 128) % 256
    if per_level:
        return [r, 16 + 36 * level, 240 - 36 * level, a]
    return [r, (97 * index + 120) % 256, (29 * index + 200) % 256, a]


def storage_image(resource, index):
    w = h = 16
    if resource.image_format == "r32f":
        texels = [float(x + 16 * y) / 16.0 for y in range(h) for x in range(w)]
        fmt = "r32f"
    else:
        texels = []
        for y in range(h):
            for x in range(w):
                texels += [(16 * x + index) % 256, (16 * y) % 256, (x * y) % 256, 255]
        fmt = "rgba8"
    return {"width": w, "height": h, "format": fmt, "levels": [{"texels": texels}]}


def sampled_image(index, per_level):
    return {"width": IMAGE_SIZE, "height": IMAGE_SIZE, "format": "rgba8",
            "levels": [{"color": [c / 255.0 for c in image_colours(index, level, per_level)]}
                       for level in range(LEVELS)]}


def block_words(module, block, rng, generated):
    """The initial words of a buffer of |block|: every scalar typed (floats k/16 in
    [0, 1], integers small: below 4 for the bundled shaders, which index with them;
    below glsl_gen.BUFFER_WORD_LIMIT for generated ones)."""
    def value(kind):
        if kind == "float":
            return f32_bits(rng.randrange(17) / 16.0)
        return rng.randrange(glsl_gen.BUFFER_WORD_LIMIT if generated else 4)
    words = {}
    end = module.fill_block(block, words, 0, value, RUNTIME_LENGTH)
    size = max(end, module.size_of(block), 4)
    size = (size + 15) // 16 * 16
    return [words.get(i, 0) for i in range(size // 4)]


def build_job(module, spv_name, size, rng, generated, per_level):
    resources, push = sr.resources(module)  # ValueError: cannot bind
    bindings = []
    image_index = 0
    for res in sorted(resources, key=lambda r: (r.set, r.binding)):
        count = res.count if not res.runtime else max(res.count, 1) * 4
        elements = []
        for _ in range(count):
            if res.type in ("storage_buffer", "uniform_buffer"):
                elements.append({"u32": block_words(module, res.block, rng, generated)})
            elif res.type == "sampler":
                elements.append({"sampler": {"filter": "nearest", "mipmap": "nearest",
                                             "address": "repeat"}})
            elif res.type == "storage_image":
                elements.append(storage_image(res, image_index))
                image_index += 1
            else:
                element = sampled_image(image_index, per_level)
                image_index += 1
                if res.type == "combined_image_sampler":
                    element["sampler"] = {"filter": "nearest", "mipmap": "nearest",
                                          "address": "repeat"}
                elements.append(element)
        bindings.append({"set": res.set, "binding": res.binding, "type": res.type,
                         "count": count, "elements": elements})
    job = {"mode": "render", "spv": spv_name, "width": size, "height": size,
           "features": FEATURES, "bindings": bindings}
    if push is not None:
        if generated:
            # PC { uint sel; uint n; uint mode; uint pad; }: small, like glsl_gen's constants.
            words = [rng.randrange(8) for _ in range(module.size_of(push) // 4)]
        else:
            words = block_words(module, push, rng, False)[:module.size_of(push) // 4 or 1]
        job["push_constants"] = {"u32": words or [0]}
    return job


# -- inputs and the vertex shader --------------------------------------------

GLSL_TYPES = {("float", 1): "float", ("int", 1): "int", ("uint", 1): "uint"}
for _n in (2, 3, 4):
    GLSL_TYPES[("float", _n)] = "vec%d" % _n
    GLSL_TYPES[("int", _n)] = "ivec%d" % _n
    GLSL_TYPES[("uint", _n)] = "uvec%d" % _n


def fs_inputs(module):
    """[(location, kind, components, flat)]; raises ValueError for inputs the
    test cannot write from a vertex shader."""
    out = []
    for location, var, type_id in module.located(sr.SC_INPUT):
        info = module.scalar_kind(type_id)
        if info is None or info[1] != 32:
            raise ValueError("input at location %d is not a 32-bit scalar or vector" % location)
        if module.decoration(var, sr.DEC_COMPONENT) is not None:
            raise ValueError("input at location %d has a Component decoration" % location)
        if module.decoration(var, sr.DEC_SAMPLE) is not None:
            raise ValueError("input at location %d is per-sample" % location)
        flat = module.decoration(var, sr.DEC_FLAT) is not None or info[0] != "float"
        out.append((location, info[0], info[2], flat))
    return out


def input_planes(inputs, size, custom=None):
    """The planes [a, b, c] per component: the simulator's defaults for float
    inputs ((x+.5)/W, (y+.5)/H, 0.25(L+1), 1), constants for flat ones (what a
    flat input is on a driver: the provoking vertex's value), L*4+c for integers."""
    planes = []
    for location, kind, components, flat in inputs:
        if custom and location in custom:
            planes.append({"location": location, "plane": custom[location]})
            continue
        plane = []
        for c in range(components):
            if kind != "float":
                plane.append([location * 4 + c, 0, 0])
            elif flat:
                plane.append([0.25 * (location + 1) + 0.0625 * c, 0, 0])
            else:
                plane.append([[0, 1.0 / size, 0], [0, 0, 1.0 / size],
                              [0.25 * (location + 1), 0, 0], [1, 0, 0]][c])
        planes.append({"location": location, "plane": plane})
    return planes


# The full-screen triangle of fullscreen.vert, in clip space, and its vertices
# in pixels: x = (clip.x + 1) / 2 * W, y = (clip.y + 1) / 2 * H (Vulkan's
# viewport transform; clip y = -1 is row 0, the top).
CLIP = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)]


def vertex_shader(inputs, planes, width, height):
    """GLSL of a vertex shader drawing the full-screen triangle and writing each
    input's plane value at the vertices (exact for dyadic planes)."""
    lines = ["#version 450", "// fragment_sim_test.py: the planes of the fragment shader's inputs"]
    body = ["  gl_Position = vec4(P[gl_VertexIndex], 0.0, 1.0);"]
    by_location = {p["location"]: p["plane"] for p in planes}
    for location, kind, components, flat in inputs:
        type_ = GLSL_TYPES[(kind, components)]
        lines.append("layout(location = %d) %sout %s v%d;"
                     % (location, "flat " if flat else "", type_, location))
        values = []
        for cx, cy in CLIP:
            px, py = (cx + 1) / 2 * width, (cy + 1) / 2 * height
            comps = []
            for a, b, c in by_location[location]:
                v = a + b * px + c * py
                comps.append(repr(float(v)) if kind == "float" else
                             ("%d" % int(v)) + ("u" if kind == "uint" else ""))
            values.append("%s(%s)" % (type_, ", ".join(comps)))
        lines.append("const %s V%d[3] = %s[3](%s);" % (type_, location, type_, ", ".join(values)))
        body.append("  v%d = V%d[gl_VertexIndex];" % (location, location))
    lines.append("const vec2 P[3] = vec2[3](%s);"
                 % ", ".join("vec2(%r, %r)" % xy for xy in CLIP))
    return "\n".join(lines + ["void main() {"] + body + ["}"]) + "\n"


# -- classification and comparison ---------------------------------------------

def classify(module):
    """(approximate instructions used, LOD-dependent sampling?, subgroup-layout reasons)."""
    approx = sorted({APPROX_OPCODES[o] for o in module.opcodes if o in APPROX_OPCODES} |
                    {APPROX_GLSL[n] for s, n in module.ext_insts
                     if s == "GLSL.std.450" and n in APPROX_GLSL})
    lod = bool(module.opcodes & (LOD_OPCODES | EXPLICIT_LOD_OPCODES | {OP_IMAGE_QUERY_LOD}))
    subgroup = []
    for cap in sorted(module.capabilities & set(NON_UNIFORM_CAPABILITIES)):
        subgroup.append("capability %s (lavapipe lacks the feature)"
                        % NON_UNIFORM_CAPABILITIES[cap])
    if module.dynamic_descriptor_indexing(sr.SC_UNIFORM_CONSTANT):
        subgroup.append("an image array indexed dynamically (lavapipe lacks "
                        "shaderSampledImageArrayDynamicIndexing)")
    if module.opcodes & NON_QUAD_SUBGROUP:
        subgroup.append("non-quad subgroup operations (the subgroup layout is the driver's)")
    if module.builtins(sr.SC_INPUT) & SUBGROUP_BUILTINS:
        subgroup.append("subgroup built-ins (the subgroup layout is the driver's)")
    return approx, lod, subgroup


def compare_pixels(a, b, channels, size):
    """(pixels differing, max channel difference, first differing (x, y, a, b))."""
    differing, worst, first = 0, 0, None
    for p in range(size * size):
        pa, pb = a[4 * p:4 * p + channels], b[4 * p:4 * p + channels]
        if pa != pb:
            differing += 1
            worst = max(worst, max(abs(x - y) for x, y in zip(pa, pb)))
            if first is None:
                first = (p % size, p // size, a[4 * p:4 * p + 4], b[4 * p:4 * p + 4])
    return differing, worst, first


def compare_buffers(vk, sim, approx, atomics):
    """A description of the first difference, or None."""
    key = lambda b: (b["set"], b["binding"], b["element"])  # noqa: E731
    vk_buffers = {key(b): b["u32"] for b in vk}
    sim_buffers = {key(b): b["u32"] for b in sim}
    if set(vk_buffers) != set(sim_buffers):
        return "storage buffers %s (driver) vs %s (simulator)" % (sorted(vk_buffers),
                                                                  sorted(sim_buffers))
    for k in sorted(vk_buffers):
        x, y = vk_buffers[k], sim_buffers[k]
        if atomics:
            # The order in which invocations run (and so which atomic operation
            # returns which old value) is not specified: the words as a multiset.
            x, y = sorted(x), sorted(y)
        for i, (wx, wy) in enumerate(zip(x, y)):
            if wx == wy:
                continue
            fx, fy = bits_f32(wx), bits_f32(wy)
            if approx and abs(fx - fy) <= 1e-4 * max(1.0, abs(fx)):
                continue
            return "buffer %d:%d[%d] word %d: 0x%08x (%g, driver) vs 0x%08x (%g, simulator)%s" % (
                k[0], k[1], k[2], i, wx, fx, wy, fy, " (sorted)" if atomics else "")
        if len(x) != len(y):
            return "buffer %d:%d[%d]: %d vs %d words" % (k + (len(x), len(y)))
    return None


# -- running ----------------------------------------------------------------------

class Runner:
    def __init__(self, args, tools):
        self.args, self.tools = args, tools
        self.size = args.size
        self.sim_reads_inputs = None  # does the simulator's job reader take "inputs"?
        self.counts = {"ok": 0, "FAIL": 0, "not comparable": 0, "skipped": 0}
        self.failures = []
        self.notes = []
        self.max_diff = {"exact": 0, "approx": 0, "lod": 0, "lod-measured": 0, "measured": 0}
        self.classes = dict(self.max_diff)
        self.measured_differ = 0  # lod-measured cases with differences

    def line(self, verdict, name, text):
        key = "skipped" if verdict.startswith("skipped") else verdict
        self.counts[key] += 1
        print("fragment_sim: %s: %s: %s" % (verdict, name, text))
        sys.stdout.flush()
        if verdict == "FAIL":
            self.failures.append("%s: %s" % (name, text))

    def sim(self, job_path, job, name, planes):
        """Runs the simulator on |job| -> (exit code, result or None, stderr)."""
        tools = self.tools
        sim_job = {k: v for k, v in job.items() if k not in ("vertex_spv", "inputs")}
        extra = []
        if self.sim_reads_inputs is not False and planes:
            sim_job["inputs"] = planes
        else:
            for p in planes:
                path = tools.path("%s.input%d.json" % (name, p["location"]))
                with open(path, "w") as f:
                    json.dump({"plane": p["plane"]}, f)
                extra += ["--input", "%d=%s" % (p["location"], path)]
        path = tools.path(name + ".sim.json")
        with open(path, "w") as f:
            json.dump(sim_job, f)
        out = tools.path(name + ".sim.result.json")
        if os.path.exists(out):
            os.remove(out)
        code, _, stderr = tools.run_tool([self.args.spirv_conv, "run", "--job", path,
                                          "--stats", "json", "-o", out] + extra)
        if code == 2 and 'unknown key "inputs"' in stderr and self.sim_reads_inputs is None:
            # The simulator's job reader does not take "inputs" yet: the same planes
            # through --input (docs/cli.md).
            self.sim_reads_inputs = False
            self.notes.append("the simulator's job reader rejects \"inputs\"; planes passed "
                              "with --input instead")
            return self.sim(job_path, job, name, planes)
        if planes and code != 2 and self.sim_reads_inputs is None:
            self.sim_reads_inputs = True
        result = None
        if code == 0:
            with open(out) as f:
                result = json.load(f)
        return code, result, stderr

    def case(self, name, spv, generated, custom_planes=None):
        tools, size = self.tools, self.size
        with open(spv, "rb") as f:
            module = sr.Module(f.read())
        if not module.has_entry(sr.MODEL_FRAGMENT):
            return self.line("skipped", name, "no Fragment entry point 'main'")
        try:
            inputs = fs_inputs(module)
            outputs = module.located(sr.SC_OUTPUT)
            out0 = [t for loc, _, t in outputs if loc == 0]
            channels = 0
            if out0:
                info = module.scalar_kind(out0[0])
                if info is None or info[0] != "float":
                    raise ValueError("the output at location 0 is not float (the target is "
                                     "RGBA8 unorm)")
                channels = info[2]
            approx, lod, subgroup = classify(module)
            rng = random.Random(zlib.crc32(name.encode()))
            job = build_job(module, os.path.basename(spv), size, rng, generated,
                            per_level=False)
        except ValueError as e:
            return self.line("skipped", name, str(e))
        planes = input_planes(inputs, size, custom_planes)
        if inputs:
            vert = tools.path(name + ".vert")
            with open(vert, "w") as f:
                f.write(vertex_shader(inputs, planes, size, size))
            job["vertex_spv"] = os.path.basename(tools.compile(vert, name + ".vert.spv"))
            job["inputs"] = planes
        cls = "measured" if name in MEASURED else "approx" if approx else "exact"
        self.compare(name, job, planes, module, channels, cls, approx, subgroup)
        if lod and not subgroup and cls != "measured":
            job_mip = build_job(module, os.path.basename(spv), size,
                                random.Random(zlib.crc32(name.encode())), generated,
                                per_level=True)
            for key in ("vertex_spv", "inputs"):
                if key in job:
                    job_mip[key] = job[key]
            self.compare(name + ".mip", job_mip, planes, module, channels,
                         "lod" if not generated else "lod-measured", approx, subgroup)

    def compare(self, name, job, planes, module, channels, cls, approx, subgroup):
        tools, size = self.tools, self.size
        vk = tools.run(job, name)
        if vk.code != 0:
            return self.line("FAIL" if vk.code == 2 else "skipped", name,
                             "vk_runner exits %s: %s" % (vk.code, vk.stderr.strip()[:300]))
        code, sim, stderr = self.sim(tools.path(name + ".json"), job, name, planes)
        if code != 0:
            return self.line("FAIL", name, "the simulator exits %s on the job: %s"
                             % (code, stderr.strip()[:300]))
        stats = sim.get("stats", {})
        undefined = stats.get("undefined_derivatives") or []
        if undefined:
            return self.line("not comparable", name, "the simulator reports %d undefined "
                             "derivatives (first: %s)" % (len(undefined),
                                                          json.dumps(undefined[0])[:160]))
        atomics = bool(module.opcodes & ATOMIC_OPCODES)
        problems = []
        differing, worst, first = 0, 0, None
        if channels:
            differing, worst, first = compare_pixels(vk.pixels, sim["framebuffer"]["rgba8"],
                                                     channels, size)
        buffer_problem = compare_buffers(vk.result["buffers"], sim.get("buffers", []),
                                         cls == "approx", atomics)
        if vk.result["images"] != sim.get("images", []):
            problems.append("storage images differ")
        if buffer_problem:
            problems.append(buffer_problem)
        where = ""
        if first:
            where = " (first at (%d, %d): %s driver vs %s simulator)" % first
        if subgroup:
            return self.line("not comparable", name, "%s; %d pixels differ%s"
                             % (", ".join(subgroup), differing, where))
        self.classes[cls] += 1
        self.max_diff[cls] = max(self.max_diff[cls], worst)
        detail = "%s, %d pixels differ, max %d/255%s" % (
            cls + (" (%s)" % ", ".join(approx) if approx and cls == "approx" else ""),
            differing, worst, where)
        if cls == "exact" and differing:
            problems.append("bit-exact class but %d pixels differ" % differing)
        elif cls == "approx" and worst > CHANNEL_TOLERANCE:
            problems.append("beyond %d/255" % CHANNEL_TOLERANCE)
        elif cls == "lod" and differing > LOD_PIXEL_FRACTION * size * size:
            problems.append("more than %d %% of the pixels differ" % (100 * LOD_PIXEL_FRACTION))
        helpers = stats.get("helper_invocations", 0)
        extra = "; demoted %s, terminated %s, helpers %s" % (stats.get("demoted", 0),
                                                             stats.get("terminated", 0), helpers)
        if cls in ("measured", "lod-measured"):
            if cls == "lod-measured" and (differing or buffer_problem):
                self.measured_differ += 1
            return self.line("ok", name, detail + extra + " (measured, not asserted%s)"
                             % (": " + buffer_problem if buffer_problem else ""))
        if problems:
            return self.line("FAIL", name, detail + extra + ": " + "; ".join(problems))
        return self.line("ok", name, detail + extra)


# Hand-written cases: the built-ins and the inputs, each along one line of the
# simulator's model (docs/simulator.md).
INLINE_CASES = {
    "builtin_fragcoord_frontfacing": """#version 450
layout(location = 0) out vec4 color;
void main() {
  color = vec4(gl_FragCoord.x * 0.015625, gl_FragCoord.y * 0.015625,
               gl_FragCoord.z + gl_FragCoord.w * 0.25,
               gl_FrontFacing ? 1.0 : 0.0);
}
""",
    "inputs_planes_derivatives": """#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) noperspective in float lin;
layout(location = 2) flat in ivec3 fi;
layout(location = 3) flat in uvec2 fu;
layout(location = 4) flat in float ff;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) buffer Out { float v[6144]; } outb;
void main() {
  // Derivatives of linear inputs are their plane coefficients in every lane;
  // the fine ones of a quadratic use the lane's own row and column.
  float q = uv.x * uv.y * 8.0;
  uint p = uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x);
  outb.v[p * 6u + 0u] = dFdx(lin);
  outb.v[p * 6u + 1u] = dFdy(lin) + dFdyCoarse(uv.y);
  outb.v[p * 6u + 2u] = fwidth(uv.x + uv.y) + dFdxCoarse(lin);
  outb.v[p * 6u + 3u] = dFdxFine(q);
  outb.v[p * 6u + 4u] = dFdyFine(q);
  outb.v[p * 6u + 5u] = float(fi.x + fi.y * 2 + fi.z * 3) + float(fu.x ^ fu.y) + ff;
  color = vec4(uv, lin, float(fi.y) / 16.0);
}
""",
    # Measured, not asserted: OpDPdx/OpDPdy/OpFwidth are "either fine or coarse"
    # and the Coarse ones "may" be fine (SPIR-V spec, OpDPdxCoarse: "the
    # implementation can compute x derivatives in fewer unique locations than
    # would be allowed for OpDPdxFine"). Of a value that is not linear in
    # (x, y) the lanes of a quad then get different derivatives.
    "derivative_granularity": """#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) buffer Out { float v[5120]; } outb;
void main() {
  float q = uv.x * uv.y * 8.0;
  uint p = uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x);
  outb.v[p * 5u + 0u] = dFdx(q);
  outb.v[p * 5u + 1u] = dFdy(q);
  outb.v[p * 5u + 2u] = fwidth(q);
  outb.v[p * 5u + 3u] = dFdxCoarse(q);
  outb.v[p * 5u + 4u] = dFdyCoarse(q);
  color = vec4(uv, 0.0, 1.0);
}
""",
}
# Cases whose differences the spec allows: measured and printed, not asserted.
MEASURED = {"derivative_granularity"}
INLINE_PLANES = {"inputs_planes_derivatives": {
    1: [[0.125, 0.015625, -0.0078125]],
    2: [[3, 0, 0], [-2, 0, 0], [7, 0, 0]],
    3: [[5, 0, 0], [12, 0, 0]],
    4: [[0.375, 0, 0]]}}


def bundled_shaders(root):
    out = []
    for folder in ("", "lint", "vulkan"):
        d = os.path.join(root, folder)
        out += [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".frag")]
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", required=True, help="the vk_runner binary")
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--glslang", required=True, help="glslangValidator")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--shaders", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shaders"),
        help="the repository's shaders/ (its *.frag, lint/*.frag, vulkan/*.frag)")
    parser.add_argument("--generated", type=int, default=60,
                        help="generated shaders (glsl_gen.py --comparable), default 60")
    parser.add_argument("--seed", type=int, default=1, help="first generator seed")
    parser.add_argument("--size", type=int, default=32, help="the frame, N x N (default 32)")
    parser.add_argument("--device", default="")
    parser.add_argument("--case", default="", help="only cases whose name contains this")
    args = parser.parse_args(argv)
    checks = vk_job.Checks("fragment_sim")

    def body():
        started = time.monotonic()
        tools = vk_job.Tools(args.runner, args.glslang, args.work_dir, device=args.device,
                             prefer="llvmpipe")
        runner = Runner(args, tools)
        # A first run decides whether a device exists (exit 77 otherwise).
        probe = tools.compile(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                           "fullscreen.vert"), "probe.vert.spv")
        del probe
        cases = []
        for name, text in INLINE_CASES.items():
            path = tools.path(name + ".frag")
            with open(path, "w") as f:
                f.write(text)
            cases.append((name, path, None, INLINE_PLANES.get(name)))
        for path in bundled_shaders(args.shaders):
            rel = os.path.relpath(path, args.shaders).replace(os.sep, "_")
            cases.append((rel.replace(".frag", ""), path, False, None))
        for seed in range(args.seed, args.seed + args.generated):
            name, text = glsl_gen.generate(seed, comparable=True)
            path = tools.path(name)
            with open(path, "w") as f:
                f.write(text)
            cases.append((name.replace(".frag", ""), path, True, None))
        device_noted = False
        for name, path, generated, planes in cases:
            if args.case and args.case not in name:
                continue
            spv = tools.compile(path, name + ".spv")
            if generated is None:  # an inline case: no default run
                runner.case(name, spv, False, planes)
                continue
            # The simulator's own verdict on the shader by default (no job).
            code, _, stderr = tools.run_tool([args.spirv_conv, "run", spv, "--frame",
                                              "%dx%d" % (args.size, args.size), "-o",
                                              tools.path(name + ".default.json")])
            if code != 0:
                runner.line("skipped", name, "the simulator exits %s by default: %s"
                            % (code, stderr.strip().splitlines()[-1][:200] if stderr.strip()
                               else ""))
                continue
            runner.case(name, spv, generated, planes)
            if not device_noted and os.path.exists(tools.path(name + ".result.json")):
                with open(tools.path(name + ".result.json")) as f:
                    device = json.load(f)["device"]
                print("fragment_sim: device: %s (%s)" % (device["name"], device["driver"]))
                device_noted = True
        for note in runner.notes:
            print("fragment_sim: note: %s" % note)
        c = runner.counts
        k, m = runner.classes, runner.max_diff
        print("fragment_sim: %d ok, %d FAIL, %d not comparable, %d skipped; exact %d (max %d/255), "
              "approx %d (max %d/255), lod %d (max %d/255), lod measured %d (%d differ, max "
              "%d/255); %.1f s"
              % (c["ok"], c["FAIL"], c["not comparable"], c["skipped"], k["exact"], m["exact"],
                 k["approx"], m["approx"], k["lod"], m["lod"], k["lod-measured"],
                 runner.measured_differ, m["lod-measured"], time.monotonic() - started))
        for failure in runner.failures:
            print("fragment_sim: failed: %s" % failure)
        return 1 if c["FAIL"] else 0

    return vk_job.main_guard(body, checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
