#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Black-box tests of the NonUniform passes of `spirv-conv opt` (docs/passes.md).

  python3 test/cli/opt_passes_test.py --spirv-conv PATH [unittest options]

Shares cli_test.py's scaffolding and contract (exit codes 0/2/3, one error
line naming the file). Modules come from glslangValidator; validity from the
real spirv-val; decorations from the real spirv-dis.
"""

import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_test  # noqa: E402  (the shared scaffolding)

# A bindless fragment shader: the albedo index is a flat input (not uniform
# across a subgroup holding several primitives), the sky index a push
# constant (uniform). Line numbers matter to the report test.
BINDLESS = """#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[8];
layout(push_constant) uniform PC { uint sky; } pc;
void main() {
  vec4 c = texture(albedo[material], uv);
  color = c + texture(albedo[pc.sky], uv);
}
"""
ACCESS_LINE = 8  # texture(albedo[material], uv)


class OptPassesTests(cli_test.CliTestCase):
    def bindless(self, name="bindless.spv", debug=True):
        self.write("bindless.frag", BINDLESS)
        args = ["glslangValidator", "-V"] + (["-g"] if debug else []) + ["bindless.frag", "-o", name]
        self.tool(*args)
        return name

    def nonuniform_ids(self, name):
        return set(re.findall(r"OpDecorate %(\w+) NonUniform", self.spirv_dis(name, "--raw-id")))

    def test_fix_nonuniform_report_names_the_source_line(self):
        spv = self.bindless()
        result = self.conv("opt", "--fix-nonuniform", spv, "-o", "out.spv", "--report", "r.json")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.0"))
        report = json.loads(self.read("r.json"))
        self.assertEqual(len(report["modules"]), 1)
        module = report["modules"][0]
        self.assertEqual((module["input"], module["output"]), (spv, "out.spv"))
        decorated = [c for c in module["changes"] if c["action"] == "decorate"]
        # The access chain into albedo[] and the loaded sampler, both on the
        # line of the non-uniform access; the push-constant access untouched.
        self.assertEqual(sorted(c["opcode"] for c in decorated), ["OpAccessChain", "OpLoad"])
        for change in decorated:
            self.assertEqual(change["pass"], "fix-nonuniform")
            self.assertEqual(change["line"], ACCESS_LINE, change)
            self.assertTrue(change["file"].endswith("bindless.frag"), change)
        self.assertEqual(self.nonuniform_ids("out.spv"), {str(c["id"]) for c in decorated})
        # SPIR-V 1.0: the extension comes with the capabilities.
        added = {(c["action"], c["detail"]) for c in module["changes"] if c["action"] != "decorate"}
        self.assertEqual(added, {("add-capability", "ShaderNonUniform"),
                                 ("add-capability", "SampledImageArrayNonUniformIndexing"),
                                 ("add-extension", "SPV_EXT_descriptor_indexing")})

    def test_report_without_debug_info_has_null_lines(self):
        spv = self.bindless(debug=False)
        result = self.conv("opt", "--fix-nonuniform", spv, "-o", "out.spv", "--report", "-")
        self.assertEqual(result.code, 0, result)
        changes = json.loads(result.out)["modules"][0]["changes"]
        self.assertTrue(changes)
        self.assertTrue(all(c["line"] is None and c["file"] is None for c in changes))

    def test_lower_for_a_desktop_gpu_is_fix_nonuniform(self):
        spv = self.bindless()
        self.assertEqual(self.conv("opt", "--fix-nonuniform", spv, "-o", "fix.spv").code, 0)
        result = self.conv("opt", "--lower-nonuniform", "--device", "desktop", spv, "-o", "low.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.read("fix.spv"), self.read("low.spv"))

    def test_strip_undoes_nothing_needed(self):
        # fix then strip: the access is non-uniform, so strip keeps it all.
        spv = self.bindless()
        self.assertEqual(self.conv("opt", "--fix-nonuniform", spv, "-o", "fix.spv").code, 0)
        result = self.conv("opt", "--strip-nonuniform", "fix.spv", "-o", "strip.spv",
                           "--report", "r.json")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(json.loads(self.read("r.json"))["modules"][0]["changes"], [])
        self.assertEqual(self.read("fix.spv"), self.read("strip.spv"))

    def test_passes_run_ours_and_spirv_opts_in_the_given_order(self):
        # --passes "A B" is A, then B: the same bytes as two runs in that order.
        spv = self.bindless()
        dce = "--eliminate-dead-code-aggressive"
        result = self.conv("opt", "--passes", "--fix-nonuniform " + dce, spv, "-o", "one.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.conv("opt", "--fix-nonuniform", spv, "-o", "fix.spv").code, 0)
        self.assertEqual(self.conv("opt", "--passes", dce, "fix.spv", "-o", "two.spv").code, 0)
        self.assertEqual(self.read("one.spv"), self.read("two.spv"))
        self.assertTrue(self.nonuniform_ids("one.spv"))
        # The NonUniform flags run after --passes: the other order.
        result = self.conv("opt", "--fix-nonuniform", "--passes", dce, spv, "-o", "flag.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.conv("opt", "--passes", dce, spv, "-o", "dce.spv").code, 0)
        self.assertEqual(self.conv("opt", "--fix-nonuniform", "dce.spv", "-o", "dcefix.spv").code,
                         0)
        self.assertEqual(self.read("flag.spv"), self.read("dcefix.spv"))

    def test_control_flow_passes_in_order(self):
        # --structurize in --passes runs where it is named: after
        # --fix-nonuniform here, as two runs one after the other do.
        spv = self.bindless()
        result = self.conv("opt", "--passes", "--fix-nonuniform --structurize", spv, "-o",
                           "one.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.conv("opt", "--fix-nonuniform", spv, "-o", "fix.spv").code, 0)
        self.assertEqual(self.conv("opt", "--structurize", "fix.spv", "-o", "two.spv").code, 0)
        self.assertEqual(self.read("one.spv"), self.read("two.spv"))
        self.assertTrue(self.nonuniform_ids("one.spv"))
        # The --structurize flag runs first of all, the same as naming it first.
        result = self.conv("opt", "--structurize", "--passes", "--fix-nonuniform", spv, "-o",
                           "flag.spv")
        self.assertEqual(result.code, 0, result)
        result = self.conv("opt", "--passes", "--structurize --fix-nonuniform", spv, "-o",
                           "named.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.read("flag.spv"), self.read("named.spv"))

    def test_usage_errors(self):
        spv = self.bindless()
        cases = [
            (["--lower-nonuniform"], "--device"),
            (["--lower-nonuniform", "--device", "no-such-gpu.json"], "no-such-gpu.json"),
            (["--device", "desktop"], "--device is only used by --lower-nonuniform"),
            (["--fix-nonuniform", "--report", "-"], "both write to stdout"),
            (["--passes", "--uniformity-analysis"],
             "--uniformity-analysis computes nothing to run in a pipeline"),
            (["--passes", "--no-such-pass"], "--no-such-pass"),
        ]
        for options, message in cases:
            output = "-" if "--report" in options else "out.spv"
            result = self.conv("opt", *options, spv, "-o", output)
            self.assertEqual(result.code, 2, (options, str(result)))
            self.assertIn(message, result.err, options)
            self.assertFalse(self.exists("out.spv"), options)

    def test_bad_device_file_is_named(self):
        spv = self.bindless()
        self.write("gpu.json", '{"spirv-conv-device-profile": 1, "indexing": {"textures": "x"}}')
        result = self.conv("opt", "--lower-nonuniform", "--device", "gpu.json", spv, "-o", "o.spv")
        self.assertEqual(result.code, 2, result)
        self.assertEqual(result.err.count("\n"), 1, result)
        self.assertIn("gpu.json", result.err)
        self.assertIn('unknown descriptor class "textures"', result.err)


if __name__ == "__main__":
    cli_test.main()
