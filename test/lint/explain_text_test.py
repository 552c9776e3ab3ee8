#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Whole explanation texts of `spirv-conv lint`, written next to the shader.

  python3 test/lint/explain_text_test.py --spirv-conv PATH --shaders DIR

Every shader of DIR ends with a block that gives the command's exit code and
its whole standard output, one `// ` line per output line:

  // EXPECT-OUTPUT: spirv-conv lint -g, exit 1
  // name.comp:18: error: ... [barrier-divergent-cf]
  // ...

The lint runs in DIR on the file's name (so the text names it as written),
and stdout must equal the block line for line. The block follows the code, so
it moves no line the findings cite. Exit 0 when every shader matches, 1
otherwise (a unified diff per mismatch), 2 on a usage error or a shader
without a block.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^// EXPECT-OUTPUT: spirv-conv lint(?P<args>( -\S+)*), exit (?P<exit>\d+)$")
STAGES = (".frag", ".comp", ".vert", ".geom", ".tesc", ".tese")


def expectation(path):
    """(lint arguments, exit code, output lines) from |path|'s block, or None."""
    with open(path) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        match = HEADER.match(line)
        if match:
            output = [l[3:] if l.startswith("// ") else l[2:] for l in lines[i + 1:]]
            return match.group("args").split(), int(match.group("exit")), output
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--shaders", required=True)
    args = parser.parse_args()
    spirv_conv = os.path.abspath(args.spirv_conv)
    shaders = sorted(n for n in os.listdir(args.shaders) if n.endswith(STAGES))
    if not shaders:
        print("explain-text: no shader in %s" % args.shaders)
        return 2
    failed = 0
    for name in shaders:
        expected = expectation(os.path.join(args.shaders, name))
        if expected is None:
            print("explain-text: %s has no '// EXPECT-OUTPUT: spirv-conv lint ..., exit N' block"
                  % name)
            return 2
        lint_args, exit_code, output = expected
        proc = subprocess.run([spirv_conv, "lint"] + lint_args + [name], cwd=args.shaders,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=120, check=False)
        actual = proc.stdout.splitlines()
        if proc.returncode == exit_code and actual == output:
            print("ok      %s" % name)
            continue
        failed += 1
        print("FAILED  %s: exit %d (expected %d)%s" % (name, proc.returncode, exit_code,
                                                      proc.stderr and "\n" + proc.stderr))
        sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
            output, actual, "expected", "spirv-conv lint", lineterm=""))
    print("%d passed, %d failed" % (len(shaders) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
