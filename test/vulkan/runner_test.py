#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Tests of vk_runner itself: the job format and exit codes of test/vulkan/README.md.

  python3 test/vulkan/runner_test.py --runner PATH --glslang PATH --work-dir DIR
      [--shaders DIR] [--spirv-as PATH] [--device NAME]

Bad jobs and usage exit 2 without a Vulkan call; no Vulkan driver (simulated
by pointing the loader at a driver file that does not exist) exits 77 with
a SKIP line; on the real device: buffer data of each kind, push constants,
set gaps and the subgroup size reach the shader (shaders/vulkan/
runner_buffers.comp), every mip level holds its colour and explicit texels
arrive row by row (runner_images.comp), the framebuffer's pixel (x, y) is the
fragment at (x + 0.5, y + 0.5), once each (runner_fragcoord.frag), and jobs
the device refuses (a missing feature, unstructured control flow assembled
from unstructured_branch.spvasm with spirv-as) exit 1 naming the call.
Exit codes: 0 passed, 1 failed, 77 no Vulkan device.
"""

import argparse
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reconvergence"))
import vk_job  # noqa: E402  (test/vulkan/vk_job.py)
from sim_tools import bits_f32, f32_bits  # noqa: E402
from fragment_sim_test import vertex_shader  # noqa: E402
from vk_job import buffer_binding, u32, zeros  # noqa: E402


INPUT_PLANES = [{"location": 0, "plane": [[0, 1, 0], [0, 0, 1]]},
                {"location": 1, "plane": [[7, 0, 0], [9, 0, 0]]}]
INPUTS = [(0, "float", 2, False), (1, "int", 2, True)]  # runner_inputs.frag's


def inputs_job(tools, inputs_spv, width, height, vertex_inputs=INPUTS, name="inputs"):
    """A render job of runner_inputs.frag with a generated vertex shader writing
    |vertex_inputs| (fragment_sim_test.vertex_shader)."""
    vert = tools.path(name + ".vert")
    with open(vert, "w") as f:
        f.write(vertex_shader(vertex_inputs, INPUT_PLANES, width, height))
    vertex_spv = tools.compile(vert, name + ".vert.spv")
    return {"mode": "render", "spv": inputs_spv, "width": width, "height": height,
            "vertex_spv": vertex_spv, "inputs": INPUT_PLANES}


def check_bad_jobs(tools, checks, buffers_spv, images_spv, inputs_spv=None, fragcoord_spv=None):
    """Each malformed job, and each job that does not fit its shader, exits 2 with a
    'bad job' line naming the problem."""
    good = buffers_job(buffers_spv)

    def variant(**changes):
        job = dict(good)
        job.update(changes)
        return job

    def rebind(index, binding):
        bindings = list(good["bindings"])
        if binding is None:
            del bindings[index]
        else:
            bindings[index] = binding
        return variant(bindings=bindings)

    # Render jobs for the "inputs"/"vertex_spv" checks: runner_fragcoord.frag (no
    # inputs) with the built-in / a generated vertex shader, runner_inputs.frag.
    render = {"mode": "render", "spv": fragcoord_spv, "width": 4, "height": 4,
              "features": ["fragmentStoresAndAtomics"], "push_constants": {"f32": [0.5]},
              "bindings": [buffer_binding(0, 0, "storage_buffer", [zeros(4)])]}
    inputs_base = inputs_job(tools, inputs_spv, 4, 4)
    render_vs = dict(render, vertex_spv=inputs_base["vertex_spv"])
    inputs_short = inputs_job(tools, inputs_spv, 4, 4, INPUTS[:1], name="inputs_short")
    not_spirv = tools.path("not_spirv.spv")
    with open(not_spirv, "wb") as f:
        f.write(b"#version 450\nvoid main() {}\n")
    image = {"width": 4, "height": 4, "levels": [{"color": [1, 0, 0, 1]}]}
    cases = [
        ("not JSON", "{\"mode\": ", "not valid JSON"),
        ("unknown key", variant(group=[1, 1, 1]), "unknown key \"group\""),
        ("missing mode", {"spv": buffers_spv}, "job.mode"),
        ("bad mode", variant(mode="graphics"), "not one of compute, render"),
        ("missing spv file", variant(spv="does-not-exist.spv"), "cannot read SPIR-V module"),
        ("not SPIR-V", variant(spv=not_spirv), "is not a SPIR-V binary"),
        ("groups not a triple", variant(groups=[1, 1]), "expected [x, y, z]"),
        ("zero groups", variant(groups=[0, 1, 1]), "must be in [1, 65535]"),
        ("render key in compute", variant(width=4), "not used in compute mode"),
        ("render without size", variant(mode="render", groups=None), "missing \"width\""),
        ("unknown feature", variant(features=["warpDrive"]), "unknown feature \"warpDrive\""),
        ("count mismatch", variant(bindings=[{"set": 0, "binding": 0, "type": "storage_buffer",
                                              "count": 2, "elements": [zeros(16)]}]),
         "\"count\" is 2"),
        ("bad type", variant(bindings=[{"set": 0, "binding": 0, "type": "texel_buffer",
                                        "elements": [zeros(16)]}]), "not one of"),
        ("duplicate binding", variant(bindings=good["bindings"] * 2), "is given twice"),
        ("two data kinds", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [{"u32": [1], "f32": [1.0]}])]), "only one of"),
        ("size below data", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [u32([1, 2, 3], size=8)])]), "smaller than the data"),
        ("negative u32", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [u32([-1])])]), "non-negative"),
        ("float as u32", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [{"u32": [1.5]}])]), "expected an integer"),
        ("i32 out of range", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [{"i32": [2 ** 31]}])]), "32-bit signed"),
        ("empty buffer", variant(bindings=[buffer_binding(
            0, 0, "storage_buffer", [{}])]), "needs data or a \"size\""),
        ("too many levels", variant(bindings=[buffer_binding(
            0, 0, "sampled_image", [dict(image, levels=[{"color": [0, 0, 0, 1]}] * 4)])]),
         "1 to 3 mip levels"),
        ("texel count", variant(bindings=[buffer_binding(
            0, 0, "sampled_image", [dict(image, levels=[{"texels": [0] * 15}])])]),
         "expected 64 values, got 15"),
        ("colour out of range", variant(bindings=[buffer_binding(
            0, 0, "sampled_image", [dict(image, levels=[{"color": [2, 0, 0, 1]}])])]),
         "must be in [0, 1]"),
        ("sampler on sampled image", variant(bindings=[buffer_binding(
            0, 0, "sampled_image", [dict(image, sampler={})])]), "unknown key \"sampler\""),
        ("bad filter", variant(bindings=[buffer_binding(
            0, 0, "sampler", [{"sampler": {"filter": "cubic"}}])]), "not one of nearest, linear"),
        ("push constants too big", variant(push_constants={"size": 256}), "at most 128 bytes"),
        # The job against the shader's interface (the driver would crash or misbehave).
        ("unknown entry point", variant(entry="no_such_entry"),
         "no GLCompute entry point 'no_such_entry'"),
        ("wrong stage", variant(mode="render", width=4, height=4, groups=None), "Fragment"),
        ("missing binding", rebind(4, None), "set 2 binding 0 (storage_buffer) is not bound"),
        ("wrong descriptor type", rebind(2, buffer_binding(0, 2, "uniform_buffer",
                                                           [{"f32": FLOATS}])),
         "is a storage_buffer, the job binds a uniform_buffer"),
        ("array too short", rebind(3, buffer_binding(0, 3, "uniform_buffer", [u32([1] * 4)])),
         "is an array of 2, the job binds 1"),
        ("block too small", rebind(3, buffer_binding(0, 3, "uniform_buffer",
                                                     [u32([1] * 3), u32([1] * 4)])),
         "the block needs 16 bytes, the job gives 12"),
        ("push constants too small", variant(push_constants={"u32": [5]}),
         "push constants need 8 bytes, the job gives 4"),
        ("no push constants", variant(push_constants=None), "need 8 bytes, the job gives 0"),
        # "inputs" and "vertex_spv" (render only).
        ("inputs in compute", variant(inputs=INPUT_PLANES), "job.inputs: not used in compute mode"),
        ("vertex_spv in compute", variant(vertex_spv="v.spv"),
         "job.vertex_spv: not used in compute mode"),
        ("inputs without vertex_spv", dict(render, inputs=INPUT_PLANES),
         "job.inputs: needs \"vertex_spv\""),
        ("inputs not a list", dict(render_vs, inputs={"location": 0}), "job.inputs: expected an array"),
        ("input location range", dict(render_vs, inputs=[{"location": 32, "plane": [[0, 0, 0]]}]),
         "job.inputs[0].location: must be in [0, 31]"),
        ("input location twice", dict(render_vs, inputs=[INPUT_PLANES[0], INPUT_PLANES[0]]),
         "location 0 is given twice"),
        ("input unknown key", dict(render_vs, inputs=[{"location": 0, "planes": []}]),
         "unknown key \"planes\""),
        ("input without plane", dict(render_vs, inputs=[{"location": 0}]), "missing \"plane\""),
        ("plane of 5 components", dict(render_vs, inputs=[{"location": 0, "plane": [[0, 0, 0]] * 5}]),
         "expected 1 to 4 components"),
        ("plane not [a, b, c]", dict(render_vs, inputs=[{"location": 0, "plane": [[0, 1]]}]),
         "job.inputs[0].plane[0]: expected [a, b, c]"),
        ("plane not a number", dict(render_vs, inputs=[{"location": 0, "plane": [[0, "x", 0]]}]),
         "job.inputs[0].plane[0][1]: expected a number"),
        ("vertex_spv missing", dict(render, vertex_spv="does-not-exist.spv"),
         "cannot read SPIR-V module"),
        ("vertex_spv not a vertex shader", dict(render, vertex_spv=fragcoord_spv),
         "has no Vertex entry point 'main'"),
        ("input the shader lacks", dict(render_vs, inputs=INPUT_PLANES[:1]),
         "job.inputs: location 0: the fragment shader has no input there"),
        ("plane components", dict(inputs_base, inputs=[INPUT_PLANES[0], {
            "location": 1, "plane": [[7, 0, 0]] * 3}]),
         "location 1: the input has 2 components, the plane 3"),
        ("output the vertex shader lacks", dict(inputs_short, inputs=INPUT_PLANES[:1]),
         "the vertex shader writes no output at location 1"),
        ("storage image format", {"mode": "compute", "spv": images_spv, "bindings": [
            buffer_binding(0, 0, "combined_image_sampler", [image]),
            buffer_binding(0, 1, "sampled_image", [image]),
            buffer_binding(0, 2, "sampler", [{}]),
            buffer_binding(0, 3, "storage_image", [{"width": 2, "height": 2, "format": "r32f",
                                                    "levels": [{"color": [0]}]}]),
            buffer_binding(0, 4, "storage_buffer", [zeros(88)])]},
         "the job's image format differs from the shader's"),
    ]
    for name, job, message in cases:
        path = tools.path("bad.%s.json" % name.replace(" ", "_"))
        if isinstance(job, dict):  # None removes a key
            job = json.dumps({key: value for key, value in job.items() if value is not None})
        with open(path, "w") as f:
            f.write(job)
        code, _, stderr = tools.run_tool([tools.runner, path])
        checks.expect(code == 2 and "vk_runner: bad job" in stderr and message in stderr,
                      "bad job (%s): exit 2 naming it" % name,
                      "exit %s, expected '%s' in: %s" % (code, message, stderr.strip()))

    for name, args in (("no arguments", []), ("unknown option", ["--frobnicate", "x.json"]),
                       ("-o without a file", ["x.json", "-o"])):
        code, _, stderr = tools.run_tool([tools.runner] + args)
        checks.expect(code == 2 and "usage:" in stderr, "usage error (%s): exit 2" % name,
                      "exit %s: %s" % (code, stderr.strip()))


def check_no_device(tools, checks, job_path):
    """No driver: exit 77 and one loud SKIP line."""
    env = dict(tools.env)
    missing = tools.path("no-such-driver.json")
    env["VK_ICD_FILENAMES"] = env["VK_DRIVER_FILES"] = missing
    saved, tools.env = tools.env, env
    try:
        code, _, stderr = tools.run_tool([tools.runner, job_path])
    finally:
        tools.env = saved
    checks.expect(code == vk_job.EXIT_SKIP and "vk_runner: SKIP: no Vulkan device" in stderr,
                  "no Vulkan driver: exit 77 with a SKIP line", "exit %s: %s" % (code, stderr))
    code, _, stderr = tools.run_tool([tools.runner, job_path, "--device", "no-such-gpu-name"])
    # Without any driver the message is about that instead.
    checks.expect(code == vk_job.EXIT_SKIP and ("no-such-gpu-name" in stderr
                                                or "vkCreateInstance" in stderr),
                  "no device matching --device: exit 77", "exit %s: %s" % (code, stderr))


WORDS = [10, 20, 30, 40, 50, 60, 70, 80]
INTS = [-1, -2, -3, -4, 5, 6, 7, 8]
FLOATS = [0.5, 1.5, -2.25, 3.0, 1e-3, 100.0, -0.0, 7.75]


def buffers_job(spv):
    """The job of runner_buffers.comp; also the well-formed base of the bad jobs."""
    return {"mode": "compute", "spv": spv, "groups": [2, 1, 1],
            "push_constants": {"u32": [5, f32_bits(2.0)]},
            "bindings": [buffer_binding(0, 0, "storage_buffer", [u32(WORDS)]),
                         buffer_binding(0, 1, "storage_buffer", [{"i32": INTS}]),
                         buffer_binding(0, 2, "storage_buffer", [{"f32": FLOATS}]),
                         buffer_binding(0, 3, "uniform_buffer", [u32([1, 2, 3, 4]),
                                                                 u32([100, 200, 300, 400])]),
                         # Output buffers: initial words beyond what the shader writes
                         # must come back untouched, the zero padding too.
                         buffer_binding(2, 0, "storage_buffer",
                                        [u32([7] * 17, size=80), zeros(72)])]}


def check_buffers(tools, checks, spv):
    words, ints, floats = WORDS, INTS, FLOATS
    run = tools.run_ok(buffers_job(spv), "buffers")
    out0, out1 = run.buffer(2, 0, 0), run.buffer(2, 0, 1)
    checks.expect(out0[:8] == [w + 5 for w in words], "u32 data and a u32 push constant",
                  str(out0[:8]))
    # Doubling is exact in binary floating point: the float32 of each value, doubled.
    checks.expect([bits_f32(w) for w in out0[8:16]] == [bits_f32(f32_bits(f)) * 2.0
                                                        for f in floats],
                  "f32 data and an f32 push constant", str(out0[8:16]))
    checks.expect(out0[16:] == [7, 0, 0, 0], "initial data beyond the writes, then zero padding",
                  str(out0[16:]))
    checks.expect(out1[:8] == [i + 100 for i in ints], "i32 data", str(out1[:8]))
    checks.expect(out1[8:16] == [101, 202, 303, 404] * 2, "uniform buffer array elements",
                  str(out1[8:16]))
    device = run.device
    checks.expect(out1[16] == device["subgroup_size"] and device["subgroup_size"] > 0,
                  "gl_SubgroupSize equals the reported subgroup size %s" % device["subgroup_size"],
                  str(out1[16]))
    checks.note("device: %s, Vulkan %s, %s; subgroup size %d in %s; operations %s"
                % (device["name"], device["api_version"], device["driver"],
                   device["subgroup_size"], "/".join(device["subgroup_stages"]),
                   "/".join(device["subgroup_operations"])))
    return run


def check_images(tools, checks, spv):
    colors = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0]]
    texels = [0.5, -1.0, 2.0, 3.25, 4.0, -5.5]
    job = {"mode": "compute", "spv": spv,
           "bindings": [
               buffer_binding(0, 0, "combined_image_sampler", [{
                   "width": 8, "height": 8, "levels": [{"color": c} for c in colors],
                   "sampler": {"filter": "linear", "mipmap": "nearest", "address": "clamp"}}]),
               buffer_binding(0, 1, "sampled_image", [{
                   "width": 3, "height": 2, "format": "r32f", "levels": [{"texels": texels}]}]),
               buffer_binding(0, 2, "sampler", [{}]),
               buffer_binding(0, 3, "storage_image", [{
                   "width": 2, "height": 2, "levels": [{"color": [0, 0, 0, 0]}]}]),
               buffer_binding(0, 4, "storage_buffer", [zeros(88)])]}
    run = tools.run_ok(job, "images")
    out = [bits_f32(w) for w in run.buffer(0, 4)]
    levels = [out[4 * level:4 * level + 4] for level in range(4)]
    checks.expect(levels == [[float(c) for c in color] for color in colors],
                  "each mip level holds its own colour", str(levels))
    checks.expect(out[16:22] == texels, "R32F texels row by row, top row first", str(out[16:22]))
    stored = run.result["images"][0]
    checks.expect(stored["u8"] == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                   51, 102, 153, 204],
                  "storage image read back row by row", str(stored["u8"]))


def check_render(tools, checks, spv):
    width, height = 13, 7  # odd sizes: partly covered quads at the edges
    ppm = tools.path("fragcoord.ppm")
    job = {"mode": "render", "spv": spv, "width": width, "height": height,
           "features": ["fragmentStoresAndAtomics"], "framebuffer_file": ppm,
           "push_constants": {"f32": [0.5]},
           "bindings": [buffer_binding(0, 0, "storage_buffer", [zeros(4)])]}
    run = tools.run_ok(job, "render")
    expected = []
    for y in range(height):
        for x in range(width):
            expected += [x, y, 128, 255]
    checks.expect(run.pixels == expected, "framebuffer pixel (x, y) is gl_FragCoord (x+.5, y+.5), "
                  "row 0 at the top; push constant in the fragment stage")
    checks.expect(run.buffer(0, 0) == [width * height], "one fragment per pixel",
                  str(run.buffer(0, 0)))
    with open(ppm, "rb") as f:
        data = f.read()
    header = b"P6\n%d %d\n255\n" % (width, height)
    rgb = bytes(v for i, v in enumerate(expected) if i % 4 != 3)
    checks.expect(data == header + rgb, "the framebuffer file (.ppm, RGB)")


def check_inputs(tools, checks, spv):
    """"vertex_spv" draws the triangle and writes the planes of "inputs"."""
    width, height = 13, 7
    run = tools.run_ok(inputs_job(tools, spv, width, height), "inputs")
    expected = []
    for y in range(height):
        for x in range(width):
            expected += [x, y, 7, 9]
    checks.expect(run.pixels == expected, "vertex_spv and inputs: the plane [[0,1,0],[0,0,1]] is "
                  "gl_FragCoord.xy at every pixel, a flat ivec2 plane arrives as its constant")


def check_vulkan_errors(tools, checks, buffers_spv, spirv_as, device):
    """Well-formed jobs the device refuses: exit 1 naming the failing call. Only on
    lavapipe, whose answers are known."""
    if "llvmpipe" not in device["name"]:
        checks.note("Vulkan error exits checked on lavapipe only (device: %s)" % device["name"])
        return
    job = buffers_job(buffers_spv)
    job["features"] = ["shaderSampledImageArrayNonUniformIndexing"]
    run = tools.run(job, "unsupported_feature")
    checks.expect(run.code == 1 and "shaderSampledImageArrayNonUniformIndexing is not supported"
                  in run.stderr, "a feature the device lacks: exit 1",
                  "exit %s: %s" % (run.code, run.stderr.strip()))
    if not spirv_as:
        checks.note("spirv-as not found: the pipeline-creation failure is not checked")
        return
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "unstructured_branch.spvasm")
    spv = tools.path("unstructured_branch.spv")
    code, _, stderr = tools.run_tool([spirv_as, "--target-env", "vulkan1.1", source, "-o", spv])
    if code != 0:
        raise vk_job.ToolError("spirv-as %s failed: %s" % (source, stderr))
    run = tools.run({"mode": "compute", "spv": spv}, "unstructured_branch")
    checks.expect(run.code == 1 and "vkCreateComputePipelines failed: VK_ERROR_" in run.stderr,
                  "pipeline creation failure (unstructured control flow): exit 1 naming the call",
                  "exit %s: %s" % (run.code, run.stderr.strip()))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", required=True, help="the vk_runner binary")
    parser.add_argument("--glslang", required=True, help="glslangValidator")
    parser.add_argument("--work-dir", required=True, help="folder for modules, jobs, results")
    parser.add_argument("--shaders", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shaders", "vulkan"),
        help="the test shaders (default: shaders/vulkan of this repository)")
    parser.add_argument("--spirv-as", default=shutil.which("spirv-as"),
                        help="spirv-as, for the pipeline-creation failure (default: from PATH)")
    parser.add_argument("--device", default="",
                        help="run on the first device whose name contains this (default: "
                             "lavapipe (llvmpipe) when present, else the first device)")
    args = parser.parse_args(argv)

    checks = vk_job.Checks("runner")

    def body():
        started = time.monotonic()
        tools = vk_job.Tools(args.runner, args.glslang, args.work_dir, device=args.device,
                             prefer="llvmpipe")

        def compile_shader(name):
            return tools.compile(os.path.join(args.shaders, name), name + ".spv")

        buffers_spv = compile_shader("runner_buffers.comp")
        images_spv = compile_shader("runner_images.comp")
        inputs_spv = compile_shader("runner_inputs.frag")
        fragcoord_spv = compile_shader("runner_fragcoord.frag")
        check_bad_jobs(tools, checks, buffers_spv, images_spv, inputs_spv, fragcoord_spv)
        job_path = tools.path("buffers_for_no_device.json")
        with open(job_path, "w") as f:
            json.dump(buffers_job(buffers_spv), f)
        check_no_device(tools, checks, job_path)
        run = check_buffers(tools, checks, buffers_spv)  # raises Skip without a device
        check_images(tools, checks, images_spv)
        check_render(tools, checks, fragcoord_spv)
        check_inputs(tools, checks, inputs_spv)
        check_vulkan_errors(tools, checks, buffers_spv, args.spirv_as, run.device)
        return checks.summary(started)

    return vk_job.main_guard(body, checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
