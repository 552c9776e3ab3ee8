#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Shrinks a generated reconvergence program on which the simulator disagrees
with the reference model, for a bug report.

  minimize.py --spirv-conv PATH --seed S --subgroup-size N --work-dir DIR
              [--glslang glslangValidator] [--model maximal]

Deletes statements of recon_gen.py's program tree one at a time (never the
`if (subgroupElect()) break;` that ends an infinite loop) and keeps every
deletion after which the simulator still disagrees with the model, until no
single deletion keeps the disagreement. Writes DIR/minimal.comp and prints
it with the expected and the simulated records of the invocations that differ.
"""

import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recon_gen as gen  # noqa: E402
import reconvergence_test as driver  # noqa: E402
import sim_tools  # noqa: E402


def statement_lists(stmts):
    """Every statement list of the tree under |stmts| (|stmts| included)."""
    yield stmts
    for s in stmts:
        if isinstance(s, gen.If):
            yield from statement_lists(s.then)
            yield from statement_lists(s.orelse)
        elif isinstance(s, gen.Loop):
            yield from statement_lists(s.body)
        elif isinstance(s, gen.Switch):
            for _, body in s.cases:
                yield from statement_lists(body)


def all_lists(program):
    lists = list(statement_lists(program.main))
    for body in program.functions.values():
        lists += list(statement_lists(body))
    return lists


def protected(stmts, index):
    """The elect-break at the top of an infinite loop's body must stay."""
    s = stmts[index]
    return (isinstance(s, gen.If) and s.kind == "elect" and s.then
            and isinstance(s.then[-1], gen.Break) and index == 0)


class Oracle:
    """Compiles and runs a program; says whether the simulator still disagrees."""

    def __init__(self, args):
        self.args = args
        self.simulator = sim_tools.Simulator(args.spirv_conv, args.model)
        self.trials = 0

    def run(self, program):
        """(differences or None when it does not compile, simulated result)."""
        self.trials += 1
        base = os.path.join(self.args.work_dir, "trial")
        with open(base + ".comp", "w") as f:
            f.write(gen.to_glsl(program))
        try:
            spv = sim_tools.compile_glsl(self.args.glslang, base + ".comp", base + ".spv")
            records = gen.model_records(program, self.args.subgroup_size)
        except (sim_tools.ToolFailure, gen.ModelError):
            return None, None
        stride = gen.stride_for(records)
        expected_b, expected_c = gen.expected_buffers(records, stride)
        job = driver.make_job(spv, stride)
        try:
            result = self.simulator.run(spv, job, base + ".json", self.args.subgroup_size)
        except sim_tools.ToolFailure as e:
            return [str(e)], None
        return driver.compare(expected_b, expected_c, result, stride), result

    def fails(self, program):
        diffs, _ = self.run(program)
        return bool(diffs)


def shrink(program, oracle):
    """Deletes statements while the disagreement stays; returns the program."""
    changed = True
    while changed:
        changed = False
        for stmts in all_lists(program):
            i = len(stmts) - 1
            while i >= 0:
                if i < len(stmts) and not protected(stmts, i):
                    removed = stmts.pop(i)
                    if oracle.fails(program):
                        changed = True
                    else:
                        stmts.insert(i, removed)
                i -= 1
    return program


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--subgroup-size", type=int, default=8)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--model", default="maximal")
    args = parser.parse_args()
    args.glslang = shutil.which(args.glslang) or args.glslang
    os.makedirs(args.work_dir, exist_ok=True)
    oracle = Oracle(args)
    program = gen.generate(args.seed)
    if not oracle.fails(program):
        print("seed %d: the simulator agrees with the model at subgroup size %d"
              % (args.seed, args.subgroup_size))
        return 1
    program = shrink(program, oracle)
    diffs, _ = oracle.run(program)
    path = os.path.join(args.work_dir, "minimal.comp")
    with open(path, "w") as f:
        f.write(gen.to_glsl(program))
    print(gen.to_glsl(program))
    print("// %s (%d trials); subgroup size %d; differences:" % (path, oracle.trials,
                                                                 args.subgroup_size))
    for line in diffs:
        print("//   " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
