#!/usr/bin/env python3
"""`spirv-conv lsp` against `spirv-conv lint` on whole corpora (docs/editor.md).

For every shader given (files, or the shader files of directories): the
diagnostics the server publishes for it equal the lint's JSON findings of the
same file (`lint -g --format json`): one diagnostic per site with the rule,
severity, line, message and every note at its line. Then every mechanical code
action the server offers (NonUniform qualification, gradient hoist, and the
allow comment at the first site of each rule) is applied to a copy of the
shader; the copy must still compile and its lint must have lost the finding
without gaining another (no rule reports more sites than before).
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import (LspClient, apply_edits, expected_sites, published_sites,  # noqa: E402
                        uri_of)

SHADER_EXTENSIONS = (".vert", ".frag", ".comp", ".geom", ".tesc", ".tese", ".mesh", ".task",
                     ".rgen", ".rchit", ".rahit", ".rmiss", ".rint", ".rcall", ".hlsl")


def shader_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, name) for name in os.listdir(path)
                            if name.endswith(SHADER_EXTENSIONS)
                            and os.path.isfile(os.path.join(path, name)))
        else:
            files.append(path)
    return [os.path.abspath(f) for f in files]


def lint(spirv_conv, files):
    run = subprocess.run([spirv_conv, "lint", "-g", "--format", "json", "--exit-zero", *files],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError("lint failed: " + run.stderr)
    return {os.path.abspath(f["file"]): f for f in json.loads(run.stdout)["files"]}


def rule_counts(lint_file):
    return collections.Counter(site[2] for site in expected_sites(lint_file))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    files = shader_files(args.paths)
    expected = lint(args.spirv_conv, files)
    work = tempfile.mkdtemp(prefix="spirv_conv_lsp_corpus_")
    client = LspClient(args.spirv_conv, timeout=120)
    failures = []
    compared = sites_seen = 0
    actions_applied = collections.Counter()
    try:
        client.initialize(os.path.commonpath(files), {"spirv-conv": {"debounceMs": 0}})
        # Diagnostics against the lint.
        for path in files:
            if path not in expected or expected[path].get("error"):
                continue  # the lint could not lint it: not a comparison of findings
            client.open(path)
            published = published_sites(path, client.diagnostics(path, 1))
            want = expected_sites(expected[path])
            if sorted(published) != sorted(want):
                failures.append("%s: diagnostics differ from the lint's findings\n  lsp:  %r\n"
                                "  lint: %r" % (path, sorted(published), sorted(want)))
            compared += 1
            sites_seen += len(want)

            # The code actions, each on a copy.
            diagnostics = published_sites(path, [])
            with open(path, encoding="utf-8") as f:
                text = f.read()
            before = rule_counts(expected[path])
            allowed_rules = set()
            for site in sorted(set((s[1], s[2]) for s in want)):
                line, rule = site
                actions = client.request("textDocument/codeAction", {
                    "textDocument": {"uri": uri_of(path)},
                    "range": {"start": {"line": line - 1, "character": 0},
                              "end": {"line": line - 1, "character": 0}},
                    "context": {"diagnostics": diagnostics}})["result"]
                for action in actions:
                    if action["diagnostics"][0]["code"] != rule:
                        continue
                    kind = ("allow" if "allow" in action["title"] else
                            "gradients" if "gradients" in action["title"] else "nonuniform")
                    if kind == "allow":
                        if rule in allowed_rules:
                            continue
                        allowed_rules.add(rule)
                    edits = action["edit"]["changes"].get(uri_of(path))
                    if edits is None or len(action["edit"]["changes"]) != 1:
                        failures.append("%s:%d: %s edits another file" % (path, line, kind))
                        continue
                    name = "%s_%d_%s_%s" % (kind, line, rule, os.path.basename(path))
                    copy = os.path.join(work, name)
                    with open(copy, "w") as f:
                        f.write(apply_edits(text, edits))
                    after = lint(args.spirv_conv, [copy])[copy]
                    if after.get("error"):
                        failures.append("%s:%d: the %s fix does not compile: %s"
                                        % (path, line, kind, after["error"]))
                        continue
                    counts = rule_counts(after)
                    if counts[rule] >= before[rule] or any(counts[r] > before[r] for r in counts):
                        failures.append("%s:%d: the %s fix leaves %r (before: %r)"
                                        % (path, line, kind, dict(counts), dict(before)))
                        continue
                    actions_applied[kind] += 1
            client.close(path)
        response, code = client.shutdown()
        if code != 0:
            failures.append("the server exited with %d" % code)
    finally:
        client.kill()
    for failure in failures:
        print(failure)
    print("lsp corpus: %d files, %d sites compared; code actions applied and re-linted: %s; "
          "%d failures" % (compared, sites_seen, dict(actions_applied), len(failures)))
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
