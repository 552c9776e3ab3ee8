#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Shrinks a GLSL input on which command_driver.py fails, for a bug report
(docs/fuzzing.md, "Reproducing a failure").

  minimize.py --spirv-conv BIN --variant O0|g|O --step STEP [--problem REGEX]
              --out MIN.comp [--work-dir DIR] [--timeout S] INPUT

STEP is the part of the driver's check that fails: `compile` (making the
variants), `analyses` (validate, uniformity, lint, cfg), `motion`
(check-motion O0 O), or a transform: `O`, `structurize`, `reconverge`,
`fix-nonuniform`, `strip-nonuniform`, `waterfall` (the pass, spirv-val on its
output and, for compute shaders, the comparison in the simulator). A
candidate still fails when that step records a failure for the variant whose
problem or stderr matches REGEX (default: any).

Deletes lines, whole brace blocks (an `if` with its `else`, a loop, a switch,
a function) and brace pairs around their body, one at a time, keeping each
deletion after which the input still compiles and still fails, until none
does. The candidate keeps the input's file name (the driver derives the
simulator's subgroup size from it).
"""

import argparse
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import command_driver as driver  # noqa: E402

STEPS = ("compile", "analyses", "motion") + tuple(driver.step_name(f) for f in driver.TRANSFORMS)


class Oracle:
    def __init__(self, args):
        self.tools = driver.Tools(args.spirv_conv, args.spirv_opt, args.spirv_val, args.timeout)
        self.variant, self.step = args.variant, args.step
        self.problem = re.compile(args.problem or "")
        self.folder = os.path.join(args.work_dir, "candidate")
        self.path = os.path.join(args.work_dir, os.path.basename(args.input))
        self.tries = 0

    def fails(self, text):
        """Whether |text| still shows the failure."""
        self.tries += 1
        shutil.rmtree(self.folder, ignore_errors=True)
        with open(self.path, "w") as f:
            f.write(text)
        check = driver.InputCheck(self.tools, self.path, self.folder)
        wanted = ("O0", "O") if self.step == "motion" else (self.variant,)
        variants = {name: (spv, info) for name, spv, info in check.variants(wanted)}
        if self.step == "motion":
            if "O" in variants:
                check.motion(variants["O0"][0], variants["O"][0])
        elif self.step != "compile" and self.variant in variants:
            spv, info = variants[self.variant]
            check.variant = self.variant
            if self.step == "analyses":
                check.analyses(spv)
            else:
                flag = next(f for f in driver.TRANSFORMS if driver.step_name(f) == self.step)
                check.transform(spv, info, flag, check.reference_run(self.variant, spv, info))
        wanted = "O0 vs O" if self.step == "motion" else self.variant
        return any((f["variant"] == wanted or self.step == "compile")
                   and self.problem.search(f["problem"] + "\n" + f["stderr"])
                   for f in check.result.failures)


def block_end(lines, i):
    """The index of the line closing the block opened at the end of line i
    (following `} else {` chains), or None."""
    depth = 0
    for j in range(i, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth == 0 and j > i:
            return j
        if depth == 0 and j == i:
            return None
    return None


def candidates(lines):
    """Smaller versions of |lines|, bigger cuts first."""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.endswith("{"):
            end = block_end(lines, i)
            if end is not None:
                yield lines[:i] + lines[end + 1:]
                # The body without the construct around it (one level; an
                # `else` part stays as a plain block).
                body = [l for l in lines[i + 1:end] if not re.match(r"\s*} else {\s*$", l)]
                yield lines[:i] + body + lines[end + 1:]
        elif stripped and "}" not in stripped and not stripped.startswith("#version"):
            yield lines[:i] + lines[i + 1:]


def minimize(text, oracle):
    lines = text.splitlines()
    progress = True
    while progress:
        progress = False
        for candidate in candidates(lines):
            if oracle.fails("\n".join(candidate) + "\n"):
                lines = candidate
                progress = True
                print("%d lines (%d tries)" % (len(lines), oracle.tries), file=sys.stderr)
                break
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("--spirv-conv", required=True)
    ap.add_argument("--spirv-opt", default=shutil.which("spirv-opt") or "spirv-opt")
    ap.add_argument("--spirv-val", default=shutil.which("spirv-val") or "spirv-val")
    ap.add_argument("--variant", choices=("O0", "g", "O"), default="O0")
    ap.add_argument("--step", choices=STEPS, required=True)
    ap.add_argument("--problem", help="regular expression the failure's problem or stderr matches")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work-dir", default=None)
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args(argv)
    args.work_dir = os.path.abspath(args.work_dir or args.out + ".work")
    os.makedirs(args.work_dir, exist_ok=True)
    with open(args.input) as f:
        text = f.read()
    oracle = Oracle(args)
    if not oracle.fails(text):
        print("minimize: %s does not fail at step %s for variant %s" % (args.input, args.step,
                                                                        args.variant),
              file=sys.stderr)
        return 1
    result = minimize(text, oracle)
    with open(args.out, "w") as f:
        f.write(result)
    sys.stdout.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
