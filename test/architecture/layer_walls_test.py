#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The architecture's walls (docs/architecture.md "Layers").

  layer_walls_test.py --repo DIR --layer-roots DIR --cxx COMPILER

Reads the layer table of docs/architecture.md (each layer, the layers it
links, its public headers) and checks, with the compiler's preprocessor on
each layer's include root (the build tree's source/layers/<layer>):
  - a layer's code can include the folders and public headers of the layers
    it links and its own, and nothing else: a probe that includes an upper
    layer's header must fail to compile, one that includes a lower layer's
    header must not;
  - every folder of source/ is a layer of the table, every layer a folder;
    every public header of include/spirv_conv/ belongs to one layer;
  - every folder and file the document names in backticks under source/,
    include/, tools/, test/, docs/, cmake/, scripts/ or bench/ exists;
  - a public header includes an internal path (SPIRV-Tools' source/...)
    only if it is a pass header that says so in its leading comment;
  - tools/ includes only the public headers (spirv_conv/...), its own files,
    CLI11, nlohmann-json, SPIRV-Tools' public C API and the standard library.
Exit 0 when all hold, 1 with one line per problem otherwise.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TOOLS_THIRD_PARTY = ("CLI/", "nlohmann/", "spirv-tools/libspirv.h", "spirv-tools/libspirv.hpp")


def parse_layers(doc_text):
    """{layer: (links, headers)} from the table under the "## Layers" heading."""
    section = doc_text.split("\n## Layers\n", 1)
    if len(section) != 2:
        raise ValueError("docs/architecture.md has no '## Layers' section")
    body = section[1].split("\n## ", 1)[0]
    layers = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        name = cells[0].strip("`")
        links = re.findall(r"`([a-z_]+)`", cells[1])
        headers = re.findall(r"`([a-z_]+\.h)`", cells[2])
        layers[name] = (links, headers)
    if not layers:
        raise ValueError("the '## Layers' table of docs/architecture.md has no rows")
    return layers


def reachable(layers, name):
    """The layers |name| may include: itself and every layer it links, transitively."""
    seen, work = set(), [name]
    while work:
        layer = work.pop()
        if layer in seen:
            continue
        seen.add(layer)
        work += layers.get(layer, ((), ()))[0]
    return seen


def probe_headers(cxx, root, headers):
    """{header: True if `#include "header"` resolves on include root |root|}."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.cpp")
        with open(src, "w") as f:
            for i, header in enumerate(headers):
                f.write('#if __has_include("%s")\nint probe_%d = 1;\n#else\nint probe_%d = 0;\n'
                        "#endif\n" % (header, i, i))
        out = subprocess.run([cxx, "-E", "-P", "-nostdinc", "-I", root, src],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("%s -E failed: %s" % (cxx, out.stderr.strip()))
        values = dict(re.findall(r"int probe_(\d+) = (\d);", out.stdout))
        return {h: values.get(str(i)) == "1" for i, h in enumerate(headers)}


def include_resolves(cxx, root, header):
    """Whether `#include "header"` in a file compiled on include root |root|
    finds |header| (what the header includes in turn is not looked at)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.cpp")
        with open(src, "w") as f:
            f.write('#include "%s"\n' % header)
        out = subprocess.run([cxx, "-E", "-I", root, src], capture_output=True, text=True)
        missing = re.compile(r"error: ('%s' file not found|%s: No such file)"
                             % (re.escape(header), re.escape(header)))
        return not missing.search(out.stderr)


def a_header(folder):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".h"):
            return name
    return None


def check(repo, roots, cxx):
    problems = []
    with open(os.path.join(repo, "docs", "architecture.md")) as f:
        doc = f.read()
    layers = parse_layers(doc)
    source = os.path.join(repo, "source")
    folders = sorted(d for d in os.listdir(source) if os.path.isdir(os.path.join(source, d)))
    for folder in folders:
        if folder not in layers:
            problems.append("source/%s/ is in no layer of docs/architecture.md" % folder)
    for layer in layers:
        if layer not in folders:
            problems.append("layer '%s' of docs/architecture.md has no folder source/%s/"
                            % (layer, layer))
    owner = {}
    for layer, (_, headers) in layers.items():
        for header in headers:
            if header in owner:
                problems.append("spirv_conv/%s belongs to both %s and %s" % (header, owner[header],
                                                                             layer))
            owner[header] = layer
    public = sorted(os.listdir(os.path.join(repo, "include", "spirv_conv")))
    for header in public:
        if header not in owner:
            problems.append("include/spirv_conv/%s belongs to no layer" % header)
    for header in owner:
        if header not in public:
            problems.append("docs/architecture.md names spirv_conv/%s, which does not exist"
                            % header)
    if problems:
        return problems

    # The walls, seen by each layer's preprocessor.
    folder_probe = {f: "%s/%s" % (f, a_header(os.path.join(source, f))) for f in folders
                    if a_header(os.path.join(source, f))}
    for layer in layers:
        root = os.path.join(roots, layer)
        if not os.path.isdir(root):
            problems.append("layer '%s' has no include root %s (is the build configured?)"
                            % (layer, root))
            continue
        allowed = reachable(layers, layer)
        wanted = list(folder_probe.values()) + ["spirv_conv/" + h for h in public]
        found = probe_headers(cxx, root, wanted)
        for folder, header in folder_probe.items():
            if found[header] != (folder in allowed):
                problems.append("layer %s %s include %s" % (
                    layer, "can" if found[header] else "cannot", header))
        for header in public:
            expected = owner[header] in allowed
            if found["spirv_conv/" + header] != expected:
                problems.append("layer %s %s include spirv_conv/%s (of layer %s)" % (
                    layer, "can" if not expected else "cannot", header, owner[header]))

    # The same, as a compile: an upward #include is a build error.
    lowest = next(l for l in layers if not layers[l][0])
    top = max(layers, key=lambda l: len(reachable(layers, l)))
    if include_resolves(cxx, os.path.join(roots, lowest), folder_probe[top]):
        problems.append("a file of layer %s including %s compiles; it must not"
                        % (lowest, folder_probe[top]))
    if not include_resolves(cxx, os.path.join(roots, top), folder_probe[lowest]):
        problems.append("a file of layer %s cannot include %s; it must"
                        % (top, folder_probe[lowest]))

    # Paths the document names.
    for path in sorted(set(re.findall(
            r"`((?:source|include|tools|test|docs|cmake|scripts|bench)/[A-Za-z0-9_./-]*)`", doc))):
        if not os.path.exists(os.path.join(repo, path.rstrip("/"))):
            problems.append("docs/architecture.md names %s, which does not exist" % path)

    # Public headers name internal paths only where they say why.
    for header in public:
        with open(os.path.join(repo, "include", "spirv_conv", header)) as f:
            text = f.read()
        internal = re.findall(r'#include "((?:source|analysis|io|lint|diagnostics|motion|passes|'
                              r'report|pipeline|sim)/[^"]+)"', text)
        if not internal:
            continue
        leading = re.match(r"(?:\s*//[^\n]*\n)*", text).group(0)
        if "A pass header" not in leading or "source/opt/pass.h" not in leading:
            problems.append("include/spirv_conv/%s includes %s but is no pass header saying so"
                            % (header, ", ".join(internal)))

    # The CLI sees the public API only.
    tools = os.path.join(repo, "tools")
    for dirpath, _, files in os.walk(tools):
        for name in sorted(files):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(dirpath, name)
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                    if not m:
                        continue
                    inc = m.group(1)
                    if (inc.startswith("spirv_conv/") or inc.startswith(TOOLS_THIRD_PARTY)
                            or os.path.exists(os.path.join(dirpath, inc))):
                        continue
                    problems.append("%s:%d includes %s, which is not public"
                                    % (os.path.relpath(path, repo), number, inc))
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True)
    ap.add_argument("--layer-roots", required=True)
    ap.add_argument("--cxx", required=True)
    args = ap.parse_args(argv)
    try:
        problems = check(args.repo, args.layer_roots, args.cxx)
    except (OSError, ValueError, RuntimeError) as e:
        print("layer_walls_test: error: %s" % e, file=sys.stderr)
        return 1
    for p in problems:
        print(p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
