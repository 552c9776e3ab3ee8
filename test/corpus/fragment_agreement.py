#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Derivative verdicts confirmed by execution (issue 43 §3,
docs/execution-agreement.md): the lint's derivative findings and
check-motion's derivative verdicts against the fragment-shader simulator.

  python3 test/corpus/fragment_agreement.py --spirv-conv PATH --work-dir DIR
          [--spirv-cross-corpus DIR] [--gen-seeds N] [--runs K] [--jobs N]
          [--max-files N] [--markdown] [--json FILE] [--cache-dir DIR]

Shaders (each compiled once with glslangValidator -V --target-env vulkan1.2
-g, or as spirv_cross_corpus.py compiles the SPIRV-Cross package's fragment
shaders, GLSL and assembly; identical sources once): shaders/*.frag,
shaders/lint/*.frag, the spirv-cross corpus, glsl_gen.py seeds 1..N that are
fragment shaders, and the motion reproductions (test/motion). Each module M0
(glslang's output) gets M1 = `spirv-opt -O` of it (the reproductions: the pass
list that breaks them), kept when spirv-val accepts it.

Lint side: `spirv-conv lint --format json --no-group` on M0 and M1; the
findings of DERIVATIVE_RULES, each mapped to the result id of its
instruction (the friendly names of `spirv-conv dis` against --raw-id).

Execution side: K runs of `spirv-conv run` per shader (the same K configs for
M0 and M1): coverage full / triangle / random masks with partly covered quads,
odd frames, subgroup sizes 4..32, interpolated inputs as random planes or
per-pixel noise (flat inputs constant per run), buffers and push constants
zero, half zeros (flags off, small thresholds), small integers, floats or
random words, sampled 2D float images default or random texels on every mip
level (a changed LOD shows). Per module the union over runs of `undefined_derivatives`, and
the blocks that ran.

Agreement per rule, level and variant: findings confirmed (their instruction
undefined in some run), reached but always defined, never reached, not
checkable (quad operations: the simulator tracks derivatives only; findings on
quad-uniform control flow that is not primitive-uniform, which the simulator's
quad derivative groups cannot split). Lint
misses: a derivative undefined in some run with no derivative finding on it
(soundness).

check-motion side: `check-motion M0 M1 --format json`; a pair is illegal for
derivatives when a finding sits on a derivative or implicit-LOD instruction of
M1. Per config the attachments and storage buffers of M0 and M1 are compared
(relative tolerance 1e-5) and their undefined derivatives: a run is a
*witness* when M0 had no undefined derivative and M1 has one or its outputs
differ. Illegal pairs with a witness are confirmed; legal pairs with one are
soundness problems (of check-motion, or of spirv-opt).

Exit 0; 1 when a soundness disagreement was found (a lint miss; a finding that
calls the control flow quad-uniform on an instruction some run shows undefined;
a legal pair with a witness) or the harness failed on a shader; 2 on a usage
error.
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "fuzz"))
sys.path.insert(0, os.path.join(REPO, "test", "motion"))
sys.path.insert(0, os.path.join(REPO, "test", "reconvergence"))
import corpus_test as ct  # noqa: E402
import spirv_cross_corpus as sxc  # noqa: E402
import glsl_gen  # noqa: E402
import sim_tools  # noqa: E402
import motion_repro_test as mrt  # noqa: E402

DERIVATIVE_RULES = ("derivative-divergent-cf", "derivative-after-discard")
RUN_TIMEOUT = 60
MAX_INSTRUCTIONS = 2000000

# Opcodes (SPIR-V numbers) the simulator checks as derivatives, and quad operations.
DERIVATIVE_OPS = {207: "DPdx", 208: "DPdy", 209: "Fwidth", 210: "DPdxFine", 211: "DPdyFine",
                  212: "FwidthFine", 213: "DPdxCoarse", 214: "DPdyCoarse", 215: "FwidthCoarse",
                  87: "ImageSampleImplicitLod", 89: "ImageSampleDrefImplicitLod",
                  91: "ImageSampleProjImplicitLod", 93: "ImageSampleProjDrefImplicitLod",
                  305: "ImageSparseSampleImplicitLod", 307: "ImageSparseSampleDrefImplicitLod",
                  309: "ImageSparseSampleProjImplicitLod",
                  311: "ImageSparseSampleProjDrefImplicitLod", 105: "ImageQueryLod"}
QUAD_OPS = {365: "GroupNonUniformQuadBroadcast", 366: "GroupNonUniformQuadSwap",
            5110: "GroupNonUniformQuadAllKHR", 5111: "GroupNonUniformQuadAnyKHR"}
EXPLICIT = {"DPdx", "DPdy", "Fwidth", "DPdxFine", "DPdyFine", "FwidthFine", "DPdxCoarse",
            "DPdyCoarse", "FwidthCoarse"}


# ---------------------------------------------------------------------------
# Modules


def words_of(path):
    data = ct.read_bytes(path)
    order = "<" if data[:4] == b"\x03\x02\x23\x07" else ">"
    return list(struct.unpack(order + "%dI" % (len(data) // 4), data[:len(data) // 4 * 4]))


def literal_string(words):
    raw = b"".join(struct.pack("<I", w) for w in words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def parse_module(path):
    """What the configs and the tables need from a SPIR-V binary: the
    derivative and quad instructions {id: (function name, block, opcode)},
    the interface (inputs, descriptors, push constants)."""
    w = words_of(path)
    names, decorations, types, constants, globals_ = {}, collections.defaultdict(dict), {}, {}, []
    checked, function, fname, block = {}, None, None, None
    i = 5
    while i < len(w):
        count, op = w[i] >> 16, w[i] & 0xFFFF
        if count == 0:
            break
        ops = w[i + 1:i + count]
        if op == 5:  # OpName
            names[ops[0]] = literal_string(ops[1:])
        elif op == 71 and len(ops) >= 2:  # OpDecorate
            decorations[ops[0]][ops[1]] = ops[2:]
        elif 19 <= op <= 39 or op == 322:  # types
            types[ops[0]] = (op, ops[1:])
        elif op == 43:  # OpConstant
            constants[ops[1]] = ops[2] if len(ops) > 2 else 0
        elif op == 59 and function is None:  # OpVariable, module scope
            globals_.append((ops[0], ops[1], ops[2]))
        elif op == 54:  # OpFunction
            function = ops[1]
            fname = names.get(function, "%%%d" % function).split("(", 1)[0]
        elif op == 56:
            function = None
        elif op == 248:
            block = ops[0]
        elif op in DERIVATIVE_OPS or op in QUAD_OPS:
            checked[ops[1]] = (fname, block, DERIVATIVE_OPS.get(op) or QUAD_OPS[op])
        i += count

    def pointee(type_id):
        t = types.get(type_id)
        return t[1][1] if t and t[0] == 32 else None

    inputs, descriptors, push = [], [], False
    for type_id, var, storage in globals_:
        dec = decorations.get(var, {})
        base = pointee(type_id)
        if storage == 1:  # Input
            if 30 not in dec or 11 in dec:  # Location, not BuiltIn
                continue
            t = types.get(base, (None, []))
            length = 1
            if t[0] == 28:  # array of inputs: consecutive locations
                length = min(constants.get(t[1][1], 1), 8)
                t = types.get(t[1][0], (None, []))
            scalar = t[1][0] if t[0] == 23 else base if t[0] != 28 else None
            is_int = types.get(scalar, (None,))[0] == 21
            for k in range(length):
                inputs.append({"location": dec[30][0] + k, "flat": 14 in dec or is_int,
                               "int": is_int})
        elif storage in (0, 2, 12) and 34 in dec and 33 in dec:
            t = types.get(base, (None, []))
            elements = 1
            if t[0] == 28:
                elements = min(constants.get(t[1][1], 1), 16)
                t = types.get(t[1][0], (None, []))
            elif t[0] == 29:
                elements = 4
                t = types.get(t[1][0], (None, []))
            kind, image = None, None
            if t[0] == 27:  # sampled image
                image = types.get(t[1][0], (None, []))
            elif t[0] == 25:
                image = t
            if image:
                fields = image[1]  # sampled type, dim, depth, arrayed, ms, sampled, format
                float_texels = types.get(fields[0], (None,))[0] == 22
                if fields[1] == 1 and fields[3] == 0 and fields[4] == 0 and fields[5] == 1 \
                        and float_texels:
                    kind = "image2d"
            elif t[0] == 30 and storage in (2, 12):
                kind = "buffer"
            if kind:
                descriptors.append({"set": dec[34][0], "binding": dec[33][0], "kind": kind,
                                    "elements": elements})
        elif storage == 9:
            push = True
    return {"checked": checked, "inputs": inputs, "descriptors": descriptors, "push": push}


def name_map(tools, spv):
    """{friendly name: result id} from `spirv-conv dis` with and without --raw-id."""
    texts = []
    for raw in ((), ("--raw-id",)):
        proc = subprocess.run([tools.spirv_conv, "dis", "--no-indent", "--no-header", *raw, spv],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
        texts.append(proc.stdout.decode("utf-8", "replace").splitlines())
    mapping = {}
    if len(texts[0]) == len(texts[1]):
        for friendly, raw in zip(*texts):
            if " = " in friendly and friendly.startswith("%") and raw.startswith("%"):
                name, number = friendly.split(" = ", 1)[0], raw.split(" = ", 1)[0]
                if number[1:].isdigit():
                    mapping[name] = int(number[1:])
    return mapping


class Shader:
    def __init__(self, source, label, kind):
        self.source = source    # GLSL or assembly file
        self.label = label      # corpus:path
        self.kind = kind        # "glsl", "glsl --amb" or "asm"
        self.spv = {}           # variant -> module
        self.env = None
        self.passes = ["-O"]
        self.problems = []


def file_stem(label):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label.replace(os.sep, "__").replace(":", "__"))


def compile_glsl(tools, source, out, extra=()):
    code, err = ct.run([tools.glslang, "-V", "--target-env", sxc.GLSL_ENV, "-g", *extra,
                        source, "-o", out])
    return code == 0


def prepare(tools, shader, work):
    """Compiles M0 and M1 of |shader|; problems are noted on it."""
    stem = os.path.join(work, file_stem(shader.label))
    if shader.kind == "cross":
        s = sxc.compile_one(sxc.Shader(shader.source_rel, sxc.classify(shader.source_rel)),
                            tools.cross, os.path.dirname(stem), tools, ("-g",))
        if not s.valid:
            shader.problems.append("not valid: %s" % s.why)
            return shader
        m0 = stem + ".O0.spv"
        shutil.copyfile(s.spv, m0)
        shader.kind = s.how
    else:
        m0 = stem + ".O0.spv"
        if not compile_glsl(tools, shader.source, m0):
            shader.problems.append("does not compile")
            return shader
    shader.env = sxc.spirv_env(ct.read_bytes(m0))
    if ct.run([tools.spirv_val, "--target-env", shader.env, m0])[0] != 0:
        shader.problems.append("glslang output invalid")
        return shader
    shader.spv["O0"] = m0
    m1 = stem + ".O.spv"
    code, err = ct.run([tools.spirv_opt, "--target-env=" + shader.env, *shader.passes, m0,
                        "-o", m1])
    if code == 0 and ct.run([tools.spirv_val, "--target-env", shader.env, m1])[0] == 0:
        shader.spv["O"] = m1
    else:
        shader.problems.append("spirv-opt %s fails or is invalid" % " ".join(shader.passes))
    return shader


# ---------------------------------------------------------------------------
# Lint and check-motion


def instruction_id(instruction, names):
    if not instruction or " = " not in instruction:
        return None
    return names.get(instruction.split(" = ", 1)[0])


def lint(tools, shader, variant, info, names):
    spv = shader.spv[variant]
    out = spv + ".lint.json"
    code, err = ct.run([tools.spirv_conv, "lint", "--format", "json", "--no-group",
                        "--target-env", shader.env, spv, "-o", out])
    if code not in (0, 1):
        shader.problems.append("lint %s [%s]: %s" % (ct.describe(code), variant,
                                                     ct.first_line(err)))
        return None
    with open(out) as f:
        report = json.load(f)
    findings = []
    for entry in report["files"]:
        for finding in entry["findings"]:
            if finding["rule"] not in DERIVATIVE_RULES:
                continue
            loc = finding["location"]
            rid = instruction_id(loc.get("instruction"), names)
            opcode = info["checked"].get(rid, (None, None, None))[2]
            findings.append({"rule": finding["rule"], "severity": finding["severity"],
                             "id": rid, "opcode": opcode, "function": loc.get("function"),
                             "block": loc.get("block"), "line": loc.get("line"),
                             "instruction": loc.get("instruction"),
                             "primitive": "not across the primitive" in finding["message"]})
    return findings


def check_motion(tools, shader, info1, names1):
    out = shader.spv["O"] + ".motion.json"
    code, err = ct.run([tools.spirv_conv, "check-motion", "--format", "json", "--target-env",
                        shader.env, shader.spv["O0"], shader.spv["O"], "-o", out])
    if code not in (0, 1):
        shader.problems.append("check-motion %s: %s" % (ct.describe(code), ct.first_line(err)))
        return None
    with open(out) as f:
        report = json.load(f)
    findings = []
    for entry in report["files"]:
        for finding in entry["findings"]:
            loc = finding["location"]
            rid = instruction_id(loc.get("instruction"), names1)
            opcode = info1["checked"].get(rid, (None, None, None))[2]
            findings.append({"rule": finding["rule"], "id": rid, "opcode": opcode,
                             "derivative": opcode in DERIVATIVE_OPS.values(),
                             "line": loc.get("line"), "instruction": loc.get("instruction"),
                             "notes": finding.get("notes", [])})
    return findings


# ---------------------------------------------------------------------------
# Execution


def buffer_words(rng, flavour, count):
    if flavour == "sparse":  # half zeros: flags off, thresholds and counts small
        return [0 if rng.random() < 0.4 else rng.randrange(0, 4) if rng.random() < 0.5
                else sim_tools.f32_bits(round(rng.uniform(0.0, 1.0), 3)) for _ in range(count)]
    if flavour == "small":
        return [rng.randrange(0, 4) for _ in range(count)]
    if flavour == "float":
        return [sim_tools.f32_bits(rng.choice((0.0, 0.25, 0.5, 1.0, 2.0, -1.0)) if rng.random() < 0.3
                           else rng.uniform(-2.0, 2.0)) for _ in range(count)]
    if flavour == "mixed":
        return [rng.randrange(0, 8) if rng.random() < 0.5 else sim_tools.f32_bits(rng.uniform(-2, 2))
                for _ in range(count)]
    return [rng.getrandbits(32) for _ in range(count)]  # "random"


def texel_byte(rng):
    draw = rng.random()
    return 0 if draw < 0.15 else 255 if draw < 0.3 else rng.randrange(256)


COVERAGES = ("full", "triangle", "mask-dense", "mask-sparse")
BUFFERS = ("sparse", "sparse", "sparse", "small", "float", "mixed", "random")


def make_configs(shader, info, count, folder):
    """|count| run configs: (description, [run options]), files written to |folder|."""
    os.makedirs(folder, exist_ok=True)
    seed = int(hashlib.sha256(shader.label.encode()).hexdigest()[:12], 16)
    configs = []
    for k in range(count):
        rng = random.Random(seed + k)
        width, height = (16, 16) if k % 8 != 7 else (13, 11)
        coverage = COVERAGES[(k + k // 4) % 4]
        subgroup = (4, 8, 16, 32)[k % 4]
        style = ("noise", "plane", "noise", "plane", "default")[k % 5]
        flavour = rng.choice(BUFFERS) if k else "zero"
        images = k > 0 and rng.random() < 0.6
        args = ["--frame", "%dx%d" % (width, height), "--subgroup-size", str(subgroup)]
        desc = ["%dx%d" % (width, height), coverage, "sg%d" % subgroup, style, flavour,
                "images" if images else "default-images"]
        if coverage.startswith("mask"):
            p = 0.8 if coverage == "mask-dense" else 0.5
            mask = [1 if rng.random() < p else 0 for _ in range(width * height)]
            path = os.path.join(folder, "run%d.coverage.json" % k)
            with open(path, "w") as f:
                json.dump({"coverage": mask}, f)
            args += ["--coverage", path]
        else:
            args += ["--coverage", coverage]
        for inp in info["inputs"] if style != "default" else []:
            if inp["flat"]:
                value = rng.randrange(0, 8) if inp["int"] else rng.uniform(-1.0, 2.0)
                data = {"plane": [[value, 0.0, 0.0] for _ in range(4)]}
            elif style == "plane":
                data = {"plane": [[rng.uniform(-1.0, 2.0), rng.uniform(-0.15, 0.15),
                                   rng.uniform(-0.15, 0.15)] for _ in range(4)]}
            else:
                lo, hi = (0.0, 1.0) if rng.random() < 0.6 else (-2.0, 2.0)
                data = {"per_pixel": [[round(rng.uniform(lo, hi), 4)
                                       for _ in range(width * height)] for _ in range(4)]}
            path = os.path.join(folder, "run%d.in%d.json" % (k, inp["location"]))
            with open(path, "w") as f:
                json.dump(data, f)
            args += ["--input", "%d=%s" % (inp["location"], path)]
        for d in info["descriptors"]:
            for e in range(d["elements"]):
                target = "%d:%d%s" % (d["set"], d["binding"], "[%d]" % e if d["elements"] > 1
                                      else "")
                name = "run%d.%d_%d_%d.json" % (k, d["set"], d["binding"], e)
                path = os.path.join(folder, name)
                if d["kind"] == "buffer" and flavour != "zero":
                    with open(path, "w") as f:
                        json.dump({"u32": buffer_words(rng, flavour, 1024)}, f)
                    args += ["--buffer", "%s=%s" % (target, path)]
                elif d["kind"] == "image2d" and images:
                    size = rng.choice((16, 32))  # texelFetch at the pixel stays inside
                    # Every level random (a changed LOD shows in the result), a third of
                    # the bytes 0 or 255 (tests like depth >= 1.0 hit).
                    levels = [{"texels": [texel_byte(rng) for _ in range(4 * (size >> n) ** 2)]}
                              for n in range(size.bit_length())]
                    with open(path, "w") as f:
                        json.dump({"width": size, "height": size, "format": "rgba8",
                                   "levels": levels,
                                   "sampler": {"filter": "nearest", "mipmap": "nearest",
                                               "address": "repeat"}}, f)
                    args += ["--image", "%s=%s" % (target, path)]
        if info["push"] and flavour != "zero":
            path = os.path.join(folder, "run%d.push.json" % k)
            with open(path, "w") as f:
                json.dump({"u32": buffer_words(rng, flavour, 64)}, f)
            args += ["--push-constants", path]
        configs.append((" ".join(desc), args))
    return configs


def simulate(tools, spv, args):
    """(status, result): status "ok", "fault" (exit 1: the shader's fault),
    "unsupported" (exit 2) or "timeout"; result the parsed JSON or the message."""
    out = spv + ".run.json"
    cmd = [tools.spirv_conv, "run", spv, "--stats", "json", "--max-instructions",
           str(MAX_INSTRUCTIONS), *args, "-o", out]
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", "timed out"
    if proc.returncode != 0:
        return ("fault" if proc.returncode == 1 else "unsupported"), \
            ct.first_line(proc.stderr.decode("utf-8", "replace"))
    with open(out) as f:
        result = json.load(f)
    os.remove(out)
    return "ok", result


def close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a == b
        if math.isnan(a) and math.isnan(b):
            return True
        return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))
    return a == b


def outputs_differ(r0, r1):
    """A short description of the first difference of attachments or storage
    buffers between two results, or None."""
    a0 = {a["location"]: a for a in r0.get("attachments", [])}
    a1 = {a["location"]: a for a in r1.get("attachments", [])}
    for loc in sorted(set(a0) | set(a1), key=str):
        if loc not in a0 or loc not in a1:
            return "attachment %s only in one" % loc
        x, y = a0[loc], a1[loc]
        if x.get("written") != y.get("written"):
            return "attachment %s: written pixels differ" % loc
        for key in ("f32", "i32", "u32"):
            if key in x or key in y:
                vx, vy = x.get(key) or [], y.get(key) or []
                if len(vx) != len(vy):
                    return "attachment %s: sizes differ" % loc
                for n, (p, q) in enumerate(zip(vx, vy)):
                    if not close(p, q):
                        return "attachment %s value %d: %r vs %r" % (loc, n, p, q)
    b0 = {(b["set"], b["binding"], b.get("element", 0)): b for b in r0.get("buffers", [])}
    b1 = {(b["set"], b["binding"], b.get("element", 0)): b for b in r1.get("buffers", [])}
    for key in sorted(set(b0) & set(b1)):
        if b0[key].get("u32") != b1[key].get("u32"):
            return "buffer %d:%d[%d] differs" % key
    return None


def undefined_of(result):
    return {u["result"]: u for u in result["stats"].get("undefined_derivatives", [])}


def blocks_of(result):
    return {b["block"] for b in result["stats"].get("blocks", []) if b.get("issued")}


def execute(tools, shader, configs):
    """Runs every config on M0 and M1. Returns per variant {"undefined": {id:
    [run indices]}, "reached": set of blocks, "status": Counter, "messages"},
    and per config {variant: (undefined ids, reached blocks)} and the first
    difference of the outputs (None: none, or a variant did not finish)."""
    per = {v: {"undefined": collections.defaultdict(list), "reached": set(),
               "status": collections.Counter(), "messages": []} for v in shader.spv}
    runs = []
    for k, (desc, args) in enumerate(configs):
        results, summary = {}, {}
        for variant, spv in shader.spv.items():
            status, result = simulate(tools, spv, args)
            per[variant]["status"][status] += 1
            if status != "ok":
                if len(per[variant]["messages"]) < 2 and result not in per[variant]["messages"]:
                    per[variant]["messages"].append(result)
                continue
            results[variant] = result
            undefined, reached = undefined_of(result), blocks_of(result)
            for rid in undefined:
                per[variant]["undefined"][rid].append(k)
            per[variant]["reached"] |= reached
            summary[variant] = (sorted(undefined), sorted(reached))
        diff = outputs_differ(results["O0"], results["O"]) \
            if "O0" in results and "O" in results else None
        runs.append({"summary": summary, "diff": diff})
    return per, runs


def origins(finding, names0):
    """The BEFORE instructions a check-motion finding names as its origin."""
    found = [instruction_id(n["location"].get("instruction"), names0)
             for n in finding.get("notes", [])
             if n["message"].startswith("before the transformation") and n.get("location")]
    return [rid for rid in found if rid is not None]


def motion_witnesses(rec, checked0):
    """Runs that show a motion changed a derivative: [(run, why)]. A run is a
    witness when M0 had no undefined derivative and M1 has one or its outputs
    differ, or when a derivative of M1 is undefined while its twin in M0 (its
    origin for a check-motion finding, else the same result id) ran, defined."""
    witnesses, loose = [], []
    origin_of = {f["id"]: f["origins"] for f in rec["motion"] or [] if f["origins"]}
    for k, run in enumerate(rec["runs"]):
        s = run["summary"]
        if "O0" not in s or "O" not in s:
            continue
        u0, r0 = set(s["O0"][0]), set(s["O0"][1])
        u1 = set(s["O"][0])
        newly = []
        for rid in sorted(u1):
            twins = origin_of.get(rid) or [rid]
            if all(t in checked0 and t not in u0 and checked0[t][1] in r0 for t in twins):
                newly.append("%%%d (M0 %s)" % (rid, ", ".join("%%%d" % t for t in twins)))
        if newly:
            witnesses.append((k, "M1 undefined where M0 ran defined: %s%s" % (
                ", ".join(newly), "; outputs: " + run["diff"] if run["diff"] else "")))
        elif not u0 and (u1 or run["diff"]):
            witnesses.append((k, run["diff"] or "M1 undefined: %s" % ", ".join(
                "%%%d" % rid for rid in sorted(u1))))
        elif run["diff"]:
            loose.append((k, run["diff"] + " (M0 had undefined derivatives)"))
    return witnesses, loose


# ---------------------------------------------------------------------------
# The shaders


def collect_shaders(args, tools):
    shaders = []
    for pattern, label in (("shaders", "shaders"), (os.path.join("shaders", "lint"), "lint")):
        folder = os.path.join(REPO, pattern)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".frag"):
                shaders.append(Shader(os.path.join(folder, name), "%s:%s" % (label, name),
                                      "glsl"))
    if args.spirv_cross_corpus and os.path.isdir(args.spirv_cross_corpus):
        seen = set()
        for s in sxc.find_shaders(args.spirv_cross_corpus):
            if not s.path.endswith(".frag"):
                continue
            digest = hashlib.sha256(ct.read_bytes(os.path.join(args.spirv_cross_corpus,
                                                               s.path))).digest()
            if digest in seen:
                continue
            seen.add(digest)
            shader = Shader(os.path.join(args.spirv_cross_corpus, s.path),
                            "spirv-cross:" + s.path, "cross")
            shader.source_rel = s.path
            shaders.append(shader)
    gen_dir = os.path.join(args.work_dir, "generated")
    os.makedirs(gen_dir, exist_ok=True)
    for seed in range(1, args.gen_seeds + 1):
        name, text = glsl_gen.generate(seed)
        if name.endswith(".frag"):
            path = os.path.join(gen_dir, name)
            with open(path, "w") as f:
                f.write(text)
            shaders.append(Shader(path, "generated:" + name, "glsl"))
    repro_dir = os.path.join(args.work_dir, "repro")
    os.makedirs(repro_dir, exist_ok=True)
    for name, text, passes in (("nu3.frag", mrt.NU3,
                                ["--replace-desc-array-access-using-var-index"]),
                               ("re.frag", mrt.RE,
                                ["--eliminate-local-multi-store", "--redundancy-elimination"]),
                               ("re-O.frag", mrt.RE, ["-O"])):
        path = os.path.join(repro_dir, name)
        with open(path, "w") as f:
            f.write(text)
        shader = Shader(path, "motion-repro:%s (%s)" % (name, " ".join(passes)), "glsl")
        shader.passes = passes
        shaders.append(shader)
    known = os.path.join(REPO, "test", "motion", "known")
    for name in sorted(os.listdir(known)):
        if name.endswith(".frag"):
            shaders.append(Shader(os.path.join(known, name), "motion-known:" + name, "glsl"))
    if args.only:
        shaders = [s for s in shaders if any(o in s.label for o in args.only)]
    if args.max_files:
        shaders = sxc.every_nth(shaders, args.max_files)
    return shaders


def corpus_of(label):
    return label.split(":", 1)[0]


def process(tools, shader, args):
    """Everything for one shader; returns a record (plain data)."""
    start = time.time()
    prepare(tools, shader, tools.module_dir)
    rec = {"label": shader.label, "source": shader.source, "problems": shader.problems,
           "passes": shader.passes, "variants": {}, "motion": None, "witnesses": [],
           "loose": [], "configs": []}
    if "O0" not in shader.spv:
        return rec
    infos = {v: parse_module(p) for v, p in shader.spv.items()}
    names = {v: name_map(tools, p) for v, p in shader.spv.items()}
    lints = {v: lint(tools, shader, v, infos[v], names[v]) for v in shader.spv}
    if "O" in shader.spv:
        rec["motion"] = check_motion(tools, shader, infos["O"], names["O"])
    folder = os.path.join(tools.config_dir, file_stem(shader.label))
    configs = make_configs(shader, infos["O0"], args.runs, folder)
    per, runs = execute(tools, shader, configs)
    rec["runs"] = runs
    if rec["motion"] is not None:
        for f in rec["motion"]:
            f["origins"] = origins(f, names["O0"])
            del f["notes"]
    rec["witnesses"], rec["loose"] = motion_witnesses(rec, infos["O0"]["checked"])
    rec["configs"] = [c[0] for c in configs]
    rec["config_args"] = [c[1] for c in configs]
    for v in shader.spv:
        rec["variants"][v] = {
            "spv": shader.spv[v], "env": shader.env, "findings": lints[v],
            "checked": {rid: list(x) for rid, x in infos[v]["checked"].items()},
            "undefined": dict(per[v]["undefined"]), "reached": sorted(per[v]["reached"]),
            "status": dict(per[v]["status"]), "messages": per[v]["messages"]}
    rec["seconds"] = round(time.time() - start, 2)
    return rec


def guarded(tools, shader, args):
    try:
        return process(tools, shader, args)
    except Exception as e:  # a harness bug: keep the rest of the run, report it
        return {"label": shader.label, "source": shader.source, "variants": {},
                "problems": ["harness error: %s: %s" % (type(e).__name__, e)],
                "passes": shader.passes, "motion": None, "witnesses": [], "loose": [],
                "configs": []}


# ---------------------------------------------------------------------------
# Tables


def analyse(records):
    """The agreement rows and the lists."""
    rows = collections.OrderedDict()
    unconfirmed, misses, not_checkable = [], [], []
    runs = collections.Counter()
    for rec in records:
        for variant, data in rec["variants"].items():
            for status, n in data["status"].items():
                runs[status] += n
            ran = data["status"].get("ok", 0) > 0
            undefined = {int(k): v for k, v in data["undefined"].items()}
            reached = set(data["reached"])
            checked = {int(k): v for k, v in data["checked"].items()}
            if data["findings"] is None:
                continue
            flagged = set()
            for f in data["findings"]:
                kind = "explicit" if f["opcode"] in EXPLICIT else \
                    "quad op" if f["opcode"] in QUAD_OPS.values() else \
                    "implicit LOD" if f["opcode"] else "unmatched"
                if f.get("primitive"):  # quad-uniform, not primitive-uniform: no quad splits
                    kind += ", quad-uniform cf"
                key = (f["rule"], f["severity"], kind, variant)
                row = rows.setdefault(key, collections.Counter())
                row["findings"] += 1
                flagged.add(f["id"])
                where = dict(f, label=rec["label"], variant=variant, spv=data["spv"])
                if f.get("primitive") and f["id"] in undefined:
                    # The lint calls the control flow quad-uniform; a run split the quad.
                    row["quad-uniform, yet undefined"] += 1
                    run = undefined[f["id"]][0]
                    misses.append({"label": rec["label"], "variant": variant,
                                   "spv": data["spv"], "id": f["id"], "opcode": f["opcode"],
                                   "function": f["function"], "block": f["block"],
                                   "runs": undefined[f["id"]], "config": rec["config_args"][run],
                                   "config_desc": rec["configs"][run],
                                   "why": "%s %s says quad-uniform control flow" % (
                                       f["rule"], f["severity"])})
                elif kind in ("quad op", "unmatched") or f.get("primitive"):
                    row["not checkable"] += 1
                    not_checkable.append(where)
                elif not ran:
                    row["not run"] += 1
                elif f["id"] in undefined:
                    row["confirmed"] += 1
                elif checked.get(f["id"], [None, None])[1] in reached:
                    row["reached, defined"] += 1
                    unconfirmed.append(dict(where, why="reached, always defined"))
                else:
                    row["not reached"] += 1
                    unconfirmed.append(dict(where, why="not reached"))
            for rid, run_list in sorted(undefined.items()):
                if rid not in flagged:
                    fn, block, opcode = checked.get(rid, (None, None, "?"))
                    misses.append({"label": rec["label"], "variant": variant,
                                   "spv": data["spv"], "id": rid, "opcode": opcode,
                                   "function": fn, "block": block, "runs": run_list,
                                   "config": rec["config_args"][run_list[0]],
                                   "config_desc": rec["configs"][run_list[0]]})
    motion = collections.Counter()
    motion_lists = collections.defaultdict(list)
    for rec in records:
        findings = rec["motion"]
        if findings is None:
            if "O" in rec["variants"]:
                motion["check-motion failed"] += 1
            continue
        deriv = [f for f in findings if f["derivative"]]
        other = [f for f in findings if not f["derivative"]]
        compared = rec["variants"]["O0"]["status"].get("ok", 0) and \
            rec["variants"]["O"]["status"].get("ok", 0)
        entry = {"label": rec["label"], "passes": rec["passes"], "findings": deriv or other,
                 "witnesses": rec["witnesses"][:3], "loose": rec["loose"][:3],
                 "spv": rec["variants"]["O"]["spv"], "configs": rec["configs"],
                 "config_args": rec.get("config_args")}
        if deriv:
            cls = "illegal (derivative)"
        elif other:
            cls = "illegal (other rules only)"
        else:
            cls = "legal"
        motion[(cls, "pairs")] += 1
        motion[(cls, "findings")] += len(findings)
        if not compared:
            motion[(cls, "not run")] += 1
        elif rec["witnesses"]:
            motion[(cls, "witness")] += 1
            motion_lists[cls + " witness"].append(entry)
        elif rec["loose"]:
            motion[(cls, "differ only where M0 undefined")] += 1
            motion_lists[cls + " loose"].append(entry)
        else:
            motion[(cls, "no difference")] += 1
            motion_lists[cls + " none"].append(entry)
    return rows, unconfirmed, misses, not_checkable, motion, motion_lists, runs


def reproducer(tools, spv, args):
    return "spirv-conv run %s --stats text %s" % (spv, " ".join(args))


def report(records, elapsed, args, markdown):
    rows, unconfirmed, misses, not_checkable, motion, motion_lists, runs = analyse(records)
    out = []
    per_corpus = collections.Counter(corpus_of(r["label"]) for r in records)
    ran = collections.Counter(corpus_of(r["label"]) for r in records if r["variants"])
    out.append("Shaders: %s; modules run: O0 %d, O %d; simulator runs: %s; %.0f s." % (
        ", ".join("%s %d (%d compiled)" % (c, per_corpus[c], ran[c]) for c in per_corpus),
        sum(1 for r in records if "O0" in r["variants"]),
        sum(1 for r in records if "O" in r["variants"]),
        ", ".join("%s %d" % kv for kv in sorted(runs.items())), elapsed))
    out.append("")
    out.append("### Lint findings against execution")
    out.append("")
    out.append("| rule | level | instruction | variant | findings | confirmed | reached, always "
               "defined | not reached | not run | not checkable | quad-uniform, yet undefined |")
    out.append("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(rows):
        r = rows[key]
        out.append("| `%s` | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d |" % (
            key + (r["findings"], r["confirmed"], r["reached, defined"], r["not reached"],
                   r["not run"], r["not checkable"], r["quad-uniform, yet undefined"])))
    total = sum((rows[k] for k in rows), collections.Counter())
    out.append("| all | | | | %d | %d | %d | %d | %d | %d | %d |" % (
        total["findings"], total["confirmed"], total["reached, defined"], total["not reached"],
        total["not run"], total["not checkable"], total["quad-uniform, yet undefined"]))
    out.append("")
    by_corpus = collections.defaultdict(collections.Counter)
    for u in unconfirmed:
        by_corpus[corpus_of(u["label"])][u["why"]] += 1
    for rec in records:
        for data in rec["variants"].values():
            by_corpus[corpus_of(rec["label"])]["findings"] += len(data["findings"] or [])
            by_corpus[corpus_of(rec["label"])]["undefined"] += len(data["undefined"])
    out.append("Per corpus (both variants): " + "; ".join(
        "%s %d findings, %d never confirmed (%d not reached)" % (
            c, n["findings"], n["reached, always defined"] + n["not reached"], n["not reached"])
        for c, n in by_corpus.items() if n["findings"]) + ".")
    out.append("")
    undefined_total = sum(len(d["undefined"]) for r in records for d in r["variants"].values())
    out.append("Derivative instructions undefined in some run: %d; with no derivative finding "
               "(lint misses): **%d**; with a finding that calls the control flow quad-uniform: "
               "**%d**." % (undefined_total, sum(1 for m in misses if "why" not in m),
                            sum(1 for m in misses if "why" in m)))
    out.append("")
    out.append("### Lint misses (soundness)")
    out.append("")
    if not misses:
        out.append("None.")
    for m in misses:
        out.append("- `%s` [%s] `%%%d` %s in `%s` block %s, undefined in runs %s%s; reproduce: "
                   "`%s`" % (m["label"], m["variant"], m["id"], m["opcode"], m["function"],
                             m["block"], m["runs"][:6],
                             " although " + m["why"] if "why" in m else "",
                             reproducer(None, m["spv"], m["config"])))
    out.append("")
    out.append("### check-motion against execution")
    out.append("")
    out.append("| verdict | pairs | findings | witness run | differ only where M0 was undefined "
               "| no difference | not run |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for cls in ("illegal (derivative)", "illegal (other rules only)", "legal"):
        out.append("| %s | %d | %d | %d | %d | %d | %d |" % (
            cls, motion[(cls, "pairs")], motion[(cls, "findings")], motion[(cls, "witness")],
            motion[(cls, "differ only where M0 undefined")], motion[(cls, "no difference")],
            motion[(cls, "not run")]))
    if motion["check-motion failed"]:
        out.append("")
        out.append("check-motion failed on %d pairs." % motion["check-motion failed"])
    out.append("")
    for cls in ("illegal (derivative)",):
        for what in ("witness", "loose", "none"):
            for e in motion_lists["%s %s" % (cls, what)]:
                out.append("- %s `%s` (%s): %s; %s" % (
                    {"witness": "confirmed", "loose": "differs only where M0 undefined",
                     "none": "not confirmed"}[what], e["label"], " ".join(e["passes"]),
                    "; ".join("%s at `%s`" % (f["rule"], f["instruction"]) for f in
                              e["findings"][:3]),
                    "; ".join("run %d (%s): %s" % (k, e["configs"][k], why)
                              for k, why in (e["witnesses"] or e["loose"])[:2]) or "-"))
    out.append("")
    out.append("### Legal motions whose outputs differ (soundness)")
    out.append("")
    legal = motion_lists["legal witness"] + motion_lists["illegal (other rules only) witness"]
    if not legal:
        out.append("None.")
    for e in legal:
        k, why = e["witnesses"][0]
        out.append("- `%s` (%s): run %d (%s): %s; reproduce: `%s` vs the .O0.spv" % (
            e["label"], " ".join(e["passes"]), k, e["configs"][k], why,
            reproducer(None, e["spv"], e["config_args"][k])))
    out.append("")
    out.append("### Findings never confirmed (precision)")
    out.append("")
    by_why = collections.Counter((u["rule"], u["severity"], u["why"]) for u in unconfirmed)
    for key, n in sorted(by_why.items()):
        out.append("- `%s` %s, %s: %d" % (key + (n,)))
    out.append("")
    for u in unconfirmed:
        out.append("  - `%s` [%s] line %s `%s` (%s, %s)" % (
            u["label"], u["variant"], u["line"], u["instruction"], u["rule"], u["why"]))
    if not_checkable:
        out.append("")
        out.append("Not checkable (quad operations, or no instruction matched): %d" %
                   len(not_checkable))
        for u in not_checkable:
            out.append("  - `%s` [%s] line %s `%s`" % (u["label"], u["variant"], u["line"],
                                                       u["instruction"]))
    problems = [(r["label"], p) for r in records for p in r["problems"]]
    messages = collections.Counter()
    for r in records:
        for d in r["variants"].values():
            for m in d["messages"]:
                m = re.sub(r"^spirv-conv: error: (\S+\.spv: )?", "", m)
                m = re.sub(r"\d+", "N", re.sub(r"%\w+", "%id", m))
                messages[m[:90]] += 1
    out.append("")
    out.append("### Not compiled, not linted, or runs that did not finish")
    out.append("")
    for reason, n in collections.Counter(p.split(":")[0] for _, p in problems).most_common():
        out.append("- %s: %d" % (reason, n))
    for m, n in messages.most_common(12):
        out.append("- run: %s (%d modules)" % (m, n))
    never = sum(1 for r in records for d in r["variants"].values() if not d["status"].get("ok"))
    unrun = sum(1 for r in records for d in r["variants"].values() if not d["status"].get("ok")
                for op in d["checked"].values() if op[2] in DERIVATIVE_OPS.values())
    out.append("- modules with no finished run: %d (holding %d derivative instructions, "
               "unchecked for misses)" % (never, unrun))
    harness = [(label, p) for label, p in problems if p.startswith("harness error")]
    for label, p in harness:
        out.append("- %s: %s" % (label, p))
    text = "\n".join(out)
    if not markdown:
        text = text.replace("`", "")
    print(text)
    return len(misses) + len(legal) + len(harness)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--spirv-cross-corpus",
                        default=os.path.join(REPO, "third_party", "spirv-cross"),
                        help="the SPIRV-Cross package ('' to leave it out)")
    parser.add_argument("--gen-seeds", type=int, default=200,
                        help="glsl_gen.py seeds 1..N (the fragment shaders among them)")
    parser.add_argument("--runs", type=int, default=14, help="simulator runs per shader")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-files", type=int, help="every (found/N)-th shader only")
    parser.add_argument("--only", action="append",
                        help="only the shaders whose label contains this (repeatable)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", help="write every record here")
    parser.add_argument("--cache-dir", help="compile cache (spirv-cross corpus)")
    parser.add_argument("--from-json", help="report on the records of an earlier --json")
    ct.add_tool_arguments(parser)
    args = parser.parse_args(argv)
    tools, missing = ct.find_tools(args)
    if missing:
        print("fragment-agreement: error: missing %s" % ", ".join(missing), file=sys.stderr)
        return 2
    if args.from_json:
        with open(args.from_json) as f:
            records = json.load(f)
        return 1 if report(records, 0.0, args, args.markdown) else 0
    args.work_dir = os.path.abspath(args.work_dir)
    tools.module_dir = os.path.join(args.work_dir, "modules")
    tools.config_dir = os.path.join(args.work_dir, "configs")
    os.makedirs(tools.module_dir, exist_ok=True)
    tools.cache_dir = os.path.abspath(args.cache_dir) if args.cache_dir else None
    if tools.cache_dir:
        os.makedirs(tools.cache_dir, exist_ok=True)
    tools.versions = {tools.glslang: sxc.tool_version(tools.glslang),
                      tools.spirv_as: sxc.tool_version(tools.spirv_as)}
    tools.cross = os.path.abspath(args.spirv_cross_corpus) if args.spirv_cross_corpus else None
    start = time.time()
    shaders = collect_shaders(args, tools)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        records = list(pool.map(lambda s: guarded(tools, s, args), shaders))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1, sort_keys=True, default=list)
    bad = report(records, time.time() - start, args, args.markdown)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
