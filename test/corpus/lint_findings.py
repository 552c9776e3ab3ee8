#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Every `spirv-conv lint` finding on the public corpora, listed per rule for
judging by hand, and the precision per rule from the verdicts
(docs/lint-corpus.md "Precision on public corpora").

  python3 test/corpus/lint_findings.py --spirv-conv PATH --work-dir DIR
          [--corpus glslang|spirv-cross|godot ...] [--glslang-corpus DIR]
          [--spirv-cross-corpus DIR] [--godot-corpus DIR] [--cache-dir DIR]
          [--jobs N] [--sample N] [--list FILE.md] [--json FILE.json]
          [--verdicts FILE.md] [--strict]

Modules, each at two optimisation levels, of the corpora --corpus names
(repeatable; default glslang and spirv-cross):
  glslang      every shader of glslang's Test/ folder, compiled as
               corpus_test.py compiles it (glslangValidator -V, the first
               Vulkan env spirv-val accepts; the same cache), with -g, and,
               if -V alone compiles it for no env, with --amb --aml
               (lint_vs_spirv_lint.compile_valid);
  spirv-cross  every GLSL shader of the spirv-cross source package, compiled
               as spirv_cross_corpus.py compiles it (-V --target-env
               vulkan1.2, --amb when needed), with -g; and its SPIR-V assembly
               tests (no source lines);
  godot        Godot 4's RenderingDevice shaders (scripts/fetch-lint-corpora.sh),
               each stage of each template once per variant as
               godot_shaders.py writes it, compiled as the glslang corpus is
               (the first Vulkan env spirv-val accepts), with -g; its #line
               directives make the keys name the template (and the included
               file) and line.
  O0 is that module (glslang's -O0 output, or the assembly as written); O is
  `spirv-opt -O --target-env=ENV` of it (OpLines survive), left out when
  spirv-opt fails or spirv-val rejects its output. Both are linted with
  `spirv-conv lint --format json --target-env ENV` (docs/json.md).

A finding is keyed by (corpus:path:line, rule) -- the function and the
instruction when there is no line. Shaders with identical source bytes (the
spirv-cross package holds many copies in its shaders-msl/, shaders-hlsl/...
folders) count once, under the first path; their other paths are listed.

--list writes the findings per rule as Markdown: key, variants and counts,
severity, message, the source line, and every explanation note (line and
message). With --sample N, each rule's keys are put in a stable order --
round robin over the shaders, shaders and each shader's keys ordered by a
hash of their names -- and the first N are marked "sample" (a sample of N
covers min(N, shaders) shaders); a rule with at most N keys is listed whole.

--verdicts FILE.md reads Markdown table rows of the form
  | `KEY` | RULE | VERDICT | reason |
(VERDICT `real` or `false`; other rows are ignored). A KEY with `*` is a
class row: an fnmatch pattern whose verdict covers every key it matches that
has no row of its own. Prints, per rule and variant, the findings, the keys,
the keys judged one by one with real, false and real/judged, and the keys
covered (judged or matched by a class row) with real and real/covered; then
the verdicts that match no reported key (stale) and the sampled keys without
a row of their own; a row naming an unknown rule id or a (key, rule) judged
twice is reported too. Rows whose key names a corpus not linted in this run are
left out (neither used nor stale). --strict exits 1 when there are any. Exit 2
on a usage error (a missing tool or corpus).
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import fnmatch
import hashlib
import json
import os
import re
import sys
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import corpus_test as ct  # noqa: E402  (tool runs, the compile cache)
import lint_vs_spirv_lint as lvs  # noqa: E402  (glslang Test/: env choice, --amb --aml)
import spirv_cross_corpus as sxc  # noqa: E402  (spirv-cross: shader list, compile, envs)
import godot_shaders as gds  # noqa: E402  (Godot: RD shader templates to GLSL stage files)

# Every public rule id (docs/rules/README.md), in the order of the table. A rule
# the lint reports that is missing here still gets rows (after these); a verdict
# row naming a rule that is not here is an error, not a row to skip.
RULES = ("barrier-divergent-cf", "derivative-divergent-cf", "derivative-after-discard",
         "nonuniform-missing-decoration", "nonuniform-redundant-decoration",
         "subgroup-op-divergent-cf", "subgroup-op-after-rejoin", "subgroup-op-divergent-call",
         "subgroup-op-inactive-invocation", "quad-op-divergent-cf",
         "subgroup-op-helper-invocations", "subgroup-op-nonuniform-operand",
         "group-op-divergent-cf")
VARIANTS = ("O0", "O")
CORPORA = ("glslang", "spirv-cross", "godot")
VERDICT_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([a-z-]+)\s*\|\s*(real|false)\s*\|(.*)\|\s*$")


@dataclasses.dataclass
class Module:
    corpus: str             # "glslang" or "spirv-cross"
    path: str               # relative to the corpus folder
    source: str             # absolute path of the source (GLSL or assembly)
    spv: str                # the O0 module
    env: str                # spirv-val's env for it
    how: str                # how it was compiled
    copies: List[str] = dataclasses.field(default_factory=list)  # identical sources
    root: Optional[str] = None       # OpLine file names are relative to it (else the source's folder)
    generated: Optional[str] = None  # the file compiled, when not |source| (identifies the module)


def glslang_modules(tools, corpus, work_dir, jobs):
    def one(rel):
        spv, env, how = lvs.compile_valid(tools, corpus, rel, work_dir, True, ("-g",), True)
        if spv is None:
            return None
        return Module("glslang", rel, os.path.join(corpus, rel), spv, env, how + " -g")
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return [m for m in pool.map(one, ct.find_shaders(corpus)) if m]


def spirv_cross_modules(tools, corpus, work_dir, jobs):
    def one(shader):
        shader = sxc.compile_one(shader, corpus, work_dir, tools, ("-g",))
        if not shader.valid:
            return None
        how = shader.how + (" -g" if shader.kind == "glsl" else "")
        return Module("spirv-cross", shader.path, os.path.join(corpus, shader.path), shader.spv,
                      shader.env, how)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return [m for m in pool.map(one, sxc.find_shaders(corpus)) if m]


def godot_modules(tools, corpus, work_dir, jobs):
    """(modules, counts): every variant of every stage of Godot's RD shaders
    (godot_shaders.py) that compiles and validates; counts of templates,
    stages, variants, compiled and valid variants."""
    src_dir = os.path.join(work_dir, "src")
    os.makedirs(src_dir, exist_ok=True)
    known = gds.cxx_macros(corpus)
    shaders = gds.find_shaders(corpus)
    variants = [v for shader in shaders for v in gds.variants(corpus, shader, known)]
    counts = collections.Counter(templates=len(shaders), variants=len(variants),
                                 stages=len({(v.shader, v.stage) for v in variants}))

    def one(variant):
        name = gds.file_name(variant)
        path = os.path.join(src_dir, name)
        if not os.path.exists(path) or ct.read_bytes(path) != variant.text.encode():
            with open(path, "w", encoding="utf-8") as f:
                f.write(variant.text)
        spv, env, how = lvs.compile_valid(tools, src_dir, name, work_dir, False, ("-g",))
        if spv is None:
            return None
        how = "%s -g; %s stage, %s" % (how, variant.stage, "-D %s" % variant.macro
                                       if variant.macro else "no variant define")
        return Module("godot", variant.shader, os.path.join(corpus, variant.shader), spv, env, how,
                      root=corpus, generated=path)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        modules = [m for m in pool.map(one, variants) if m]
    counts["valid"] = len(modules)
    counts["valid stages"] = len({(m.path, m.how.split("; ")[1].split(",")[0]) for m in modules})
    return modules, counts


def deduplicate(modules):
    """One module per source text (the first path in corpus order)."""
    first: Dict[bytes, Module] = {}
    for m in modules:
        digest = hashlib.sha256(ct.read_bytes(m.generated or m.source)).digest()
        if digest in first:
            first[digest].copies.append("%s:%s" % (m.corpus, m.path))
        else:
            first[digest] = m
    return list(first.values())


def optimized(tools, module):
    """spirv-opt -O of the module (cached), or None when it fails or is invalid."""
    out = module.spv[:-len(".spv")] + ".O.spv"
    key = [tools.spirv_opt_version, "-O", module.env, ct.read_bytes(module.spv)]

    def build():
        code, err = ct.run([tools.spirv_opt, "-O", "--target-env=" + module.env, module.spv,
                            "-o", out])
        return code == 0, err
    built, _ = ct.cached_build(tools.cache_dir, key, out, build)
    if not built or ct.run([tools.spirv_val, "--target-env", module.env, out])[0] != 0:
        return None
    return out


def source_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def lint_module(tools, module):
    """The findings of both variants as dicts, and problems (lint failures)."""
    variants = [("O0", module.spv), ("O", optimized(tools, module))]
    findings, problems = [], []
    lines = source_lines(module.source)
    for variant, spv in variants:
        if spv is None:
            problems.append("%s:%s [%s]: spirv-opt -O fails or its output is invalid"
                            % (module.corpus, module.path, variant))
            continue
        out = spv + ".lint.json"
        code, err = ct.run([tools.spirv_conv, "lint", "--format", "json", "--no-group",
                            "--target-env", module.env, spv, "-o", out])
        if code not in (0, 1):
            problems.append("%s:%s [%s]: lint %s: %s" % (module.corpus, module.path, variant,
                                                         ct.describe(code), ct.first_line(err)))
            continue
        with open(out) as f:
            report = json.load(f)
        for entry in report["files"]:
            for finding in entry["findings"]:
                findings.append(record(module, variant, finding, lines))
    return findings, problems


def record(module, variant, finding, lines):
    loc = finding["location"]
    line = loc.get("line")
    root = module.root or os.path.dirname(module.source)
    if module.root:  # OpLine names are paths from the root
        other_file = loc.get("file") and os.path.normpath(os.path.join(root, loc["file"])) != \
            os.path.normpath(module.source)
    else:
        other_file = loc.get("file") and os.path.basename(loc["file"]) != os.path.basename(
            module.source)
    where = "%s:%s" % (module.corpus, module.path)
    if line is None:
        key = "%s:%s:%s" % (where, loc.get("function"), loc.get("instruction"))
    elif other_file:  # an #include
        key = "%s(%s):%d" % (where, loc["file"], line)
    else:
        key = "%s:%d" % (where, line)
    text = None
    if line is not None:
        src = source_lines(os.path.join(root, loc["file"])) if other_file else lines
        if 0 < line <= len(src):
            text = src[line - 1].strip()
    notes = []
    for note in finding.get("notes", []):
        nline = note["location"].get("line") if note.get("location") else None
        nfile = note["location"].get("file") if note.get("location") else None
        nlines = (source_lines(os.path.join(root, nfile)) if module.root and nfile
                  else lines)
        ntext = nlines[nline - 1].strip() if nline and 0 < nline <= len(nlines) else None
        notes.append({"line": nline, "file": nfile if module.root else None,
                      "message": note["message"], "text": ntext})
    return {"key": key, "shader": where, "rule": finding["rule"], "variant": variant,
            "severity": finding["severity"], "message": finding["message"],
            "function": loc.get("function"), "instruction": loc.get("instruction"),
            "text": text, "notes": notes, "copies": module.copies, "how": module.how}


def digest(*parts):
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def sample_order(rule, keys):
    """|keys| ({key: {variant: [findings]}}) in sample order: round robin over
    the shaders (ordered by a hash of rule and shader), each shader's keys in
    the order of a hash of rule and key. A sample of N then covers min(N,
    shaders) shaders, and a key's place depends only on its own shader's keys."""
    per_shader = collections.defaultdict(list)
    for key, per_variant in keys.items():
        per_shader[next(iter(per_variant.values()))[0]["shader"]].append(key)
    ranked = []
    for shader, shader_keys in per_shader.items():
        for position, key in enumerate(sorted(shader_keys, key=lambda k: digest(rule, k))):
            ranked.append(((position, digest(rule, shader)), key))
    return [key for _, key in sorted(ranked)]


def group(findings):
    """{rule: {key: {variant: [findings]}}}, keys in sample order."""
    by_rule = collections.defaultdict(lambda: collections.defaultdict(
        lambda: collections.defaultdict(list)))
    for f in findings:
        by_rule[f["rule"]][f["key"]][f["variant"]].append(f)
    return {rule: collections.OrderedDict((k, keys[k]) for k in sample_order(rule, keys))
            for rule, keys in sorted(by_rule.items())}


def sampled(grouped, size):
    """{rule: set of keys in the sample}."""
    return {rule: set(list(keys)[:size] if size else keys) for rule, keys in grouped.items()}


def write_list(grouped, sample, path):
    out = ["# Lint findings on the public corpora", "",
           "Generated by test/corpus/lint_findings.py. Keys in sample order (round robin over "
           "the shaders); `sample` marks the ones to judge.", ""]
    for rule, keys in grouped.items():
        out += ["## %s (%d keys)" % (rule, len(keys)), ""]
        for key, per_variant in keys.items():
            first = next(iter(per_variant.values()))[0]
            counts = ", ".join("%s x%d" % (v, len(per_variant[v])) for v in VARIANTS
                               if v in per_variant)
            mark = " **sample**" if key in sample[rule] else ""
            out.append("### `%s`%s" % (key, mark))
            out.append("- %s; %s; %s; in `%s`" % (counts, first["severity"], first["how"],
                                                  first["function"]))
            hows = sorted({f["how"] for fs in per_variant.values() for f in fs} - {first["how"]})
            if hows:
                out.append("- also in: %s" % "; ".join("`%s`" % h for h in hows))
            if first["copies"]:
                out.append("- identical copies: %s" % ", ".join(first["copies"]))
            out.append("- %s" % first["message"])
            out.append("- source: `%s`" % (first["text"] or first["instruction"]))
            for variant in VARIANTS:
                for f in per_variant.get(variant, [])[:1]:
                    out.append("- notes at %s (`%s`):" % (variant, f["instruction"]))
                    for n in f["notes"]:
                        out.append("  - line %s%s: %s%s" % (n["line"], " of %s" % n["file"]
                                                            if n.get("file") else "",
                                                            n["message"],
                                                          " — `%s`" % n["text"] if n["text"]
                                                          else ""))
            out.append("")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def read_verdicts(path):
    """({(key, rule): verdict}, {(pattern, rule): verdict}, [bad rows]) from
    Markdown table rows; a key with `*` is a class row, an fnmatch pattern over
    keys. A row naming an unknown rule, or a (key, rule) given twice, is bad."""
    verdicts, classes, bad = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = VERDICT_ROW.match(line.strip())
            if not m:
                continue
            if m.group(2) not in RULES:
                bad.append("%s:%d: unknown rule %s" % (path, number, m.group(2)))
                continue
            target = classes if "*" in m.group(1) else verdicts
            if (m.group(1), m.group(2)) in target:
                bad.append("%s:%d: %s %s judged twice" % (path, number, m.group(1), m.group(2)))
            target[(m.group(1), m.group(2))] = m.group(3)
    return verdicts, classes, bad


def verdict_of(key, rule, verdicts, classes):
    """The key's own verdict, else the first class row matching it, else None."""
    if (key, rule) in verdicts:
        return verdicts[(key, rule)]
    for (pattern, pattern_rule), verdict in classes.items():
        if pattern_rule == rule and fnmatch.fnmatchcase(key, pattern):
            return verdict
    return None


def ratio(real, total):
    return "%.1f %%" % (100.0 * real / total) if total else "-"


def precision_table(grouped, verdicts, classes):
    """Rows (rule, variant, findings, keys, judged, real, false, precision,
    covered, covered real, precision over covered): judged keys have a row of
    their own, covered ones also those a class row matches."""
    rows = []
    for rule in list(RULES) + sorted(set(grouped) - set(RULES)):
        keys = grouped.get(rule, {})
        for variant in VARIANTS:
            present = [k for k, per in keys.items() if variant in per]
            count = sum(len(keys[k][variant]) for k in present)
            judged = [verdicts[(k, rule)] for k in present if (k, rule) in verdicts]
            covered = [v for v in (verdict_of(k, rule, verdicts, classes) for k in present) if v]
            real, covered_real = judged.count("real"), covered.count("real")
            rows.append((rule, variant, count, len(present), len(judged), real,
                         len(judged) - real, ratio(real, len(judged)), len(covered),
                         covered_real, ratio(covered_real, len(covered))))
    return rows


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--work-dir", required=True, help="folder for the modules")
    parser.add_argument("--glslang-corpus", default=os.path.join(REPO, "third_party", "glslang",
                                                                 "Test"))
    parser.add_argument("--spirv-cross-corpus", default=os.path.join(REPO, "third_party",
                                                                     "spirv-cross"))
    parser.add_argument("--godot-corpus", default=os.path.join(REPO, "third_party", "godot"))
    parser.add_argument("--corpus", action="append", choices=CORPORA,
                        help="a corpus to lint (repeatable; default: glslang and spirv-cross)")
    parser.add_argument("--cache-dir", help="the compile cache (corpus_test.cached_build)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="mark the first N keys of each rule in sample order")
    parser.add_argument("--list", metavar="FILE.md", help="write the findings per rule here")
    parser.add_argument("--json", metavar="FILE.json", help="write every finding here")
    parser.add_argument("--verdicts", metavar="FILE.md", help="judged keys (Markdown rows)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 on stale verdicts or unjudged sampled keys")
    ct.add_tool_arguments(parser)
    args = parser.parse_args(argv)

    tools, missing = ct.find_tools(args)
    selected = args.corpus or ["glslang", "spirv-cross"]
    folders = {"glslang": args.glslang_corpus, "spirv-cross": args.spirv_cross_corpus,
               "godot": args.godot_corpus}
    corpora = [folders[c] for c in CORPORA if c in selected and not os.path.isdir(folders[c])]
    if missing or corpora or args.jobs < 1:
        print("lint-findings: error: missing %s" % ", ".join(missing + corpora + (
            ["--jobs >= 1"] if args.jobs < 1 else [])), file=sys.stderr)
        return 2
    tools.cache_dir = os.path.abspath(args.cache_dir) if args.cache_dir else None
    if tools.cache_dir:
        os.makedirs(tools.cache_dir, exist_ok=True)
    tools.glslang_version = sxc.tool_version(tools.glslang)
    tools.spirv_opt_version = sxc.tool_version(tools.spirv_opt)
    tools.versions = {tools.glslang: tools.glslang_version,
                      tools.spirv_as: sxc.tool_version(tools.spirv_as)}
    work_dir = os.path.abspath(args.work_dir)
    makers = {"glslang": glslang_modules, "spirv-cross": spirv_cross_modules}
    modules = []
    for corpus in CORPORA:
        if corpus not in selected:
            continue
        sub = os.path.join(work_dir, corpus)
        os.makedirs(sub, exist_ok=True)
        folder = os.path.abspath(folders[corpus])
        if corpus == "godot":
            found, counts = godot_modules(tools, folder, sub, args.jobs)
            print("lint-findings: godot %s: %d templates, %d stages, %d variants; %d variants "
                  "of %d stages compile and validate"
                  % (gds.package_version(folder), counts["templates"], counts["stages"],
                     counts["variants"], counts["valid"], counts["valid stages"]))
            modules += found
        else:
            modules += makers[corpus](tools, folder, sub, args.jobs)
    unique = deduplicate(modules)
    findings, problems = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for found, problem in pool.map(lambda m: lint_module(tools, m), unique):
            findings += found
            problems += problem
    per_corpus = collections.Counter(m.corpus for m in unique)
    assembly = sum(1 for m in unique if m.how == "asm")
    print("lint-findings: %d valid modules, %d distinct sources (%s, "
          "%d of them assembly); linted: O0 %d, O %d"
          % (len(modules), len(unique), ", ".join("%s %d" % (c, per_corpus[c]) for c in CORPORA
                                                  if c in selected),
             assembly, len(unique) - sum("[O0]" in p for p in problems),
             len(unique) - sum("[O]" in p for p in problems)))
    for problem in problems:
        print("not linted: " + problem)

    grouped = group(findings)
    sample = sampled(grouped, args.sample)
    if args.list:
        write_list(grouped, sample, args.list)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(findings, f, indent=1, sort_keys=True)
            f.write("\n")

    verdicts, classes, bad = read_verdicts(args.verdicts) if args.verdicts else ({}, {}, [])
    # Rows of corpora not linted in this run are neither used nor stale.
    verdicts = {k: v for k, v in verdicts.items() if k[0].split(":", 1)[0] in selected}
    classes = {k: v for k, v in classes.items() if k[0].split(":", 1)[0] in selected}
    print("| rule | variant | findings | keys | judged | real | false | precision "
          "| covered | real | precision |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in precision_table(grouped, verdicts, classes):
        print("| `%s` | %s | %d | %d | %d | %d | %d | %s | %d | %d | %s |" % row)
    status = 0
    if args.verdicts:
        reported = {(k, rule) for rule, keys in grouped.items() for k in keys}
        stale = sorted(set(verdicts) - reported)
        stale += sorted((p, rule) for p, rule in classes
                        if not any(fnmatch.fnmatchcase(k, p) for k in grouped.get(rule, {})))
        unjudged = sorted((k, rule) for rule, keys in sample.items() for k in keys
                          if (k, rule) not in verdicts)
        for key, rule in stale:
            print("stale verdict (no longer reported): %s %s" % (key, rule))
        for key, rule in unjudged:
            print("sampled, no verdict: %s %s" % (key, rule))
        for problem in bad:
            print("bad verdict row: " + problem)
        if args.strict and (stale or unjudged or bad):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
