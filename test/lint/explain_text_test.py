#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Whole explanation texts of `spirv-conv lint`, written next to the shader.

  python3 test/lint/explain_text_test.py --spirv-conv PATH --shaders DIR
                                         [--glslang P] [--spirv-opt P] [--work-dir DIR]

Every shader of DIR ends with one or more blocks, each giving a build of the
shader, the lint command's exit code and its whole standard output, one `// `
line per output line:

  // EXPECT-OUTPUT: spirv-conv lint -g, exit 1
  // name.comp:18: error: ... [barrier-divergent-cf]
  // ...
  // EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 1
  // ...

Without "after spirv-opt -O" the lint compiles the GLSL itself (glslang at
-O0); with it, glslangValidator -V -g --target-env vulkan1.2 compiles it and
spirv-opt -O optimises the module, which the lint then reads. Either way the
tools run in DIR on the file's name, so the text names it as written, and
stdout must equal the block line for line. The blocks follow the code, so
they move no line the findings cite. Exit 0 when every block matches, 1
otherwise (a unified diff per mismatch), 2 on a usage error, a tool error or
a shader without a block.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADER = re.compile(r"^// EXPECT-OUTPUT: spirv-conv lint(?P<args>( -\S+)*)"
                    r"(?P<optimized>, after spirv-opt -O)?, exit (?P<exit>\d+)$")
STAGES = (".frag", ".comp", ".vert", ".geom", ".tesc", ".tese")


class Block:
    def __init__(self, args, optimized, exit_code):
        self.args, self.optimized, self.exit_code, self.output = args, optimized, exit_code, []

    def title(self):
        return "after spirv-opt -O" if self.optimized else "GLSL"


def expectations(path):
    """The blocks of |path|, in order (empty when it has none)."""
    blocks = []
    with open(path) as f:
        for line in f.read().splitlines():
            match = HEADER.match(line)
            if match:
                blocks.append(Block(match.group("args").split(), bool(match.group("optimized")),
                                    int(match.group("exit"))))
            elif blocks:
                blocks[-1].output.append(line[3:] if line.startswith("// ") else line[2:])
    return blocks


def run(command, cwd):
    return subprocess.run(command, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, check=False)


def optimized_module(name, shaders, work_dir, tools):
    """|name| compiled with -g and optimised with spirv-opt -O, or an error text."""
    O0 = os.path.join(work_dir, name + ".O0.spv")
    O = os.path.join(work_dir, name + ".O.spv")
    for command in ([tools.glslang, "-V", "-g", "--target-env", "vulkan1.2", name, "-o", O0],
                    [tools.spirv_opt, "-O", "--target-env=vulkan1.2", O0, "-o", O]):
        proc = run(command, shaders)
        if proc.returncode != 0:
            return None, "%s: %s%s" % (" ".join(command), proc.stdout, proc.stderr)
    return O, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--shaders", required=True)
    parser.add_argument("--glslang", help="glslangValidator (default: from PATH)")
    parser.add_argument("--spirv-opt", help="spirv-opt (default: from PATH)")
    parser.add_argument("--spirv-val", help="accepted for the CTest tool list; unused")
    parser.add_argument("--work-dir", help="where the optimised modules go (default: a temporary "
                        "directory)")
    args = parser.parse_args()
    spirv_conv = os.path.abspath(args.spirv_conv)
    tools = argparse.Namespace(glslang=args.glslang or shutil.which("glslangValidator"),
                               spirv_opt=args.spirv_opt or shutil.which("spirv-opt"))
    shaders = sorted(n for n in os.listdir(args.shaders) if n.endswith(STAGES))
    if not shaders:
        print("explain-text: no shader in %s" % args.shaders)
        return 2
    work_dir = os.path.abspath(args.work_dir) if args.work_dir else tempfile.mkdtemp()
    os.makedirs(work_dir, exist_ok=True)
    checked = failed = 0
    for name in shaders:
        blocks = expectations(os.path.join(args.shaders, name))
        if not blocks:
            print("explain-text: %s has no '// EXPECT-OUTPUT: spirv-conv lint ..., exit N' block"
                  % name)
            return 2
        for block in blocks:
            checked += 1
            target = name
            if block.optimized:
                if not tools.glslang or not tools.spirv_opt:
                    print("explain-text: %s needs glslangValidator and spirv-opt" % name)
                    return 2
                target, error = optimized_module(name, args.shaders, work_dir, tools)
                if error:
                    print("explain-text: %s" % error)
                    return 2
            proc = run([spirv_conv, "lint"] + block.args + [target], args.shaders)
            actual = proc.stdout.splitlines()
            if proc.returncode == block.exit_code and actual == block.output:
                print("ok      %s (%s)" % (name, block.title()))
                continue
            failed += 1
            print("FAILED  %s (%s): exit %d (expected %d)%s"
                  % (name, block.title(), proc.returncode, block.exit_code,
                     proc.stderr and "\n" + proc.stderr))
            sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                block.output, actual, "expected", "spirv-conv lint", lineterm=""))
    print("%d passed, %d failed" % (checked - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
