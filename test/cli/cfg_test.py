#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Black-box tests of `spirv-conv cfg` (docs/cli.md, "cfg").

  python3 test/cli/cfg_test.py --spirv-conv PATH [unittest options]

The DOT text is read by a small parser written here (statements, attributes,
which clusters each node sits in) and, when Graphviz is installed, also by
`dot -Tcanon`. The expected verdicts come from the inputs themselves:
test/data/cfg_branches_loops.spvasm, whose comments say what each block
does, and shaders/divergent_derivative.frag, whose EXPECT markers and
comments give the divergent branches, the divergent loop exit and the two
derivative bugs by source line. Colours are the documented palette.

GLSL is compiled by spirv-conv itself; the SVG test runs only when `dot` is on PATH.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

SPIRV_CONV = None  # set by main()
TIMEOUT = 60

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
BRANCHES_LOOPS = os.path.join(REPO, "test", "data", "cfg_branches_loops.spvasm")
DIVERGENT_DERIVATIVE = os.path.join(REPO, "shaders", "divergent_derivative.frag")

# The documented palette (docs/cli.md): fill per control-flow level, and the
# colour of divergent branches, their edges and divergent cycle frames.
FILL = {"uniform": "#DCEBF7", "subgroup": "#FEE391", "quad": "#FB9A29", "divergent": "#CC4C02"}
MARK = "#A50026"

# A fragment shader with a helper function, for --function.
TWO_FUNCTIONS = """\
#version 450
layout(location = 0) in float x;
layout(location = 0) out vec4 result;

float helper(float v) {
  if (v > 0.5) { return v * 2.0; }
  return v;
}

void main() {
  result = vec4(helper(x));
}
"""


# DOT parsing ---------------------------------------------------------------

TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|(?P<str>"(?:\\.|[^"\\])*")|(?P<arrow>->|--)'
                   r'|(?P<punct>[{}\[\];,=:])|(?P<id>[A-Za-z0-9_.\-]+)|(?P<html><)', re.S)


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            raise ValueError("DOT: unexpected character %r at %d" % (text[pos], pos))
        if m.group("html"):
            depth, end = 0, pos
            while True:
                if text[end] == "<":
                    depth += 1
                elif text[end] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                end += 1
            tokens.append(("html", text[pos + 1:end]))
            pos = end + 1
            continue
        if m.group("str"):
            raw = m.group("str")[1:-1]
            tokens.append(("id", re.sub(r'\\(["\\])', r"\1", raw).replace("\\n", "\n")))
        elif m.group("arrow"):
            tokens.append(("arrow", m.group("arrow")))
        elif m.group("punct"):
            tokens.append((m.group("punct"), m.group("punct")))
        elif m.group("id"):
            tokens.append(("id", m.group("id")))
        pos = m.end()
    return tokens


class Graph:
    """Nodes (attributes and the clusters around them), edges, clusters."""

    def __init__(self, text):
        self.nodes = {}     # id -> {"attrs": {...}, "clusters": [names, outermost first]}
        self.edges = []     # (from, to, attrs)
        self.clusters = {}  # name -> {"attrs": {...}, "parents": [...]}
        self.graph_attrs = {}
        self.tokens = tokenize(text)
        self.pos = 0
        self.expect("id", "digraph")
        if self.peek()[0] == "id":
            self.pos += 1
        self.body([])
        if self.pos != len(self.tokens):
            raise ValueError("DOT: trailing tokens")

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def expect(self, kind, value=None):
        token = self.peek()
        if token[0] != kind or (value is not None and token[1] != value):
            raise ValueError("DOT: expected %s %s, got %r" % (kind, value or "", token))
        self.pos += 1
        return token[1]

    def attrs(self):
        result = {}
        while self.peek()[0] == "[":
            self.pos += 1
            while self.peek()[0] != "]":
                key = self.expect("id")
                self.expect("=")
                kind, value = self.peek()
                if kind not in ("id", "html"):
                    raise ValueError("DOT: bad attribute value %r" % (value,))
                self.pos += 1
                result[key] = value
                if self.peek()[0] in (",", ";"):
                    self.pos += 1
            self.pos += 1
        return result

    def body(self, clusters):
        self.expect("{")
        while self.peek()[0] != "}":
            kind, value = self.peek()
            if kind == ";":
                self.pos += 1
            elif kind == "{" or (kind == "id" and value == "subgraph"):
                name = None
                if kind == "id":
                    self.pos += 1
                    name = self.expect("id")
                inner = clusters
                if name and name.startswith("cluster"):
                    self.clusters[name] = {"attrs": {}, "parents": list(clusters)}
                    inner = clusters + [name]
                self.body(inner)
            elif kind == "id" and value in ("graph", "node", "edge"):
                self.pos += 1
                self.attrs()
            else:
                first = self.expect("id")
                if self.peek()[0] == "=":
                    self.pos += 1
                    kind2, value2 = self.peek()
                    self.pos += 1
                    if clusters:
                        self.clusters[clusters[-1]]["attrs"][first] = value2
                    else:
                        self.graph_attrs[first] = value2
                elif self.peek()[0] == "arrow":
                    self.pos += 1
                    second = self.expect("id")
                    self.edges.append((first, second, self.attrs()))
                else:
                    attrs = self.attrs()
                    node = self.nodes.setdefault(first, {"attrs": {}, "clusters": clusters})
                    node["attrs"].update(attrs)
        self.expect("}")

    # Queries.

    def block_nodes(self):
        return {n: v for n, v in self.nodes.items() if re.fullmatch(r"b\d+", n)}

    def block_named(self, name):
        """The block node whose label starts with |name|."""
        found = [n for n, v in self.block_nodes().items()
                 if v["attrs"].get("label", "").split("\n")[0].split("  (")[0] == name]
        if len(found) != 1:
            raise AssertionError("blocks named %s: %s" % (name, found))
        return found[0]

    def block_at_line(self, line):
        """The one block node whose source line range contains |line|."""
        found = []
        for n, v in self.block_nodes().items():
            m = re.search(r"\(lines? (\d+)(?:-(\d+))?\)", v["attrs"].get("label", ""))
            if m and int(m.group(1)) <= line <= int(m.group(2) or m.group(1)):
                found.append(n)
        if len(found) != 1:
            raise AssertionError("blocks at line %d: %s" % (line, found))
        return found[0]

    def edges_between(self, a, b):
        return [attrs for (x, y, attrs) in self.edges if x == a and y == b]

    def cycle_of(self, node):
        cycles = [c for c in self.nodes[node]["clusters"] if c.startswith("cluster_cycle_")]
        return cycles[-1] if cycles else None


# Tests ----------------------------------------------------------------------

class CfgTestCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="spirv-conv-cfg-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return name

    def conv(self, *args, env=None):
        proc = subprocess.run([SPIRV_CONV] + list(args), cwd=self.dir, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    def cfg(self, *args):
        code, out, err = self.conv("cfg", *args)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")
        if shutil.which("dot"):
            canon = subprocess.run(["dot", "-Tcanon"], input=out.encode(), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=TIMEOUT)
            self.assertEqual(canon.returncode, 0, canon.stderr.decode())
            self.assertEqual(canon.stderr, b"", "dot warns")
        return Graph(out)


class BranchesAndLoopsTest(CfgTestCase):
    """test/data/cfg_branches_loops.spvasm: every block is named after its role."""

    def setUp(self):
        super().setUp()
        self.g = self.cfg(BRANCHES_LOOPS)

    def fill(self, name):
        return self.g.nodes[self.g.block_named(name)]["attrs"]["fillcolor"]

    def test_every_block_once(self):
        names = ["entry", "then", "join", "outer_header", "outer_body", "inner_header",
                 "inner_body", "inner_continue", "inner_exit", "outer_continue", "outer_exit",
                 "case_one", "case_default", "end"]
        self.assertEqual(len(self.g.block_nodes()), len(names))
        for name in names:
            self.g.block_named(name)

    def test_divergent_if(self):
        # %c compares the fragment input in_x: the branch in entry is divergent,
        # so "then" runs in divergent control flow; everything else is uniform.
        g = self.g
        entry = g.nodes[g.block_named("entry")]["attrs"]
        self.assertEqual(entry["fillcolor"], FILL["uniform"])
        self.assertEqual(entry["color"], MARK)
        self.assertEqual(entry["penwidth"], "3")
        self.assertIn("divergent branch", entry["label"])
        self.assertEqual(self.fill("then"), FILL["divergent"])
        self.assertIn("divergent control flow", g.nodes[g.block_named("then")]["attrs"]["label"])
        for name in ("join", "outer_header", "inner_body", "end"):
            self.assertEqual(self.fill(name), FILL["uniform"], name)
        for name in ("then", "join", "outer_header", "inner_header", "outer_exit"):
            self.assertNotIn("penwidth", g.nodes[g.block_named(name)]["attrs"], name)
        for target, label in (("then", "true"), ("join", "false")):
            edges = [e for e in g.edges_between(g.block_named("entry"), g.block_named(target))
                     if e.get("style") != "dashed"]
            self.assertEqual(len(edges), 1, target)
            self.assertEqual(edges[0]["label"], label)
            self.assertEqual(edges[0]["color"], MARK)
            self.assertEqual(edges[0]["style"], "bold")

    def test_join(self):
        # "join" is reached from both successors of the divergent branch.
        join = self.g.nodes[self.g.block_named("join")]["attrs"]
        self.assertEqual(join.get("peripheries"), "2")
        self.assertIn("join of entry", join["label"])
        for name in ("then", "outer_header", "outer_exit", "end"):
            self.assertNotIn("peripheries", self.g.nodes[self.g.block_named(name)]["attrs"], name)

    def test_cycles_are_nested_clusters(self):
        g = self.g
        outer = g.cycle_of(g.block_named("outer_header"))
        inner = g.cycle_of(g.block_named("inner_header"))
        self.assertIsNotNone(outer)
        self.assertIsNotNone(inner)
        self.assertEqual(g.clusters[inner]["parents"][-1], outer)
        for name in ("outer_body", "inner_exit", "outer_continue"):
            self.assertEqual(g.cycle_of(g.block_named(name)), outer, name)
        for name in ("inner_body", "inner_continue"):
            self.assertEqual(g.cycle_of(g.block_named(name)), inner, name)
        for name in ("entry", "then", "join", "outer_exit", "end"):
            self.assertIsNone(g.cycle_of(g.block_named(name)), name)
        self.assertIn("depth 1", g.clusters[outer]["attrs"]["label"])
        self.assertIn("depth 2", g.clusters[inner]["attrs"]["label"])
        # Uniform trip counts: no divergent exit.
        self.assertNotIn("divergent exit", g.clusters[outer]["attrs"]["label"])
        self.assertNotEqual(g.clusters[outer]["attrs"]["color"], MARK)

    def test_structured_edges(self):
        g = self.g

        def dashed(a, b):
            return [e["label"] for e in g.edges_between(g.block_named(a), g.block_named(b))
                    if e.get("style") == "dashed"]

        self.assertEqual(dashed("entry", "join"), ["merge"])
        self.assertEqual(dashed("outer_header", "outer_exit"), ["merge"])
        self.assertEqual(dashed("outer_header", "outer_continue"), ["continue"])
        self.assertEqual(dashed("inner_header", "inner_continue"), ["continue"])
        self.assertEqual(dashed("outer_exit", "end"), ["merge"])
        self.assertEqual(dashed("then", "join"), [])

    def test_switch_labels(self):
        g = self.g
        labels = sorted(e["label"] for name in ("case_one", "case_default")
                        for e in g.edges_between(g.block_named("outer_exit"), g.block_named(name)))
        self.assertEqual(labels, ["case 1, 2", "default"])

    def test_one_function_no_cluster_and_legend(self):
        self.assertFalse([c for c in self.g.clusters if c.startswith("cluster_function")])
        self.assertIn("cluster_legend", self.g.clusters)
        legend = self.g.nodes["legend"]["attrs"]["label"]
        for level, colour in FILL.items():
            self.assertIn(colour, legend)
            self.assertIn(level, legend)
        self.assertIn("cfg_branches_loops.spvasm", self.g.graph_attrs["label"])
        self.assertIn("function main", self.g.graph_attrs["label"])


class DivergentDerivativeTest(CfgTestCase):
    """shaders/divergent_derivative.frag with -g, by source line (see its comments)."""

    def setUp(self):
        super().setUp()
        self.g = self.cfg(DIVERGENT_DERIVATIVE, "-g")

    def attrs(self, line):
        return self.g.nodes[self.g.block_at_line(line)]["attrs"]

    def test_branches(self):
        # Line 51 (the break on the per-pixel height) and line 61 (the
        # per-pixel mask) branch divergently; both blocks run in uniform control flow.
        for line in (51, 61):
            self.assertEqual(self.attrs(line).get("color"), MARK, line)
            self.assertIn("divergent branch", self.attrs(line)["label"])
        self.assertEqual(self.attrs(61)["fillcolor"], FILL["uniform"])

    def test_control_flow(self):
        # BUG 2 (line 54) after the divergent break, BUG 1 (line 62) in the if.
        self.assertEqual(self.attrs(54)["fillcolor"], FILL["divergent"])
        self.assertEqual(self.attrs(62)["fillcolor"], FILL["divergent"])
        self.assertEqual(self.attrs(67)["fillcolor"], FILL["uniform"])

    def test_join_after_the_if(self):
        self.assertEqual(self.attrs(67).get("peripheries"), "2")
        branch_name = self.attrs(61)["label"].split("  (")[0]
        self.assertIn("join of " + branch_name, self.attrs(67)["label"])

    def test_loop_with_divergent_exit(self):
        g = self.g
        cycle = g.cycle_of(g.block_at_line(54))
        self.assertIsNotNone(cycle)
        self.assertEqual(g.cycle_of(g.block_at_line(51)), cycle)
        self.assertIsNone(g.cycle_of(g.block_at_line(61)))
        self.assertIn("divergent exit", g.clusters[cycle]["attrs"]["label"])
        self.assertEqual(g.clusters[cycle]["attrs"]["color"], MARK)

    def test_findings_beside_their_blocks(self):
        g = self.g
        notes = {}
        for a, b, attrs in g.edges:
            if b.startswith("n") and attrs.get("style") == "dotted":
                notes[a] = g.nodes[b]["attrs"]
        self.assertEqual(sorted(notes), sorted([g.block_at_line(54), g.block_at_line(62)]))
        self.assertEqual(notes[g.block_at_line(54)]["label"],
                         "error derivative-divergent-cf (line 54)")
        self.assertEqual(notes[g.block_at_line(62)]["label"],
                         "warning derivative-divergent-cf (line 62)")
        self.assertEqual(notes[g.block_at_line(54)]["shape"], "note")


class FunctionSelectionTest(CfgTestCase):
    def setUp(self):
        super().setUp()
        self.write("two.frag", TWO_FUNCTIONS)

    def test_all_functions_in_clusters(self):
        g = self.cfg("two.frag")
        functions = sorted(g.clusters[c]["attrs"]["label"] for c in g.clusters
                           if c.startswith("cluster_function_"))
        self.assertEqual(functions, ["function helper", "function main"])
        for node in g.block_nodes().values():
            self.assertTrue(node["clusters"][0].startswith("cluster_function_"))

    def test_function_selects(self):
        everything = len(self.cfg("two.frag").block_nodes())
        main = self.cfg("two.frag", "--function", "main")
        helper = self.cfg("two.frag", "--function", "helper")
        self.assertEqual(len(main.block_nodes()) + len(helper.block_nodes()), everything)
        self.assertFalse([c for c in main.clusters if c.startswith("cluster_function")])
        self.assertIn("function helper", helper.graph_attrs["label"])
        # glslang's own OpName ("helper(f1;") works too.
        self.assertEqual(len(self.cfg("two.frag", "--function", "helper(f1;").block_nodes()),
                         len(helper.block_nodes()))
        # helper is called with a divergent argument: its if is divergent.
        self.assertTrue(any(n["attrs"].get("color") == MARK
                            for n in helper.block_nodes().values()))

    def test_unknown_function(self):
        code, out, err = self.conv("cfg", "two.frag", "--function", "nope")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertIn("no function named 'nope'", err)


class OutputAndErrorsTest(CfgTestCase):
    @unittest.skipUnless(shutil.which("dot"), "Graphviz' dot is not installed")
    def test_svg(self):
        code, out, err = self.conv("cfg", BRANCHES_LOOPS, "--format", "svg", "-o", "out.svg")
        self.assertEqual((code, out, err), (0, "", ""))
        root = ElementTree.parse(self.path("out.svg")).getroot()
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        with open(self.path("out.svg")) as f:
            text = f.read()
        self.assertIn("outer_header", text)
        self.assertIn(FILL["divergent"].lower(), text.lower())

    def test_svg_without_graphviz(self):
        empty = self.path("empty-path")
        os.mkdir(empty)
        code, out, err = self.conv("cfg", BRANCHES_LOOPS, "--format", "svg", "-o", "out.svg",
                                   env=dict(os.environ, PATH=empty))
        self.assertEqual(code, 2)
        self.assertIn("graphviz", err.lower())
        self.assertFalse(os.path.exists(self.path("out.svg")))
        # DOT needs no Graphviz.
        code, out, err = self.conv("cfg", BRANCHES_LOOPS, env=dict(os.environ, PATH=empty))
        self.assertEqual(code, 0, err)
        self.assertTrue(out.startswith("digraph"))

    def test_output_file(self):
        code, out, err = self.conv("cfg", BRANCHES_LOOPS, "-o", "out.dot")
        self.assertEqual((code, out, err), (0, "", ""))
        with open(self.path("out.dot")) as f:
            Graph(f.read())
        code, _, err = self.conv("cfg", "out.dot", "-o", "out.dot")
        self.assertEqual(code, 2, err)

    def test_bad_input(self):
        self.write("garbage.spv", "not a module at all")
        self.write("broken.frag", "#version 450\nvoid main() { undeclared; }\n")
        for args in (["missing.spv"], ["garbage.spv"], ["broken.frag"],
                     [BRANCHES_LOOPS, "--format", "png"], [BRANCHES_LOOPS, "--bogus"]):
            code, out, err = self.conv("cfg", *args)
            self.assertEqual(code, 2, args)
            self.assertEqual(out, "", args)
            self.assertTrue(err, args)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--spirv-conv", required=True)
    args, rest = parser.parse_known_args()
    global SPIRV_CONV
    SPIRV_CONV = os.path.abspath(args.spirv_conv)
    if not os.access(SPIRV_CONV, os.X_OK):
        sys.exit("cfg_test: error: spirv-conv '%s' is not an executable" % args.spirv_conv)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
