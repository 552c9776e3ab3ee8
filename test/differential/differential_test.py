#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Differential test of `spirv-conv uniformity` against LLVM 19's UniformityAnalysis.

  differential_test.py --spirv-conv PATH [--cases 500] [--seed 1] [--jobs 2]

gen_cfg.py turns each seed into one random function, written both as an
AMDGPU kernel in LLVM IR and as a SPIR-V Kernel, with the same value and block
names. LLVM (`opt -passes='print<uniformity>'`) is the oracle; every named
value and every branch is compared with spirv-conv's JSON report.

Differences are sorted into categories, each checked independently on the
generated program (never by trusting spirv-conv):

  spirv-conv uniform, LLVM divergent
    invariant-chain           by design: a non-phi value inside a cycle LLVM
                              assumes divergent, computed only from uniform
                              values defined outside the cycle (or from other
                              such values); LLVM taints every def of the cycle
    anything else             FAILURE (spirv-conv would be unsound)

  spirv-conv divergent, LLVM uniform
    llvm19-missed-join        a phi at a join of a divergent branch (two
                              disjoint paths, checked by brute force) that
                              LLVM 19 misses (issue #137277, early stop)
    llvm19-exit-join          the same at a block outside a cycle that the
                              diverged paths leave (PR #216296)
    llvm19-propagated         a value or branch that depends on one of those
    conservative:<reason>     spirv-conv is knowingly less precise (listed)
    anything else             FAILURE (unexplained imprecision)

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
        for b in fn.get("blocks", []):
            if b.get("name"):
                cf.blocks[b["name"]] = bool(b.get("divergent_branch"))
    return funcs


# --------------------------------------------------------------------------
# Independent facts about one generated function
# --------------------------------------------------------------------------

class Facts:
    """Structural facts of a generated Function, computed here in Python."""

    def __init__(self, f):
        self.f = f
        self.succ = f.succ_map()
        self.preds = f.preds()
        self.dom = gen_cfg.dominators("bb0", self.succ)
        self.defs = f.defs()  # value name -> (block, Inst)
        self.users = collections.defaultdict(list)  # value name -> [user value names]
        for vname, (_, inst) in self.defs.items():
            for op in inst.operands():
                if op.kind == "val":
                    self.users[op.value].append(vname)
        self.branch_cond = {}  # block -> condition value name
        for n in f.order:
            t = f.blocks[n].term
            if t[0] in ("condbr", "switch"):
                self.branch_cond[n] = t[1]
        self.loops = self._natural_loops()
        self._join_cache = {}

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

    def cycle_through_avoiding(self, node, avoid):
        """Whether some closed path through `node` avoids every block in `avoid`."""
        if node in avoid:
            return False
        nodes = [n for n in self.f.order if n not in avoid]
        for comp in gen_cfg.cyclic_sccs(nodes, self.succ):
            if node in comp:
                return comp
        return None

    # -- joins by brute force --------------------------------------------------

    def _disjoint_paths(self, starts, target, removed):
        """Two internally vertex-disjoint paths from the two `starts` to `target`
        in the CFG minus `removed` (unit vertex capacities, max flow of 2)."""
        s1, s2 = starts
        if s1 == target and s2 == target:
            return False
        # Node splitting: n_in -> n_out (capacity 1; the target is unbounded).
        cap = collections.defaultdict(int)
        adj = collections.defaultdict(set)

        def edge(u, v, c):
            cap[(u, v)] += c
            adj[u].add(v)
            adj[v].add(u)

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
        flow = 0
        while flow < 2:
            parent = {src: None}
            queue = [src]
            while queue and sink not in parent:
                u = queue.pop(0)
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
        return flow >= 2

    def joins(self, branch):
        """Join blocks of the branch in `branch`, per the seed's definition: a
        block reachable from two different successors along paths that share
        only the branch and the join. One refinement keeps joins within one
        iteration of a natural loop: a path may not pass through the header of
        a natural loop that contains both the branch and the join unless the
        join is that header (its phis merge values of the same iteration)."""
        if branch in self._join_cache:
            return self._join_cache[branch]
        succs = list(dict.fromkeys(self.succ[branch]))
        out = set()
        for j in self.f.order:
            if j == "bb0":
                continue
            removed = {branch}
            for h, body in self.loops.items():
                if branch in body and j in body and j != h:
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
        self._join_cache[branch] = out
        return out

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
        self.categories = collections.Counter()
        self.failures = []     # (item, message)
        self.notes = []        # (category, item, message) for listed differences
        self.suspects = []     # both analyses uniform, the seed's join rule says divergent
        self.features = set()


def augmented_divergence(facts, llvm, conv_div_vals):
    """LLVM 19's result plus the joins it is known to miss: the fixed point of
    LLVM's divergent values and branches, phis at brute-force joins of
    divergent branches (except all-same-constant phis), and data dependence.
    Returns (values, branches, origin) where origin maps a value added here to
    'join' / 'exit-join' / 'propagated'."""
    vals = {v for v, d in llvm.values.items() if d}
    brs = {b for b, d in llvm.blocks.items() if d}
    origin = {}
    changed = True
    while changed:
        changed = False
        for b in list(brs):
            for j in facts.joins(b):
                for phi in facts.f.blocks[j].phis:
                    if phi.name in vals or is_single_value_phi(phi):
                        continue
                    vals.add(phi.name)
                    origin[phi.name] = "exit-join" if facts.exits_cycle(b, j) else "join"
                    changed = True
        for v in list(vals):
            for u in facts.users.get(v, []):
                if u not in vals:
                    vals.add(u)
                    origin[u] = "propagated"
                    changed = True
        for b, c in facts.branch_cond.items():
            if c in vals and b not in brs:
                brs.add(b)
                changed = True
    return vals, brs, origin


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

    names = list(facts.defs)
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
        if b not in llvm.blocks:
            res.failures.append((b, "block %s missing from LLVM's output" % b))
    if res.failures:
        return res

    conv_div_blocks = {b for b in f.order if conv.blocks[b]}
    aug_vals, aug_brs, origin = augmented_divergence(facts, llvm, conv_div)

    # ---- spirv-conv uniform, LLVM divergent: only the invariant chain may do this.
    invariant_memo = {}

    def temporally_divergent(y, use_block):
        """Whether y's value at a use in use_block may come from another
        iteration of a cycle that contains y's definition but not the use:
        LLVM lists such a cycle (divergent exit or assumed divergent), or a
        closed path through the definition that avoids the use block and the
        headers of natural loops containing both contains a divergent branch."""
        dblock = facts.defs[y][0]
        for _, blocks in llvm.divergent_exit + llvm.assumed:
            if dblock in blocks and use_block not in blocks:
                return True
        avoid = {use_block}
        for h, body in facts.loops.items():
            if dblock in body and use_block in body:
                avoid.add(h)
        comp = facts.cycle_through_avoiding(dblock, avoid)
        if comp:
            if any(llvm.blocks.get(b) or b in conv_div_blocks for b in comp):
                return True
        return False

    def invariant_chain(x):
        """x is a non-phi value inside a cycle LLVM assumes divergent whose
        operands are arguments, constants, or values spirv-conv calls uniform
        that are defined outside that cycle (and reach x from the same
        iteration) or are invariant-chain values themselves."""
        if x in invariant_memo:
            return invariant_memo[x]
        invariant_memo[x] = False
        block, inst = facts.defs[x]
        if inst.kind == "phi":
            return False
        ok = False
        for _, cyc in llvm.assumed:
            if block not in cyc:
                continue
            good = True
            for op in inst.operands():
                if op.kind in ("const", "arg"):
                    continue
                if op.kind == "tid" or conv_div.get(op.value, True):
                    good = False
                    break
                y = op.value
                if facts.defs[y][0] not in cyc and not temporally_divergent(y, block):
                    continue
                if invariant_chain(y):
                    continue
                good = False
                break
            if good:
                ok = True
                break
        invariant_memo[x] = ok
        return ok

    def classify_over(x):
        """spirv-conv divergent, LLVM uniform. Returns a category or None."""
        if x in aug_vals:
            o = origin.get(x)
            return {"join": "llvm19-missed-join", "exit-join": "llvm19-exit-join",
                    "propagated": "llvm19-propagated"}.get(o, "llvm19-propagated")
        block, inst = facts.defs[x]
        for reason in CONSERVATIVE_RULES:
            r = reason(facts, llvm, conv_div, x, block, inst)
            if r:
                return "conservative:" + r
        return None

    root_fail = []
    for v in names + ["tid"]:
        res.compared_values += 1
        ld, cd = llvm.values[v], conv_div[v]
        if ld == cd:
            res.categories["agree"] += 1
            if not ld and v in aug_vals:
                res.suspects.append((v, "both uniform; the brute-force join rule says divergent "
                                        "(%s)" % origin.get(v)))
            continue
        if ld and not cd:
            if v != "tid" and invariant_chain(v):
                res.categories["invariant-chain"] += 1
                res.notes.append(("invariant-chain", v, ""))
            else:
                res.categories["FAIL-unsound"] += 1
                root_fail.append((v, "spirv-conv %s, LLVM DIVERGENT" % conv.values[v]))
        else:
            cat = classify_over(v) if v != "tid" else None
            if cat:
                res.categories[cat] += 1
                res.notes.append((cat, v, ""))
            else:
                res.categories["FAIL-imprecise"] += 1
                root_fail.append((v, "spirv-conv divergent, LLVM uniform, no known reason"))

    for b in f.order:
        res.compared_branches += 1
        ld, cd = llvm.blocks[b], conv.blocks[b]
        if ld == cd:
            res.categories["agree-branch"] += 1
            if not ld and b in aug_brs:
                res.suspects.append((b, "both uniform branches; the brute-force join rule says divergent"))
            continue
        cond = facts.branch_cond.get(b)
        # A branch is divergent exactly when its condition is; its category is the condition's.
        if cond is None:
            res.categories["FAIL-branch"] += 1
            root_fail.append((b, "unconditional terminator reported divergent by %s" %
                              ("LLVM" if ld else "spirv-conv")))
            continue
        if ld and not cd:
            if invariant_chain(cond):
                res.categories["invariant-chain-branch"] += 1
            else:
                res.categories["FAIL-unsound-branch"] += 1
                root_fail.append((b, "branch on %s: spirv-conv uniform, LLVM DIVERGENT" % cond))
        else:
            if not conv_div.get(cond):
                res.categories["FAIL-branch"] += 1
                root_fail.append((b, "branch reported divergent but its condition %s is not" % cond))
                continue
            cat = classify_over(cond)
            if cat:
                res.categories[cat + "-branch"] += 1
            else:
                res.categories["FAIL-imprecise-branch"] += 1
                root_fail.append((b, "branch on %s: spirv-conv divergent, LLVM uniform" % cond))
    res.failures = root_fail
    return res


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
# Driver
# --------------------------------------------------------------------------

def run_batch(args, seeds, work):
    funcs = [gen_cfg.generate(s, "f%d" % s) for s in seeds]
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
    f = gen_cfg.generate(seed, "f")
    ll = os.path.join(outdir, "case-%d.ll" % seed)
    asm = os.path.join(outdir, "case-%d.spvasm" % seed)
    with open(ll, "w") as fh:
        fh.write("; gen_cfg.py --seed %d\n" % seed + gen_cfg.emit_llvm([f]))
    with open(asm, "w") as fh:
        fh.write(gen_cfg.emit_spirv([f]).replace("; SPIR-V\n", "; SPIR-V\n; gen_cfg.py --seed %d\n" % seed, 1))
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
    ap.add_argument("--list", action="store_true",
                    help="list every non-agreeing value with its category")
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
    values = branches = 0
    failing = []
    suspects = []
    for r in results:
        totals.update(r.categories)
        features.update(r.features)
        values += r.compared_values
        branches += r.compared_branches
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
        print("  reproduce: gen_cfg.py --seed %d --llvm f.ll --spirv f.spvasm" % r.seed)
        if not alone.failures:
            print("  (the difference disappears when the case runs alone: batching changes a result)")
        for item, msg in (alone.failures or r.failures)[:12]:
            print("  %-6s %s" % (item, msg))
    if len(failing) > shown:
        print("... and %d more failing cases" % (len(failing) - shown))
    for r in suspects[:5]:
        for item, msg in r.suspects[:3]:
            print("SUSPECT seed %d: %s: %s" % (r.seed, item, msg))
    if args.list:
        for r in results:
            for cat, item, msg in r.notes:
                print("seed %d %-6s %s %s" % (r.seed, item, cat, msg))

    print("differential (LLVM 19 UniformityAnalysis vs spirv-conv): %d cases (seeds %d..%d), "
          "%d values, %d branches, %.1fs" % (len(results), seeds[0], seeds[-1], values, branches,
                                              time.time() - start))
    print("  cases with: " + ", ".join("%s %d" % kv for kv in sorted(features.items())))
    for cat in sorted(totals):
        print("  %-40s %d" % (cat, totals[cat]))
    print("  %-40s %d" % ("cases with suspects (both uniform)", len(suspects)))
    print("  %-40s %d" % ("FAILING CASES", len(failing)))
    if not failing and not (suspects and args.strict_suspects):
        shutil.rmtree(work, ignore_errors=True)
        return 0
    print("differential_test: batch inputs kept in %s" % work)
    return 1


if __name__ == "__main__":
    sys.exit(main())
