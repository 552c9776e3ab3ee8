#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""glslang's HLSL tests (Test/hlsl.*) through spirv-conv's HLSL input and every analysis command.

  python3 test/corpus/hlsl_corpus.py --spirv-conv PATH --glslang-source DIR --work-dir DIR
                                     [--jobs N] [--min-compiled N] [-v]

Each Test/hlsl.<name>.<stage> file of the glslang source tree is compiled by
`spirv-conv opt --language hlsl -E ENTRY` (the stage from the extension; the
entry point from glslang's own test table, gtests/Hlsl.FromFile.cpp, else
main). Exit 0 is "compiled" (spirv-conv validated the module), exit 2 "not
compiled" (glslang's HLSL front end rejects it: many of these files test its
error messages, or glslang's output is not valid SPIR-V, which spirv-conv
refuses); anything else fails the file.

Every compiled module then goes through `validate`, `uniformity --format
json`, `lint --format json` (0 or 1), `cfg`, `opt -O` (the guarded
optimizer, 0) and `check-motion` of that output (0 or 1); any other exit
code, a signal or a timeout fails the file.

Prints one line per failure, the counts, and `hlsl-corpus: N compiled, M not
compiled, F failed`. Exits 1 on a failure, when fewer than --min-compiled
files compiled, or when there is no Test/hlsl.* file.
"""

import argparse
import concurrent.futures
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_test import STAGE_EXTENSIONS, describe, find_tool, first_line, run  # noqa: E402

ENTRY_RE = re.compile(r'\{\s*"(hlsl\.[^"]+)"\s*,\s*"([^"]+)"')

# The commands on a compiled module and the exit codes each may end with
# (docs/cli.md): 0 ok, 1 findings.
ANALYSES = (
    ("validate", ("validate",), (0,)),
    ("uniformity", ("uniformity", "--format", "json"), (0,)),
    ("lint", ("lint", "--format", "json"), (0, 1)),
    ("cfg", ("cfg",), (0,)),
)


def entry_points(glslang_source):
    """{file name: entry point} from glslang's HLSL test table."""
    table = os.path.join(glslang_source, "gtests", "Hlsl.FromFile.cpp")
    if not os.path.exists(table):
        return {}
    with open(table, encoding="utf-8", errors="replace") as f:
        return {m.group(1): m.group(2) for m in ENTRY_RE.finditer(f.read())}


def check(spirv_conv, test_dir, name, entry, work_dir):
    """Returns ("compiled" | "not compiled" | "failed", message)."""
    source = os.path.join(test_dir, name)
    spv = os.path.join(work_dir, name + ".spv")
    code, err = run([spirv_conv, "opt", "--language", "hlsl", "-E", entry, source, "-o", spv],
                    cwd=test_dir)
    if code == 2:
        return "not compiled", first_line(err)
    if code != 0:
        return "failed", "compile: %s: %s" % (describe(code), first_line(err))
    for label, args, allowed in ANALYSES:
        code, err = run([spirv_conv] + list(args) + [spv])
        if code not in allowed:
            return "failed", "%s: %s: %s" % (label, describe(code), first_line(err))
    optimized = os.path.join(work_dir, name + ".O.spv")
    code, err = run([spirv_conv, "opt", "-O", spv, "-o", optimized])
    if code != 0:
        return "failed", "opt -O: %s: %s" % (describe(code), first_line(err))
    code, err = run([spirv_conv, "check-motion", spv, optimized])
    if code not in (0, 1):
        return "failed", "check-motion: %s: %s" % (describe(code), first_line(err))
    return "compiled", ""


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang-source", required=True,
                        help="glslang's source tree (Test/, gtests/)")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--min-compiled", type=int, default=0)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print why each file did not compile")
    args = parser.parse_args(argv)

    spirv_conv = find_tool("spirv-conv", args.spirv_conv)
    test_dir = os.path.join(os.path.abspath(args.glslang_source), "Test")
    names = sorted(n for n in os.listdir(test_dir) if n.startswith("hlsl.") and
                   n.rsplit(".", 1)[-1] in STAGE_EXTENSIONS) if os.path.isdir(test_dir) else []
    if spirv_conv is None or not names:
        print("hlsl-corpus: error: %s" % ("no spirv-conv" if spirv_conv is None
                                          else "no Test/hlsl.* under " + args.glslang_source),
              file=sys.stderr)
        return 1
    entries = entry_points(args.glslang_source)
    args.work_dir = os.path.abspath(args.work_dir)
    os.makedirs(args.work_dir, exist_ok=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(
            lambda n: check(spirv_conv, test_dir, n, entries.get(n, "main"), args.work_dir),
            names))
    counts = {"compiled": 0, "not compiled": 0, "failed": 0}
    for name, (verdict, message) in zip(names, results):
        counts[verdict] += 1
        if verdict == "failed" or (verdict == "not compiled" and args.verbose):
            print("%s %s: %s" % ("FAIL" if verdict == "failed" else "skip", name, message))
    print("hlsl-corpus: %d compiled, %d not compiled, %d failed (of %d files, %d with an entry "
          "point from glslang's table)" % (counts["compiled"], counts["not compiled"],
                                           counts["failed"], len(names),
                                           sum(n in entries for n in names)))
    if counts["compiled"] < args.min_compiled:
        print("hlsl-corpus: fewer than %d compiled" % args.min_compiled)
        return 1
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
