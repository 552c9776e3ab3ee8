#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Differential test of `spirv-conv uniformity` against LLVM 19's UniformityAnalysis.

  differential_test.py --spirv-conv PATH [--cases 500] [--seed 1] [--jobs 2] [--cycle-shapes]

gen_cfg.py turns each seed into one random function, written both as an
AMDGPU kernel in LLVM IR and as a SPIR-V Kernel, with the same value and block
names. LLVM (`opt -passes='print<uniformity>'`) is the oracle; every named
value and every branch is compared with spirv-conv's JSON report.

Differences are sorted into categories, each checked independently on the
generated program by a small reference analysis written from the definitions
of LLVM's "Convergence and Uniformity" ("the document" below; Model below:
brute-force joins, cycle hierarchies, the simplified diverged-entry
criterion, temporal divergence), never by trusting spirv-conv:

  spirv-conv uniform, LLVM divergent
    invariant-chain(-propagated)  a value LLVM taints only because it lies in
                              (or depends on a value in) a cycle assumed
                              divergent, though it is computed from uniform
                              values defined outside the cycle
    other-cycle-header        uniform under spirv-conv's choice of cycle headers
    llvm-conservative         uniform by the document's rules under LLVM's own
                              hierarchy (LLVM's join propagation is coarser)
    join-same-value(-propagated)  a phi at a join whose incoming values on
                              every edge the diverged threads can arrive on
                              are one value, seen through single-value phis
                              (LLVM only exempts phis with a single incoming
                              value overall)
    anything else             FAILURE (spirv-conv would be unsound)

  spirv-conv divergent, LLVM uniform
    llvm19-missed-join        a phi at a join of a divergent branch that
                              LLVM 19 misses (issue #137277, early stop)
    llvm19-exit-join          the same at a block outside a cycle that the
                              diverged paths leave (PR #216296)
    llvm19-...(propagated)    a value or branch that depends on one of those
    conservative:<reason>     spirv-conv's documented conservative choices
                              (diverged-entry-through-header: a cycle made not
                              m-converged by a join of CFG paths that pass a
                              cycle header, as the document's closed-path
                              criterion asks; LLVM's joins skip such paths)
    anything else             FAILURE (unexplained imprecision)

Control flow, which LLVM does not report, is checked against the document's
maximal convergence given spirv-conv's own divergent branches and assumed
cycles (compare_flow): a block whose instances threads split at a divergent
branch can execute apart must not be called uniform (FAIL-unsound-flow).

docs/differential.md describes every category and the measured counts.

A difference that only appears in the batched module but not when the case is
run alone is also a failure. Failing cases are written, one function each, to
a temporary directory (or --keep-dir) as case-<seed>.ll / case-<seed>.spvasm.

Exit code: 0 when there is no FAILURE, 1 otherwise, 2 for a usage or tool error.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_cfg  # noqa: E402

DEFAULT_OPT = "/usr/lib/llvm-19/bin/opt"
TIMEOUT = 120


# --------------------------------------------------------------------------
# Running the two analyses
# --------------------------------------------------------------------------

class ToolError(Exception):
    pass


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=TIMEOUT)
    return p.returncode, p.stdout, p.stderr


class LlvmFunction:
    def __init__(self, name):
        self.name = name
        self.values = {}          # value name -> divergent (bool)
        self.blocks = {}          # block name -> divergent terminator (bool)
        self.assumed = []         # [(entries list, set of blocks)]
        self.divergent_exit = []  # [(entries list, set of blocks)]
        self.all_uniform = False


CYCLE_RE = re.compile(r"^\s*depth=(\d+): entries\(([^)]*)\)(.*)$")
DEF_RE = re.compile(r"^(  DIVERGENT: |\s{2})\s*%([\w.]+) = ")


def parse_llvm(text):
    """Parses print<uniformity> output into {function name: LlvmFunction}."""
    funcs = {}
    cur = None
    section = None
    block = None
    for line in text.splitlines():
        m = re.match(r"^UniformityInfo for function '([^']+)':", line)
        if m:
            cur = funcs[m.group(1)] = LlvmFunction(m.group(1))
            section = block = None
            continue
        if cur is None:
            continue
        if line.startswith("ALL VALUES UNIFORM"):
            cur.all_uniform = True
            continue
        if line.startswith("CYCLES ASSSUMED DIVERGENT") or line.startswith("CYCLES ASSUMED DIVERGENT"):
            section = "assumed"
            continue
        if line.startswith("CYCLES WITH DIVERGENT EXIT"):
            section = "exit"
            continue
        m = CYCLE_RE.match(line)
        if m and section in ("assumed", "exit"):
            entries = m.group(2).split()
            blocks = set(entries) | set(m.group(3).split())
            (cur.assumed if section == "assumed" else cur.divergent_exit).append((entries, blocks))
            continue
        if line.startswith("BLOCK "):
            block = line.split()[1]
            cur.blocks[block] = False
            section = None
            continue
        if line.startswith("DEFINITIONS"):
            section = "defs"
            continue
        if line.startswith("TERMINATORS"):
            section = "terms"
            continue
        if line.startswith("END BLOCK"):
            section = block = None
            continue
        if section == "defs":
            m = DEF_RE.match(line)
            if m:
                cur.values[m.group(2)] = m.group(1).startswith("  DIVERGENT")
        elif section == "terms" and line.strip():
            if line.startswith("  DIVERGENT:"):
                cur.blocks[block] = True
    return funcs


def run_llvm(opt, ll_path):
    code, _, err = run([opt, "-mtriple", "amdgcn--", "-passes=print<uniformity>",
                        "-disable-output", ll_path])
    if code != 0:
        raise ToolError("%s failed on %s (exit %d):\n%s" % (opt, ll_path, code, err[-3000:]))
    return parse_llvm(err)


class ConvFunction:
    def __init__(self, name):
        self.name = name
        self.values = {}   # value name -> level
        self.blocks = {}   # block name -> divergent_branch (bool)
        self.flow = {}     # block name -> control_flow_level
        self.cycles = []   # [{"header": name, "blocks": [names], "assumed": bool}]


def run_spirv_conv(exe, asm_path, target_env):
    cmd = [exe, "uniformity", asm_path, "--format", "json"]
    if target_env:
        cmd += ["--target-env", target_env]
    code, out, err = run(cmd)
    if code != 0:
        raise ToolError("spirv-conv failed on %s (exit %d):\n%s" % (asm_path, code, err[-3000:]))
    try:
        doc = json.loads(out)
    except ValueError as e:
        raise ToolError("spirv-conv printed invalid JSON for %s: %s\n%s" % (asm_path, e, out[:2000]))
    funcs = {}
    for fn in doc.get("functions", []):
        name = fn.get("name")
        if name is None:
            continue
        cf = funcs[name] = ConvFunction(name)
        for v in fn.get("values", []):
            if v.get("name"):
                cf.values[v["name"]] = v["level"]
        ids = {}
        for b in fn.get("blocks", []):
            ids[b["id"]] = b.get("name")
            if b.get("name"):
                cf.blocks[b["name"]] = bool(b.get("divergent_branch"))
                cf.flow[b["name"]] = b.get("control_flow_level")
        for c in fn.get("cycles", []):
            cf.cycles.append({"header": ids.get(c["header"]),
                              "blocks": [ids.get(x) for x in c["blocks"]],
                              "assumed": c.get("assumed_divergent", "uniform") != "uniform"})
    return funcs


# --------------------------------------------------------------------------
# Independent facts about one generated function
# --------------------------------------------------------------------------

class FlowNetwork:
    """A flow network for the brute-force path questions of Facts: node
    splitting turns vertex-disjoint paths into a flow of integral units."""

    def __init__(self):
        self.cap = collections.defaultdict(int)
        self.adj = collections.defaultdict(set)

    def edge(self, u, v, c):
        self.cap[(u, v)] += c
        self.adj[u].add(v)
        self.adj[v].add(u)

    def max_flow(self, src, sink, limit):
        """The maximum flow from `src` to `sink`, found up to `limit`
        (Edmonds-Karp: shortest augmenting paths)."""
        cap, adj = self.cap, self.adj
        flow = 0
        while flow < limit:
            parent = {src: None}
            queue = collections.deque([src])
            while queue and sink not in parent:
                u = queue.popleft()
                for v in adj[u]:
                    if v not in parent and cap[(u, v)] > 0:
                        parent[v] = u
                        queue.append(v)
            if sink not in parent:
                break
            v = sink
            while parent[v] is not None:
                u = parent[v]
                cap[(u, v)] -= 1
                cap[(v, u)] += 1
                v = u
            flow += 1
        return flow


class Facts:
    """Structural facts of a generated Function, computed here in Python."""

    def __init__(self, f):
        self.f = f
        self.succ = f.succ_map()
        self.preds = f.preds()
        self.dom = gen_cfg.dominators("bb0", self.succ)
        self.defs = f.defs()  # value name -> (block, Inst)
        self.branch_cond = {}  # block -> condition value name
        for n in f.order:
            t = f.blocks[n].term
            if t[0] in ("condbr", "switch"):
                self.branch_cond[n] = t[1]
        self.loops = self._natural_loops()
        self._join_cache = {}
        self._exit_cache = {}
        self._reach = {}

    def _natural_loops(self):
        """header -> set of blocks, for every natural loop (back edge to a dominator)."""
        loops = {}
        for t in self.f.order:
            for h in self.succ[t]:
                if h in self.dom[t]:
                    body = loops.setdefault(h, {h})
                    stack = [t]
                    while stack:
                        x = stack.pop()
                        if x not in body:
                            body.add(x)
                            stack.extend(self.preds[x])
        return loops

    def exit_edges_meet(self, cycle, join):
        """Whether two different edges leaving `cycle` reach `join` (outside
        it) along paths that share only `join`."""
        key = ("meet", cycle, join)
        if key in self._exit_cache:
            return self._exit_cache[key]
        net = FlowNetwork()
        edge = net.edge

        src, sink = ("S", "n"), (join, "out")
        for n in self.f.order:
            if n in cycle:
                for k, s in enumerate(self.succ[n]):
                    if s not in cycle:
                        e = ("edge", n, k)
                        edge(src, e, 1)
                        edge(e, (s, "in"), 1)
                continue
            edge((n, "in"), (n, "out"), 2 if n == join else 1)
            if n != join:
                for s in self.succ[n]:
                    if s not in cycle:
                        edge((n, "out"), (s, "in"), 1)
        found = net.max_flow(src, sink, 2) >= 2
        self._exit_cache[key] = found
        return found

    def reaches(self, a, b):
        if b is None:
            return True
        if a not in self._reach:
            seen, stack = {a}, [a]
            while stack:
                for s in self.succ[stack.pop()]:
                    if s not in seen:
                        seen.add(s)
                        stack.append(s)
            self._reach[a] = seen
        return b in self._reach[a]

    def divergent_exit(self, cycle, branch, use, header=None):
        """Whether threads that split at `branch` (inside `cycle`) can reach
        `use` (outside it) after leaving the cycle on different iterations:
        one successor leaves the cycle, towards `use`, without passing its
        header again (it exits in this iteration) while another reaches the
        header (it starts the next one), along disjoint paths. Without a
        header every entry is tried."""
        key = (cycle, branch, use, header)
        if key in self._exit_cache:
            return self._exit_cache[key]
        succs = list(dict.fromkeys(self.succ[branch]))
        entries = [header] if header else \
            [n for n in sorted(cycle) if n == "bb0" or any(p not in cycle for p in self.preds[n])]
        found = False
        for header in entries:
            for i in range(len(succs)):
                for k in range(len(succs)):
                    if i != k and succs[k] in cycle and \
                            self._leave_and_return(cycle, branch, header, succs[i], succs[k], use):
                        found = True
                        break
                if found:
                    break
            if found:
                break
        self._exit_cache[key] = found
        return found

    def _leave_and_return(self, cycle, branch, header, out_start, back_start, use):
        # Max flow on split vertices inside the cycle. OUT collects the edges
        # leaving the cycle; the header is only a sink; each sink takes one unit.
        net = FlowNetwork()
        edge = net.edge

        out, sink, src = ("OUT", "n"), ("T", "n"), ("S", "n")
        edge(out, sink, 1)
        edge((header, "in"), sink, 1)
        for n in cycle:
            if n == header or n == branch:
                continue
            edge((n, "in"), (n, "out"), 1)
            for s in self.succ[n]:
                if s == branch and s != header:
                    continue
                if s in cycle:
                    edge((n, "out"), (s, "in"), 1)
                elif self.reaches(s, use):
                    edge((n, "out"), out, 1)
        for start in (out_start, back_start):
            if start == branch and start != header:
                return False
            if start in cycle:
                edge(src, (start, "in"), 1)
            elif self.reaches(start, use):
                edge(src, out, 1)
        return net.max_flow(src, sink, 2) >= 2

    # -- joins by brute force --------------------------------------------------

    def _disjoint_paths(self, starts, target, removed):
        """Two internally vertex-disjoint paths from the two `starts` to `target`
        in the CFG minus `removed` (unit vertex capacities, max flow of 2)."""
        s1, s2 = starts
        if s1 == target and s2 == target:
            return False
        # Node splitting: n_in -> n_out (capacity 1; the target is unbounded).
        net = FlowNetwork()
        edge = net.edge

        for n in self.f.order:
            if n in removed:
                continue
            edge((n, "in"), (n, "out"), 2 if n == target else 1)
            if n == target:
                continue
            for s in self.succ[n]:
                if s not in removed:
                    edge((n, "out"), (s, "in"), 1)
        src, sink = ("S", "x"), (target, "out")
        edge(src, (s1, "in"), 1)
        edge(src, (s2, "in"), 1)
        return net.max_flow(src, sink, 2) >= 2

    def joins(self, branch, hierarchy=None, open_paths=False):
        """Join blocks of the branch in `branch`, per the document's definition: a
        block reachable from two different successors along paths that share
        only the branch and the join. One refinement keeps joins within one
        iteration of a cycle: a path may not pass through the header of a
        cycle that contains both the branch and the join unless the join is
        that header (threads that pass a header start a new iteration, so
        they do not meet the others' instances of the join). The cycles are
        those of `hierarchy`, or the natural loops without one. With
        `open_paths` the refinement is off: the joins of paths in the CFG,
        which the diverged-entry criterion is about (the document: the diverged
        path Q -> R -> S passes the header R)."""
        key = (branch, id(hierarchy), open_paths)
        if key in self._join_cache:
            return self._join_cache[key]
        if hierarchy is None:
            around = [(h, body) for h, body in self.loops.items()]
        else:
            around = [(c.header, c.blocks) for c in hierarchy.cycles]
        succs = list(dict.fromkeys(self.succ[branch]))
        out = set()
        for j in self.f.order:
            if j == "bb0":
                continue
            removed = {branch}
            for h, body in around:
                if not open_paths and branch in body and j in body and j != h:
                    removed.add(h)
            found = False
            for i in range(len(succs)):
                for k in range(i + 1, len(succs)):
                    a, b = succs[i], succs[k]
                    if (a in removed and a != j) or (b in removed and b != j):
                        continue
                    if self._disjoint_paths((a, b), j, removed - {j}):
                        found = True
                        break
                if found:
                    break
            if found:
                out.add(j)
        self._join_cache[key] = out
        return out

    def splits_instance(self, branch, block, hierarchy):
        """Whether threads that split at `branch` can execute different
        dynamic instances of `block` (the document, maximal convergence): one
        successor reaches `block` while another reaches an end of that
        instance without it, along disjoint paths (so that the two groups
        decide independently). The instance is the current iteration of
        every cycle (of `hierarchy`) that contains both; its ends are a block
        from which `block` cannot be reached (a return among them), the
        header of such a cycle other than `block` (the next iteration), and a
        block outside the innermost such cycle (left on this iteration: it
        comes back only through an outer header). Paths do not pass the
        branch again; a switch naming one block twice has that successor
        once."""
        key = ("split", branch, block, id(hierarchy))
        if key in self._join_cache:
            return self._join_cache[key]
        succs = list(dict.fromkeys(self.succ[branch]))
        around = [c for c in hierarchy.cycles if branch in c.blocks and block in c.blocks]
        inner = max(around, key=lambda c: c.depth) if around else None
        heads = {c.header for c in around} - {block}

        def end(n):
            return n != block and (not self.reaches(n, block) or n in heads or
                                   (inner is not None and n not in inner.blocks))

        net = FlowNetwork()
        edge = net.edge

        src, sink, ends = ("S", "n"), ("T", "n"), ("E", "n")
        edge((block, "in"), sink, 1)
        edge(ends, sink, 1)
        for n in self.f.order:
            if n == branch or n == block:
                continue
            edge((n, "in"), (n, "out"), 1)
            if end(n):
                edge((n, "out"), ends, 1)
                continue
            for t in self.succ[n]:
                if t != branch:
                    edge((n, "out"), (t, "in"), 1)
        for t in succs:
            if t != branch:
                edge(src, (t, "in"), 1)
        found = len(succs) >= 2 and net.max_flow(src, sink, 2) >= 2
        self._join_cache[key] = found
        return found

    def same_on_diverged_edges(self, phi, branch, join, hierarchy):
        """Whether `phi` (in `join`) takes one value on every edge that
        threads diverged at `branch` can arrive on converged: the edges from
        blocks reachable from the branch's successors without passing the
        join or the header of a cycle (of `hierarchy`) that contains both
        (threads passing it are on another iteration, as in joins()), and
        from the branch itself. This is a superset of the edges on diverged
        paths. Undefined incoming values do not count."""
        removed = {join}
        for c in hierarchy.cycles:
            if branch in c.blocks and join in c.blocks and join != c.header:
                removed.add(c.header)
        seen, stack = set(), [s for s in self.succ[branch] if s not in removed]
        seen.update(stack)
        while stack:
            for s in self.succ[stack.pop()]:
                if s not in removed and s not in seen:
                    seen.add(s)
                    stack.append(s)
        values = {self.resolved(o) for p, o in phi.incoming
                  if (p in seen or p == branch) and o.kind != "undef"}
        return len(values) <= 1

    def resolved(self, operand, visiting=frozenset()):
        """(kind, value) of `operand`, seen through trivial phis (SSA
        construction's: a phi whose operands, themselves seen through
        trivial phis and apart from the phi itself, are one value is that
        value), so a join of `x` and `phi [x], [phi [x]]` joins one value."""
        if operand.kind != "val" or operand.value not in self.defs:
            return (operand.kind, operand.value)
        inst = self.defs[operand.value][1]
        if inst.kind != "phi" or inst.name in visiting:
            return (operand.kind, operand.value)
        inner = visiting | {inst.name}
        values = {self.resolved(o, inner) for o in inst.operands()}
        values.discard(("val", inst.name))
        if len(values) == 1 and ("undef", None) not in values:
            return next(iter(values))
        return (operand.kind, operand.value)

    def exits_cycle(self, branch, join):
        """Whether `join` lies outside some natural loop or cyclic SCC containing `branch`."""
        for body in self.loops.values():
            if branch in body and join not in body:
                return True
        for comp in gen_cfg.cyclic_sccs(self.f.order, self.succ):
            if branch in comp and join not in comp:
                return True
        return False


def is_single_value_phi(inst):
    """A phi that merges one value only (references to the phi itself aside),
    the phis LLVM does not taint at joins (PHINode::hasConstantOrUndefValue).
    Such a phi equals that value whichever edge was taken."""
    if inst.kind != "phi":
        return False
    ops = {(o.kind, o.value) for o in inst.operands()} - {("val", inst.name)}
    return len(ops) == 1


# --------------------------------------------------------------------------
# Comparison and classification of one case
# --------------------------------------------------------------------------

class CaseResult:
    def __init__(self, seed):
        self.seed = seed
        self.compared_values = 0
        self.compared_branches = 0
        self.compared_flow = 0
        self.categories = collections.Counter()
        self.failures = []     # (item, message)
        self.notes = []        # (category, item, message) for listed differences
        self.suspects = []     # both analyses uniform, the document's join rule says divergent
        self.features = set()


class Cycle:
    def __init__(self, blocks, header, entries, parent):
        self.blocks = blocks        # frozenset
        self.header = header
        self.entries = entries      # sorted list, header included
        self.parent = parent        # Cycle or None
        self.depth = 1 if parent is None else parent.depth + 1
        self.reducible = len(entries) == 1


class Hierarchy:
    """A cycle hierarchy of the CFG (the document, "cycles"): the top-level cycles
    are its maximal strongly connected regions, each has a header chosen
    among its entries, and the children of a cycle are the cycles of what
    remains once its header is taken out. `choose(blocks, entries)` picks the
    header (None: no valid choice, which marks the hierarchy invalid)."""

    def __init__(self, facts, choose):
        self.facts = facts
        self.cycles = []
        self.valid = True
        self._build(frozenset(facts.f.order), None, choose)

    def _build(self, nodes, parent, choose):
        facts = self.facts
        for comp in gen_cfg.cyclic_sccs(sorted(nodes), facts.succ):
            comp = frozenset(comp)
            entries = sorted(n for n in comp if n == "bb0" or any(p not in comp for p in facts.preds[n]))
            header = choose(comp, entries)
            if header not in entries:
                self.valid = False
                header = entries[0]
            c = Cycle(comp, header, entries, parent)
            self.cycles.append(c)
            self._build(comp - {header}, c, choose)

    def containing(self, block):
        """The cycles containing `block`, outermost first."""
        return sorted((c for c in self.cycles if block in c.blocks), key=lambda c: c.depth)

    @staticmethod
    def llvm_like(facts):
        """The hierarchy LLVM's CycleInfo builds: the header of a cycle is its
        entry visited first by a depth-first search from the entry block (as
        measured, LLVM 19's search visits the last successor first)."""
        order = {}
        stack = ["bb0"]
        while stack:
            node = stack.pop()
            if node in order:
                continue
            order[node] = len(order)
            stack.extend(s for s in facts.succ[node] if s not in order)
        return Hierarchy(facts, lambda comp, entries: min(entries, key=lambda n: order[n]))

    @staticmethod
    def from_report(facts, cycles):
        """The hierarchy spirv-conv reports: each strongly connected region
        must be one of its cycles, and its header is taken from there."""
        by_blocks = {frozenset(c["blocks"]): c["header"] for c in cycles}
        return Hierarchy(facts, lambda comp, entries: by_blocks.get(comp))


class Model:
    """An independent reference analysis of one generated function, written
    from the document's definitions and checked by brute force on the small CFG,
    for one cycle hierarchy:

      * the work-item id is divergent; a value with a divergent operand is
        divergent (phis: a divergent incoming value);
      * a phi at a join of a divergent branch is divergent (Facts.joins),
        unless it merges a single value;
      * a use outside a cycle of a value defined inside it is divergent when
        the cycle has a divergent exit towards the use (Facts.divergent_exit):
        temporal divergence;
      * a cycle is not m-converged (assumed divergent) when a divergent
        branch inside it has a join that neither the branch nor the header of
        the smallest cycle around both strictly dominates (the simplified
        diverged-entry criterion, widened to outer cycles whose header does
        not dominate the join either), or when a divergent branch outside an
        irreducible cycle has a join inside it (diverged paths reaching the
        cycle); every def in such a cycle is divergent. With
        exempt_invariant, a non-phi def whose operands are uniform values
        from outside the cycle (or such defs) is not: its value depends
        neither on the iteration nor on the path through the cycle.

    With `llvm` (parsed LLVM output), the cycles LLVM lists as assumed
    divergent or with a divergent exit are added, so that the model should
    reproduce LLVM except where brute force finds joins or divergent exits
    that LLVM 19 misses. `why` records for each divergent value the first
    reason found: ('source',), ('data', operand), ('join' | 'exit-join',
    branch block), ('temporal', cycle blocks), ('cycle', cycle blocks)."""

    def __init__(self, facts, hierarchy, exempt_invariant, llvm=None, exempt_phis=True,
                 exit_edge_joins=False, temporal_any_exit=False, self_ref_phis_merge=False,
                 join_same_value=False, open_entry=False):
        self.facts = facts
        self.hier = hierarchy
        self.exempt = exempt_invariant
        self.exempt_phis = exempt_phis
        self.exit_edge_joins = exit_edge_joins
        self.temporal_any_exit = temporal_any_exit
        self.self_ref_phis_merge = self_ref_phis_merge
        self.join_same_value = join_same_value
        self.open_entry = open_entry
        self.open_entry_cycles = set()  # cycles only joins of paths through a header make so
        self.llvm_assumed = [frozenset(b) for _, b in llvm.assumed] if llvm else []
        self.llvm_exit = [frozenset(b) for _, b in llvm.divergent_exit] if llvm else []
        self.div = {"tid"}
        self.why = {"tid": ("source",)}
        self.brs = set()
        self.not_m = set()   # frozensets of blocks of cycles assumed divergent
        self.exit_edge_cycles = set()  # of those, the ones only an exit-edge join makes so
        self._solve()

    def _solve(self):
        f = self.facts.f
        changed = True
        while changed:
            changed = False
            not_m = self._not_m_converged()
            if not_m != self.not_m:
                self.not_m = not_m
                changed = True
            for bname in f.rpo:
                for inst in f.blocks[bname].defs():
                    if inst.name in self.div:
                        continue
                    r = self._reason(inst, bname)
                    if r:
                        self.div.add(inst.name)
                        self.why[inst.name] = r
                        changed = True
                cond = self.facts.branch_cond.get(bname)
                if cond and cond in self.div and bname not in self.brs:
                    self.brs.add(bname)
                    changed = True

    def _sdom(self, a, b):
        return a != b and a in self.facts.dom[b]

    def _exit_edge_joins(self, b):
        """With exit_edge_joins: blocks outside a cycle that b leaves
        divergently, reached by two different edges leaving that cycle."""
        out = set()
        if self.exit_edge_joins:
            for c in self.hier.containing(b):
                if self.facts.divergent_exit(c.blocks, b, None, c.header):
                    out |= {j for j in self.facts.f.order
                            if j not in c.blocks and self.facts.exit_edges_meet(c.blocks, j)}
        return out

    def _not_m_converged(self):
        out = set(self.llvm_assumed)
        self.open_entry_cycles = set()
        for b in self.brs:
            extra = self._exit_edge_joins(b)
            closed = self.facts.joins(b, self.hier) | extra
            opened = (self.facts.joins(b, self.hier, open_paths=True) - closed
                      if self.open_entry else set())
            for j in closed | opened:
                chain = self.hier.containing(j)
                common = [c for c in chain if b in c.blocks]
                chosen = None
                if common:
                    c = common[-1]
                    if not c.reducible and not self._sdom(b, j) and not self._sdom(c.header, j):
                        while c.parent is not None and not self._sdom(c.parent.header, j):
                            c = c.parent
                        chosen = c
                if chosen is None and len(chain) > len(common):
                    ext = chain[len(common)]  # outermost cycle around the join without the branch
                    if not ext.reducible:
                        chosen = ext
                if chosen is not None:
                    if j in opened and chosen.blocks not in out:
                        self.open_entry_cycles.add(chosen.blocks)
                    elif j not in opened:
                        self.open_entry_cycles.discard(chosen.blocks)
                    out.add(chosen.blocks)
                    if j in extra and j not in self.facts.joins(b, self.hier):
                        self.exit_edge_cycles.add(chosen.blocks)
        return out

    def _tainting_cycles(self, block):
        return [c for c in self.not_m if block in c]

    def invariant(self, x, cycle):
        """x (in cycle) is a non-phi def, or a (trivial) phi that merges a single value,
        computed only from constants, arguments, values from outside `cycle`
        that are uniform where x uses them, and other such defs. (These defs
        cannot depend on themselves in SSA form, so the recursion ends.)"""
        block, inst = self.facts.defs[x]
        ops = inst.operands()
        if inst.kind == "phi":
            # A phi that merges one value (seen through trivial phis,
            # Facts.resolved) is a copy of it.
            value = self.facts.resolved(gen_cfg.Operand("val", x))
            if not self.exempt_phis or value == ("val", x):
                return False
            ops = [gen_cfg.Operand(*value)]
        for op in ops:
            if op.kind in ("const", "arg"):
                continue
            if op.kind == "tid":
                return False
            y = op.value
            if self.facts.defs[y][0] in cycle:
                if not self.invariant(y, cycle):
                    return False
            elif self.divergent_use(op, block):
                return False
        return True

    def divergent_use(self, op, use_block):
        # A trivial phi is the value it stands for (Facts.resolved), at its
        # definition and at every use: spirv-conv reads it so.
        op = gen_cfg.Operand(*self.facts.resolved(op))
        if op.kind in ("const", "arg"):
            return None
        if op.kind == "tid":
            return ("data", "tid")
        y = op.value
        if y in self.div:
            return ("data", y)
        return self.temporal(y, use_block)

    def temporal(self, y, use_block):
        facts = self.facts
        dblock = facts.defs[y][0]
        for c in self.llvm_exit + self.llvm_assumed:
            if dblock in c and use_block not in c:
                if not (self.exempt and self.invariant(y, c)):
                    return ("temporal", c)
        for c in self.hier.containing(dblock):
            if use_block in c.blocks:
                continue
            towards = None if self.temporal_any_exit else use_block
            if any(facts.divergent_exit(c.blocks, b, towards, c.header) for b in self.brs & c.blocks):
                if not (self.exempt and self.invariant(y, c.blocks)):
                    return ("temporal-any-exit" if self.temporal_any_exit and not any(
                        facts.divergent_exit(c.blocks, b, use_block, c.header)
                        for b in self.brs & c.blocks) else "temporal", c.blocks)
        return None

    def _reason(self, inst, block):
        facts = self.facts
        cycles = self._tainting_cycles(block)
        if inst.kind == "phi":
            if cycles and not (self.exempt and all(self.invariant(inst.name, c) for c in cycles)):
                return ("cycle", cycles[0])
            single = is_single_value_phi(inst)
            if self.self_ref_phis_merge and single and \
                    any(o.kind == "val" and o.value == inst.name for o in inst.operands()):
                # spirv-conv compares incoming ids without skipping the phi itself.
                for b in sorted(self.brs):
                    if block in facts.joins(b, self.hier):
                        return ("self-phi-join", b)
            if not single:
                for b in sorted(self.brs):
                    if block in facts.joins(b, self.hier):
                        if self.join_same_value and \
                                facts.same_on_diverged_edges(inst, b, block, self.hier):
                            continue
                        return ("exit-join" if facts.exits_cycle(b, block) else "join", b)
                for b in sorted(self.brs):
                    if block in self._exit_edge_joins(b):
                        return ("exit-edges", b)
            for _, op in inst.incoming:
                if op.kind == "val" and op.value == inst.name:
                    continue
                r = self.divergent_use(op, block)
                if r:
                    return r
            return None
        if cycles and not (self.exempt and all(self.invariant(inst.name, c) for c in cycles)):
            return ("cycle", cycles[0])
        for op in inst.operands():
            r = self.divergent_use(op, block)
            if r:
                return r
        return None

    def explain(self, x):
        chain = []
        while x and len(chain) < 6:
            r = self.why.get(x)
            if r is None:
                break
            if r[0] == "data":
                chain.append("%s <- data %s" % (x, r[1]))
                x = r[1] if r[1] != "tid" else None
            elif r[0] in ("join", "exit-join", "exit-edges", "self-phi-join"):
                chain.append("%s <- %s of branch %s" % (x, r[0], r[1]))
                x = self.facts.branch_cond[r[1]]
            else:
                chain.append("%s <- %s (cycle %s)" % (x, r[0], " ".join(sorted(r[1]))))
                break
        return "; ".join(chain)

    def root(self, x, llvm):
        """Follows `why` from x back to the first value this model calls
        divergent for a reason of its own (a join, a divergent exit, a cycle)
        while LLVM calls it uniform. Returns (root value, reason) or None."""
        seen = set()
        while x not in seen:
            seen.add(x)
            r = self.why.get(x)
            if r is None:
                return None
            if r[0] == "data":
                y = r[1]
                if y == "tid" or llvm.values.get(y):
                    return None
                x = y
                continue
            if r[0] in ("join", "exit-join", "exit-edges", "self-phi-join"):
                b = r[1]
                if llvm.blocks.get(b):
                    return (x, r[0])
                x = self.facts.branch_cond[b]  # the branch is divergent only here
                continue
            return (x, r[0])
        return None


def compare(seed, f, llvm, conv):
    """Compares one function; returns a CaseResult."""
    res = CaseResult(seed)
    facts = Facts(f)
    if llvm.assumed:
        res.features.add("assumed-divergent-cycle")
    if llvm.divergent_exit:
        res.features.add("divergent-exit-cycle")
    for comp in gen_cfg.cyclic_sccs(f.order, facts.succ):
        entries = {n for n in comp if any(p not in comp for p in facts.preds[n])}
        if len(entries) > 1:
            res.features.add("irreducible")

    names = [i.name for b in f.rpo for i in f.blocks[b].defs()]  # operands before users, mostly
    conv_div = {}
    for v in names + ["tid"]:
        if v not in conv.values:
            res.failures.append((v, "value %s missing from spirv-conv's report" % v))
            continue
        conv_div[v] = conv.values[v] == "divergent"
    if llvm.all_uniform:
        llvm.values = {v: False for v in names + ["tid"]}
        llvm.blocks = {b: False for b in f.order}
    for v in names + ["tid"]:
        if v not in llvm.values:
            res.failures.append((v, "value %s missing from LLVM's output" % v))
    for b in f.order:
        if b not in conv.blocks:
            res.failures.append((b, "block %s missing from spirv-conv's report" % b))
        elif conv.flow.get(b) is None:
            res.failures.append((b, "block %s has no control_flow_level" % b))
        if b not in llvm.blocks:
            res.failures.append((b, "block %s missing from LLVM's output" % b))
    llvm_hier = Hierarchy.llvm_like(facts)
    conv_hier = Hierarchy.from_report(facts, conv.cycles)
    if not conv_hier.valid or len(conv_hier.cycles) != len(conv.cycles):
        res.failures.append(("cycles", "spirv-conv's cycles are not a cycle hierarchy of this CFG"))
    for entries, blocks in llvm.assumed + llvm.divergent_exit:
        if not any(c.blocks == frozenset(blocks) and c.header == entries[0] for c in llvm_hier.cycles):
            res.categories["model: LLVM cycle not in the emulated hierarchy"] += 1
    if res.failures:
        return res

    m_llvm = Model(facts, llvm_hier, False, llvm)     # LLVM's rules and lists, brute-force joins
    m_llvm_inv = Model(facts, llvm_hier, True, llvm)  # ... with invariant values uniform
    m_conv = Model(facts, conv_hier, True)            # the document's rules under spirv-conv's hierarchy
    # ... where a phi at a join takes one value on every diverged edge
    m_conv_same = Model(facts, conv_hier, True, join_same_value=True)
    # spirv-conv's documented conservative choices (docs/uniformity.md): phis
    # are never invariant, and once a cycle has a divergent exit every edge
    # leaving it counts as a definition of its own.
    m_cons = Model(facts, conv_hier, True, exempt_phis=False, exit_edge_joins=True,
                   temporal_any_exit=True, self_ref_phis_merge=True, open_entry=True)
    for v in names:
        if llvm.values[v] and v not in m_llvm.div:
            res.categories["model: LLVM divergent, model uniform"] += 1
        elif not llvm.values[v] and v in m_llvm.div:
            res.categories["model: model divergent, LLVM 19 uniform"] += 1

    def classify_under(x):
        """spirv-conv not divergent, LLVM divergent: a category or None."""
        if x == "tid":
            return None
        if x not in m_llvm.div:
            # The document's rules under LLVM's own cycle hierarchy give uniform:
            # LLVM's label propagation counts as joins blocks that threads
            # reach only across a cycle header or by passing the branch again.
            return "llvm-conservative"
        if x not in m_llvm_inv.div:
            return "invariant-chain" if m_llvm.why[x][0] == "cycle" else "invariant-chain-propagated"
        if x not in m_conv.div:
            # Uniform when the document's criteria are applied under spirv-conv's
            # own choice of cycle headers; a uniform result under one cycle
            # hierarchy holds under all (the document, "Static Uniformity Analysis").
            return "other-cycle-header"
        if x not in m_conv_same.div:
            # Threads that diverged at the branch arrive at the join only
            # along edges on which the phi takes one and the same value.
            kind = m_conv.why[x][0]
            return "join-same-value" if kind in ("join", "exit-join") else \
                "join-same-value(propagated)"
        return None

    def classify_over(x):
        """spirv-conv divergent, LLVM uniform: a category or None."""
        if x == "tid":
            return None
        if x in m_llvm.div:
            r = m_llvm.root(x, llvm)
            if r:
                root, kind = r
                cat = {"join": "llvm19-missed-join", "exit-join": "llvm19-exit-join",
                       "temporal": "llvm19-missed-divergent-exit",
                       "cycle": "llvm19-missed-cycle"}[kind]
                return cat if root == x else cat + "(propagated)"
        if x in m_cons.div:
            r = m_cons.root(x, llvm)
            if r:
                root, kind = r
                if kind == "cycle":
                    c = m_cons.why[root][1]
                    kind = "exit-edges" if c in m_cons.exit_edge_cycles else \
                        "open-entry" if c in m_cons.open_entry_cycles else \
                        "other-cycle-header" if c not in m_llvm.not_m else "phi-in-assumed-cycle"
                # Joins and divergent exits found only under spirv-conv's
                # choice of cycle headers count as that choice.
                cat = "conservative:" + {"exit-edges": "exit-edges-as-definitions",
                                         "self-phi-join": "single-value-phi",
                                         "temporal-any-exit": "temporal-any-exit",
                                         "open-entry": "diverged-entry-through-header",
                                         "phi-in-assumed-cycle": "phi-in-assumed-cycle"}.get(
                                             kind, "other-cycle-header")
                return cat if root == x else cat + "(propagated)"
        block, inst = facts.defs[x]
        for rule in CONSERVATIVE_RULES:
            r = rule(facts, llvm, conv_div, x, block, inst)
            if r:
                return "conservative:" + r
        return None

    fails = []
    over = {}  # spirv-conv divergent, LLVM uniform: value -> category (None: unexplained)
    for v in names + ["tid"]:
        res.compared_values += 1
        ld, cd = llvm.values[v], conv_div[v]
        if ld == cd:
            res.categories["agree"] += 1
            if not cd and v in m_llvm_inv.div and v in m_conv.div and v in m_conv_same.div:
                res.suspects.append((v, "both uniform; reference model: " + m_conv.explain(v)))
            continue
        if ld:
            cat = classify_under(v)
            if cat:
                res.categories[cat] += 1
                res.notes.append((cat, v, ""))
            else:
                res.categories["FAIL-unsound"] += 1
                why = ("reference model: " + m_conv.explain(v)) if v in m_llvm.div else \
                      "the reference model cannot explain LLVM's verdict"
                fails.append((v, "spirv-conv %s, LLVM DIVERGENT; %s" % (conv.values[v], why)))
        else:
            cat = classify_over(v)
            if not cat and v != "tid" and facts.defs[v][1].kind != "phi":
                # Divergent for spirv-conv only through operands whose
                # divergence is itself explained above.
                causes = [over.get(o.value) for o in facts.defs[v][1].operands()
                          if o.kind == "val" and conv_div.get(o.value)]
                if causes and all(causes):
                    cat = causes[0].split("(")[0] + "(propagated)"
            over[v] = cat
            if cat:
                res.categories[cat] += 1
                res.notes.append((cat, v, m_llvm.explain(v)))
            else:
                res.categories["FAIL-imprecise"] += 1
                fails.append((v, "spirv-conv divergent, LLVM uniform, no known reason"))

    for b in f.order:
        res.compared_branches += 1
        ld, cd = llvm.blocks[b], conv.blocks[b]
        cond = facts.branch_cond.get(b)
        if ld == cd:
            res.categories["agree-branch"] += 1
            if not cd and b in m_llvm_inv.brs and b in m_conv.brs:
                res.suspects.append((b, "both uniform branches; reference model: " +
                                     m_conv.explain(cond)))
            continue
        # A branch is divergent exactly when its condition is; its category is the condition's.
        if cond is None:
            res.categories["FAIL-branch"] += 1
            fails.append((b, "unconditional terminator reported divergent by %s" %
                          ("LLVM" if ld else "spirv-conv")))
            continue
        if ld:
            cat = classify_under(cond)
            if cat:
                res.categories[cat + "-branch"] += 1
            else:
                res.categories["FAIL-unsound-branch"] += 1
                fails.append((b, "branch on %s: spirv-conv uniform, LLVM DIVERGENT" % cond))
        else:
            if not conv_div.get(cond):
                res.categories["FAIL-branch"] += 1
                fails.append((b, "branch reported divergent but its condition %s is not" % cond))
                continue
            cat = over.get(cond) or classify_over(cond)
            if cat:
                res.categories[cat + "-branch"] += 1
            else:
                res.categories["FAIL-imprecise-branch"] += 1
                fails.append((b, "branch on %s: spirv-conv divergent, LLVM uniform" % cond))
    compare_flow(res, fails, facts, conv, conv_hier)
    res.failures = fails
    return res


def compare_flow(res, fails, facts, conv, hierarchy):
    """Control flow, which LLVM does not report: checked against the document's
    definitions given spirv-conv's own divergent branches and assumed cycles
    (whose verdicts compare() checks). A block that lies in a cycle that is
    not m-converged, or whose instances threads split at a divergent branch
    can execute apart (Facts.splits_instance), is not executed by all
    threads together; spirv-conv calling it uniform is unsound. The converse
    is not checked: the model leaves out blocks that only depend on a
    branch in non-uniform control flow."""
    f = facts.f
    divergent = [b for b in f.order if conv.blocks[b]]
    assumed = [frozenset(c["blocks"]) for c in conv.cycles if c["assumed"]]
    for x in f.order:
        res.compared_flow += 1
        uniform = conv.flow[x] == "uniform"
        reason = None
        if any(x in c for c in assumed):
            reason = "it lies in a cycle spirv-conv assumes divergent"
        else:
            for b in divergent:
                if facts.splits_instance(b, x, hierarchy):
                    reason = "threads split at the divergent branch of %s can execute " \
                             "different instances of it" % b
                    break
        if reason and uniform:
            res.categories["FAIL-unsound-flow"] += 1
            fails.append((x, "control flow: spirv-conv uniform, but %s" % reason))
        elif reason or uniform:
            res.categories["agree-flow"] += 1
        else:
            res.categories["flow-beyond-model"] += 1


# Each rule: (facts, llvm, conv_div, value, block, inst) -> reason or None.
# A rule names a precision loss spirv-conv has on purpose; each checks its
# pattern on the generated program itself.
def rule_single_value_phi(facts, llvm, conv_div, x, block, inst):
    if is_single_value_phi(inst):
        ops = [o for o in inst.operands() if not (o.kind == "val" and o.value == x)]
        y = ops[0]
        if y.kind in ("const", "arg") or (y.kind == "val" and not conv_div.get(y.value, True)):
            return "single-value-phi"
    return None


CONSERVATIVE_RULES = [rule_single_value_phi]


# --------------------------------------------------------------------------
# Reducing a failing case
# --------------------------------------------------------------------------

def _prune(f):
    """Drops unreachable blocks and the phi inputs of vanished edges; phis left
    without inputs become the constant 0. Returns False if the result is unusable."""
    succ = f.succ_map()
    live = set(gen_cfg.reverse_post_order("bb0", succ))
    for n in [n for n in f.order if n not in live]:
        del f.blocks[n]
    f.order = [n for n in f.order if n in live]
    preds = f.preds()
    for n in f.order:
        b = f.blocks[n]
        for phi in list(b.phis):
            phi.incoming = [(p, v) for p, v in phi.incoming if p in preds[n]]
            if not phi.incoming:
                b.phis.remove(phi)
                _replace_uses(f, phi.name, gen_cfg.Operand("const", 0))
    f.rpo = gen_cfg.reverse_post_order("bb0", f.succ_map())
    return _ssa_ok(f)


def _replace_uses(f, name, operand):
    for b in f.blocks.values():
        for inst in b.defs():
            inst.ops = [operand if (o.kind == "val" and o.value == name) else o for o in inst.ops]
            inst.incoming = [(p, operand if (o.kind == "val" and o.value == name) else o)
                             for p, o in inst.incoming]


def _ssa_ok(f):
    succ = f.succ_map()
    dom = gen_cfg.dominators("bb0", succ)
    preds = f.preds()
    where = {}
    for n in f.order:
        for i, inst in enumerate(f.blocks[n].defs()):
            where[inst.name] = (n, i)
    if not any(f.blocks[n].term[0] == "ret" for n in f.order):
        return False
    for n in f.order:
        b = f.blocks[n]
        for i, inst in enumerate(b.defs()):
            if inst.kind == "phi":
                if sorted(p for p, _ in inst.incoming) != sorted(preds[n]):
                    return False
                for p, o in inst.incoming:
                    if o.kind == "val" and (o.value not in where or where[o.value][0] not in dom[p]):
                        return False
            else:
                for o in inst.ops:
                    if o.kind != "val":
                        continue
                    if o.value not in where:
                        return False
                    d, k = where[o.value]
                    if d not in dom[n] or (d == n and k >= i):
                        return False
        t = b.term
        if t[0] in ("condbr", "switch") and t[1] not in where:
            return False
    return True


def _cond_users(f):
    used = set()
    for b in f.blocks.values():
        if b.term[0] in ("condbr", "switch"):
            used.add(b.term[1])
        for inst in b.insts:
            if inst.kind == "select":
                used.add(inst.ops[0].value)
    return used


def _mutations(f):
    """Candidate simplifications of f, biggest first; each a fresh copy."""
    import copy
    # Bypass whole branches: a conditional branch or switch becomes a jump.
    for n in list(f.order):
        t = f.blocks[n].term
        if t[0] in ("condbr", "switch"):
            targets = t[2:4] if t[0] == "condbr" else [t[2]] + [x for _, x in t[3]]
            for target in dict.fromkeys(targets):
                g = copy.deepcopy(f)
                g.blocks[n].term = ("br", target)
                yield g
            if t[0] == "switch" and len(t[3]) > 1:
                for k in range(len(t[3])):
                    g = copy.deepcopy(f)
                    cases = t[3][:k] + t[3][k + 1:]
                    g.blocks[n].term = ("switch", t[1], t[2], cases)
                    yield g
    # Merge a block into its only predecessor when that jumps straight to it.
    preds = f.preds()
    for n in list(f.order):
        ps = preds[n]
        if n == "bb0" or len(ps) != 1 or f.blocks[ps[0]].term != ("br", n):
            continue
        g = copy.deepcopy(f)
        p, b = g.blocks[ps[0]], g.blocks[n]
        for phi in b.phis:
            _replace_uses(g, phi.name, phi.incoming[0][1])
        p.insts += b.insts
        p.term = b.term
        for s in b.succs():
            for phi in g.blocks[s].phis:
                phi.incoming = [(ps[0] if q == n else q, v) for q, v in phi.incoming]
        del g.blocks[n]
        g.order.remove(n)
        yield g
    # Drop definitions (uses become the constant 1).
    conds = _cond_users(f)
    for n in list(f.order):
        for inst in f.blocks[n].defs():
            if inst.name in conds:
                continue
            g = copy.deepcopy(f)
            gb = g.blocks[n]
            gb.phis = [i for i in gb.phis if i.name != inst.name]
            gb.insts = [i for i in gb.insts if i.name != inst.name]
            _replace_uses(g, inst.name, gen_cfg.Operand("const", 1))
            yield g
    # Simplify operands.
    for n in list(f.order):
        for inst in f.blocks[n].defs():
            if inst.kind == "phi":
                for k, (p, o) in enumerate(inst.incoming):
                    if o.kind != "const":
                        g = copy.deepcopy(f)
                        gi = [i for i in g.blocks[n].phis if i.name == inst.name][0]
                        gi.incoming[k] = (p, gen_cfg.Operand("const", k + 1))
                        yield g
            else:
                for k, o in enumerate(inst.ops):
                    if o.kind in ("val", "tid") and not (inst.kind == "select" and k == 0):
                        for rep in (gen_cfg.Operand("arg", "a"), gen_cfg.Operand("tid", "tid")):
                            if rep.kind == o.kind:
                                continue
                            g = copy.deepcopy(f)
                            gi = [i for i in g.blocks[n].insts if i.name == inst.name][0]
                            gi.ops[k] = rep
                            yield g


def reduce_case(args, seed, outdir, max_tries=1500):
    """Greedily simplifies the function of `seed` while a failure of the same
    kind on one of the originally failing items remains. Writes
    case-<seed>-min.ll / .spvasm and returns (result, paths, listing)."""
    f = gen_cfg.generate(seed, "f", args.cycle_shapes)
    work = tempfile.mkdtemp(prefix="reduce-", dir=outdir)
    ll, asm = os.path.join(work, "r.ll"), os.path.join(work, "r.spvasm")

    def evaluate(g):
        with open(ll, "w") as fh:
            fh.write(gen_cfg.emit_llvm([g]))
        with open(asm, "w") as fh:
            fh.write(gen_cfg.emit_spirv([g]))
        try:
            llvm = run_llvm(args.opt, ll)["f"]
            conv = run_spirv_conv(args.spirv_conv, asm, args.target_env).get("f")
        except ToolError:
            return None
        if conv is None:
            return None
        return compare(seed, g, llvm, conv), llvm, conv

    first = evaluate(f)
    if first is None or not first[0].failures:
        return None
    # Keep the kind of the first failure: the same items, the same verdicts
    # and the same first reason of the reference model.
    targets = {item for item, _ in first[0].failures}
    kinds = {k for k in first[0].categories if k.startswith("FAIL")}

    def reason(msg):
        m = re.search(r"reference model: \S+ <- ([\w-]+)", msg)
        return m.group(1) if m else msg.split(";")[0]

    focus = reason(first[0].failures[0][1])

    def still_fails(r):
        return r is not None and \
            any(item in targets and reason(msg) == focus for item, msg in r[0].failures) and \
            any(k in kinds for k in r[0].categories if k.startswith("FAIL"))

    best = first
    tries = 0
    progress = True
    while progress and tries < max_tries:
        progress = False
        for g in _mutations(f):
            tries += 1
            if tries > max_tries:
                break
            if not _prune(g):
                continue
            r = evaluate(g)
            if still_fails(r):
                f, best, progress = g, r, True
                break
    shutil.rmtree(work, ignore_errors=True)
    res, llvm, conv = best
    ll = os.path.join(outdir, "case-%d-min.ll" % seed)
    asm = os.path.join(outdir, "case-%d-min.spvasm" % seed)
    with open(ll, "w") as fh:
        fh.write("; reduced from gen_cfg.py %s\n" % generator_args(args, seed) +
                 gen_cfg.emit_llvm([f]))
    with open(asm, "w") as fh:
        fh.write(gen_cfg.emit_spirv([f]).replace(
            "; SPIR-V\n", "; SPIR-V\n; reduced from gen_cfg.py %s\n" % generator_args(args, seed), 1))
    return res, (ll, asm), listing(f, llvm, conv)


def listing(f, llvm, conv):
    """The function with both verdicts per value and branch (LLVM first,
    D divergent, u uniform), differences marked."""
    out = []
    for n in f.rpo:
        b = f.blocks[n]
        lb, cb = llvm.blocks.get(n), conv.blocks.get(n)
        mark = "   <<< differs" if lb != cb else ""
        out.append("%s -> %s   branch: LLVM %s, spirv-conv %s%s" % (
            n, " ".join(b.succs()) or "ret", "D" if lb else "u", "D" if cb else "u", mark))
        for i in b.defs():
            lv = llvm.values.get(i.name)
            cv = conv.values.get(i.name) == "divergent"
            if i.kind == "phi":
                txt = "phi " + ", ".join("[%s, %s]" % (v.llvm(), p) for p, v in i.incoming)
            elif i.kind == "sel32":
                txt = "and %s, %d" % (i.ops[0].llvm(), i.mask)
            else:
                txt = "%s %s" % (i.op or i.kind, ", ".join(o.llvm() for o in i.ops))
            out.append("    %s%s %-5s = %s%s" % ("D" if lv else "u", "D" if cv else "u", i.name, txt,
                                                 "   <<< differs" if lv != cv else ""))
    return "\n".join(out)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def generator_args(args, seed):
    """gen_cfg.py's options that give the program of `seed`."""
    return "--seed %d%s" % (seed, " --cycle-shapes" if args.cycle_shapes else "")


def run_batch(args, seeds, work):
    funcs = [gen_cfg.generate(s, "f%d" % s, args.cycle_shapes) for s in seeds]
    tag = "batch-%d" % seeds[0]
    ll = os.path.join(work, tag + ".ll")
    asm = os.path.join(work, tag + ".spvasm")
    with open(ll, "w") as fh:
        fh.write(gen_cfg.emit_llvm(funcs))
    with open(asm, "w") as fh:
        fh.write(gen_cfg.emit_spirv(funcs))
    llvm = run_llvm(args.opt, ll)
    conv = run_spirv_conv(args.spirv_conv, asm, args.target_env)
    results = []
    for s, f in zip(seeds, funcs):
        name = "f%d" % s
        if name not in llvm:
            raise ToolError("LLVM printed nothing for %s in %s" % (name, ll))
        if name not in conv:
            r = CaseResult(s)
            r.failures.append((name, "function missing from spirv-conv's report"))
            results.append(r)
            continue
        results.append(compare(s, f, llvm[name], conv[name]))
    return results


def write_case(args, seed, outdir):
    f = gen_cfg.generate(seed, "f", args.cycle_shapes)
    ll = os.path.join(outdir, "case-%d.ll" % seed)
    asm = os.path.join(outdir, "case-%d.spvasm" % seed)
    with open(ll, "w") as fh:
        fh.write("; gen_cfg.py %s\n" % generator_args(args, seed) + gen_cfg.emit_llvm([f]))
    with open(asm, "w") as fh:
        fh.write(gen_cfg.emit_spirv([f]).replace(
            "; SPIR-V\n", "; SPIR-V\n; gen_cfg.py %s\n" % generator_args(args, seed), 1))
    return f, ll, asm


def rerun_alone(args, seed, outdir):
    f, ll, asm = write_case(args, seed, outdir)
    llvm = run_llvm(args.opt, ll)["f"]
    conv = run_spirv_conv(args.spirv_conv, asm, args.target_env).get("f")
    if conv is None:
        r = CaseResult(seed)
        r.failures.append(("f", "function missing from spirv-conv's report"))
        return r, ll, asm
    return compare(seed, f, llvm, conv), ll, asm


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spirv-conv", required=True, help="the spirv-conv executable")
    ap.add_argument("--opt", default=os.environ.get("LLVM19_OPT", DEFAULT_OPT),
                    help="LLVM 19's opt (default %(default)s)")
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1, help="first seed; cases use seed..seed+cases-1")
    ap.add_argument("--batch", type=int, default=50, help="functions per module")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--target-env", default="spv1.2")
    ap.add_argument("--keep-dir", help="write failing cases here (default: a new temporary directory)")
    ap.add_argument("--reduce", type=int, default=0, metavar="N",
                    help="reduce the first N failing cases to small reproducers (slow)")
    ap.add_argument("--list", action="store_true",
                    help="list every non-agreeing value with its category")
    ap.add_argument("--cycle-shapes", action="store_true",
                    help="generate with gen_cfg.py --cycle-shapes (loops with several latches, "
                         "rings nested in cycles)")
    ap.add_argument("--strict-suspects", action="store_true",
                    help="also fail when both analyses say uniform but the brute-force join rule says divergent")
    args = ap.parse_args(argv)

    for tool in (args.opt, args.spirv_conv):
        if not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
            print("differential_test: not an executable: %s" % tool, file=sys.stderr)
            return 2

    start = time.time()
    work = tempfile.mkdtemp(prefix="spirv-conv-differential-")
    seeds = list(range(args.seed, args.seed + args.cases))
    batches = [seeds[i:i + args.batch] for i in range(0, len(seeds), args.batch)]
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for rs in pool.map(lambda b: run_batch(args, b, work), batches):
                results.extend(rs)
    except ToolError as e:
        print("differential_test: %s" % e, file=sys.stderr)
        print("differential_test: inputs kept in %s" % work, file=sys.stderr)
        return 2

    totals = collections.Counter()
    features = collections.Counter()
    values = branches = flows = 0
    failing = []
    suspects = []
    for r in results:
        totals.update(r.categories)
        features.update(r.features)
        values += r.compared_values
        branches += r.compared_branches
        flows += r.compared_flow
        if r.failures:
            failing.append(r)
        if r.suspects:
            suspects.append(r)

    outdir = None
    if failing or (suspects and args.strict_suspects):
        outdir = args.keep_dir or tempfile.mkdtemp(prefix="spirv-conv-differential-fail-")
        os.makedirs(outdir, exist_ok=True)
    shown = 0
    for r in failing:
        if shown >= 10:
            break
        shown += 1
        alone, ll, asm = rerun_alone(args, r.seed, outdir)
        print("FAIL seed %d: %s %s" % (r.seed, ll, asm))
        print("  reproduce: gen_cfg.py %s --llvm f.ll --spirv f.spvasm"
              % generator_args(args, r.seed))
        if not alone.failures:
            print("  (the difference disappears when the case runs alone: batching changes a result)")
        for item, msg in (alone.failures or r.failures)[:12]:
            print("  %-6s %s" % (item, msg))
    for r in failing[:args.reduce]:
        reduced = reduce_case(args, r.seed, outdir)
        if reduced is None:
            print("REDUCE seed %d: the failure does not reproduce alone" % r.seed)
            continue
        res, (ll, asm), text = reduced
        print("REDUCED seed %d: %s %s" % (r.seed, ll, asm))
        for item, msg in res.failures[:6]:
            print("  %-6s %s" % (item, msg))
        print("  (each value: LLVM verdict then spirv-conv's; D divergent, u uniform)")
        print("\n".join("  " + line for line in text.splitlines()))
    if len(failing) > shown:
        print("... and %d more failing cases" % (len(failing) - shown))
    for r in suspects[:5]:
        for item, msg in r.suspects[:3]:
            print("SUSPECT seed %d: %s: %s" % (r.seed, item, msg))
    if args.list:
        for r in results:
            for cat, item, msg in r.notes:
                print("seed %d %-6s %s %s" % (r.seed, item, cat, msg))

    print("differential (LLVM 19 UniformityAnalysis vs spirv-conv): %d cases (seeds %d..%d%s), "
          "%d values, %d branches, %d blocks' control flow, %.1fs"
          % (len(results), seeds[0], seeds[-1], ", cycle shapes" if args.cycle_shapes else "",
             values, branches, flows, time.time() - start))
    print("  cases with: " + ", ".join("%s %d" % kv for kv in sorted(features.items())))
    for cat in sorted(totals):
        print("  %-40s %d" % (cat, totals[cat]))
    print("  %-40s %d" % ("cases with suspects (both uniform)", len(suspects)))
    fail_seeds = collections.defaultdict(list)
    for r in results:
        for cat in r.categories:
            if cat.startswith("FAIL"):
                fail_seeds[cat].append(r.seed)
    for cat in sorted(fail_seeds):
        seeds_ = fail_seeds[cat]
        print("  %s in seeds %s%s" % (cat, " ".join(map(str, seeds_[:20])),
                                      " ..." if len(seeds_) > 20 else ""))
    print("  %-40s %d" % ("FAILING CASES", len(failing)))
    if not failing and not (suspects and args.strict_suspects):
        shutil.rmtree(work, ignore_errors=True)
        return 0
    print("differential_test: batch inputs kept in %s" % work)
    return 1


if __name__ == "__main__":
    sys.exit(main())
