#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Self-test of the reconvergence reference model (recon_gen.py), CTest
`sim.reconvergence-model`.

  model_test.py [--glslang PATH [--spirv-val PATH] --work-dir DIR --count N]

1. Hand-written programs whose records are worked out by hand in the comment
   next to each (no simulator involved): the rules of docs/reconvergence-tests.md
   one by one. Masks are written lane 0 = bit 0; "B1" is the ballot with tag 1.
2. The output-buffer encoding and the generator's determinism.
3. With --glslang: the first N generated programs compile to SPIR-V that
   spirv-val accepts (so a generator change cannot silently emit bad GLSL).
"""

import argparse
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recon_gen as g  # noqa: E402

B1, B2, B3, B4, B5 = (g.Ballot(t) for t in range(1, 6))


def lanes_below(n):
    """A mask condition true for lanes 0..n-1."""
    return g.If("mask", (1 << n) - 1, [])


def run(main, size=8, invocations=None, functions=None):
    program = g.Program(0, main, functions or {})
    return g.model_records(program, size, invocations or size)


class HandWritten(unittest.TestCase):

    def test_if_on_a_mask(self):
        """if (lane < 3) B1   (size 8): lanes 0..2 see 0b111, the others nothing."""
        records = run([g.If("mask", 0b111, [B1])])
        self.assertEqual(records, [[(1, 0b111)]] * 3 + [[]] * 5)

    def test_if_else_reconverges_at_merge(self):
        """if (lane < 4) B1 else B2; B3: the halves 0x0f / 0xf0, then all 0xff."""
        records = run([g.If("mask", 0x0F, [B1], [B2]), B3])
        self.assertEqual(records[0], [(1, 0x0F), (3, 0xFF)])
        self.assertEqual(records[7], [(2, 0xF0), (3, 0xFF)])

    def test_mask_bits_above_subgroup_ignored(self):
        """A 128-bit mask with bits 8.. set and lane bits 1, 3: size 8 sees 0b1010."""
        records = run([g.If("mask", (0xFFFF << 8) | 0b1010, [B1])])
        self.assertEqual(records[1], [(1, 0b1010)])
        self.assertEqual(records[0], [])

    def test_variable_trip_loop(self):
        """for (i < lane % 4 + 1) B1; B2   (size 8). Trips: lanes 0,4: 1; 1,5: 2;
        2,6: 3; 3,7: 4. Iteration tangles: 0xff, 0xee, 0xcc, 0x88; all leave
        through the condition at different iterations and meet at the merge: 0xff."""
        records = run([g.Loop("for_var", 1, 4, [B1]), B2])
        self.assertEqual(records[3], [(1, 0xFF), (1, 0xEE), (1, 0xCC), (1, 0x88), (2, 0xFF)])
        self.assertEqual(records[0], [(1, 0xFF), (2, 0xFF)])
        self.assertEqual(records[6], [(1, 0xFF), (1, 0xEE), (1, 0xCC), (2, 0xFF)])

    def test_infinite_loop_elect_break(self):
        """size 4: for (;;) { if (elect) { B1; break; } B2 } B3.
        Iteration k: the tangle is lanes k..3, lane k is elected and leaves
        alone (B1 = 1 << k), the rest ballot B2; after the loop all four: 0xf."""
        loop = g.Loop("for_inf", 1, None, [g.If("elect", None, [B1, g.Break()]), B2])
        records = run([loop, B3], size=4)
        self.assertEqual(records[0], [(1, 0x1), (3, 0xF)])
        self.assertEqual(records[2], [(2, 0xE), (2, 0xC), (1, 0x4), (3, 0xF)])
        self.assertEqual(records[3], [(2, 0xE), (2, 0xC), (2, 0x8), (1, 0x8), (3, 0xF)])

    def test_break(self):
        """for (i < 2) { if (lane odd) { B1; break; } B2 } B3   (size 8):
        iteration 0: B1 by the odd lanes 0xaa, B2 by the even 0x55; iteration 1:
        only the even lanes run (B2 0x55); everybody meets after the loop: 0xff."""
        loop = g.Loop("for_unif", 1, 2, [g.If("mask", 0xAA, [B1, g.Break()]), B2])
        records = run([loop, B3])
        self.assertEqual(records[1], [(1, 0xAA), (3, 0xFF)])
        self.assertEqual(records[0], [(2, 0x55), (2, 0x55), (3, 0xFF)])

    def test_break_block_diverged_per_iteration(self):
        """for (i < 3) { if (lane == i) { B1; break; } } B2   (size 4): lanes 0, 1
        and 2 each reach the same break block alone, in different iterations
        (0x1, 0x2, 0x4); lane 3 leaves through the condition; all meet at the merge."""
        loop = g.Loop("for_unif", 1, 3, [g.If("loopcount", 1, [B1, g.Break()])])
        records = run([loop, B2], size=4)
        self.assertEqual([r[0] for r in records[:3]], [(1, 0x1), (1, 0x2), (1, 0x4)])
        self.assertEqual(records[3], [(2, 0xF)])
        self.assertEqual(records[2], [(1, 0x4), (2, 0xF)])

    def test_continue_reconverges_next_iteration(self):
        """for (i < 2) { B1; if (lane < 4) { B2; continue; } B3 } B4   (size 8):
        each iteration starts converged (B1 0xff) although half continued."""
        loop = g.Loop("for_unif", 1, 2, [B1, g.If("mask", 0x0F, [B2, g.Continue()]), B3])
        records = run([loop, B4])
        self.assertEqual(records[0], [(1, 0xFF), (2, 0x0F)] * 2 + [(4, 0xFF)])
        self.assertEqual(records[5], [(1, 0xFF), (3, 0xF0)] * 2 + [(4, 0xFF)])

    def test_do_while_continue_and_zero_trip(self):
        """do { B1; if (lane < 4) continue; B2 } while (++i < 2); for (j < 0) B3; B4:
        continue goes to the condition, which still counts; the empty loop runs nothing."""
        do = g.Loop("do_unif", 1, 2, [B1, g.If("mask", 0x0F, [g.Continue()]), B2])
        records = run([do, g.Loop("for_unif", 2, 0, [B3]), B4])
        self.assertEqual(records[0], [(1, 0xFF), (1, 0xFF), (4, 0xFF)])
        self.assertEqual(records[4], [(1, 0xFF), (2, 0xF0), (1, 0xFF), (2, 0xF0), (4, 0xFF)])

    def test_return_from_main(self):
        """if (lane < 2) { B1; return; } B2: lanes 0, 1 write B1 0x3 and nothing else."""
        records = run([g.If("mask", 0x3, [B1, g.Return()]), B2])
        self.assertEqual(records[1], [(1, 0x3)])
        self.assertEqual(records[2], [(2, 0xFC)])

    def test_return_from_function(self):
        """func1() { if (lane < 2) return; B1 }  main: func1(); B2.
        Inside: 0xfc; after the call every invocation is back: 0xff."""
        func = [g.If("mask", 0x3, [g.Return()]), B1]
        records = run([g.Call(1), B2], functions={1: func})
        self.assertEqual(records[0], [(2, 0xFF)])
        self.assertEqual(records[2], [(1, 0xFC), (2, 0xFF)])

    def test_return_inside_loop(self):
        """for (i < 3) { if (lane == i) return; B1 } B2   (size 4): lane i leaves in
        iteration i for good: B1 0xe, 0xc, 0x8; lane 3 survives to B2 alone (0x8)."""
        loop = g.Loop("for_unif", 1, 3, [g.If("loopcount", 1, [g.Return()]), B1])
        records = run([loop, B2], size=4)
        self.assertEqual(records[3], [(1, 0xE), (1, 0xC), (1, 0x8), (2, 0x8)])
        self.assertEqual(records[1], [(1, 0xE)])

    def test_partial_subgroup_and_local_index(self):
        """11 invocations, size 8: B1 sees 0xff in subgroup 0 and 0x7 in the partial
        subgroup 1 (invocations 8..10); if (lid >= 6) B2: 0xc0 and 0x7."""
        records = run([B1, g.If("lid", 6, [B2])], size=8, invocations=11)
        self.assertEqual(records[0], [(1, 0xFF)])
        self.assertEqual(records[7], [(1, 0xFF), (2, 0xC0)])
        self.assertEqual(records[10], [(1, 0x7), (2, 0x7)])

    def test_elect_in_divergent_if(self):
        """if (lane >= 5) { if (elect) B1 }: lane 5 alone (0x20)."""
        records = run([g.If("mask", 0xE0, [g.If("elect", None, [B1])])])
        self.assertEqual(records[5], [(1, 0x20)])
        self.assertEqual(sum(len(r) for r in records), 1)

    def test_switch_on_lane(self):
        """switch (lane & 3) { case 0: B1; case 2: B2; case 1: B3; default: B4 } B5:
        case constructs 0x11, 0x44, 0x22, default (value 3) 0x88, then 0xff."""
        switch = g.Switch("lane", None, [([0], [B1]), ([2], [B2]), ([1], [B3]), (None, [B4])])
        records = run([switch, B5])
        self.assertEqual(records[4], [(1, 0x11), (5, 0xFF)])
        self.assertEqual(records[6], [(2, 0x44), (5, 0xFF)])
        self.assertEqual(records[1], [(3, 0x22), (5, 0xFF)])
        self.assertEqual(records[7], [(4, 0x88), (5, 0xFF)])

    def test_uniform_switch_break_and_continue(self):
        """for (i < 2) { switch (a[1]) { case 1: if (lane < 2) break; if (lane == 7)
        continue; B1 } B2 }   (size 8): break leaves the switch (not the loop), continue
        the iteration. B1 0x7c; B2 0x7f (lane 7 skipped it); next iteration the same."""
        case = [g.If("mask", 0x03, [g.Break()]), g.If("mask", 0x80, [g.Continue()]), B1]
        switch = g.Switch("unif", 1, [([0], [B3]), ([1], case)])
        records = run([g.Loop("for_unif", 1, 2, [switch, B2])])
        self.assertEqual(records[2], [(1, 0x7C), (2, 0x7F)] * 2)
        self.assertEqual(records[0], [(2, 0x7F)] * 2)
        self.assertEqual(records[7], [])

    def test_break_out_of_switch_from_if(self):
        """switch (a[1]) { case 1: if (lane < 4) {} else { break; } break; } B1:
        the upper half leaves the case from inside the if, the lower half at its
        end; both reach the switch's merge block, so B1 sees all eight: 0xff."""
        switch = g.Switch("unif", 1, [([1], [g.If("mask", 0x0F, [], [g.Break()])])])
        records = run([switch, B1])
        self.assertEqual(records, [[(1, 0xFF)]] * 8)

    def test_nested_loops_inner_elect_break(self):
        """size 4: for (i < 2) { for (j < lane % 2 + 1) { if (elect) break; B1 } B2 }.
        Inner iteration 0: all four, lane 0 leaves, B1 0xe; iteration 1: lanes 1, 3
        run it, lane 1 leaves, B1 0x8; then B2 0xf. The outer loop repeats it."""
        inner = g.Loop("for_var", 2, 2, [g.If("elect", None, [g.Break()]), B1])
        records = run([g.Loop("for_unif", 1, 2, [inner, B2])], size=4)
        self.assertEqual(records[3], [(1, 0xE), (1, 0x8), (2, 0xF)] * 2)
        self.assertEqual(records[2], [(1, 0xE), (2, 0xF)] * 2)
        self.assertEqual(records[0], [(2, 0xF)] * 2)


class Encoding(unittest.TestCase):

    def test_buffers(self):
        """Two invocations, one with a ballot of bits 0, 1 and 32 (size 64)."""
        records = [[(0x10001, (1 << 32) | 3)], []]
        stride = g.stride_for(records)
        self.assertEqual(stride, 2)
        out_b, out_c = g.expected_buffers(records, stride)
        self.assertEqual(out_b, [0x10001, 3, 1, 0, 0] + [0] * 15)
        self.assertEqual(out_c, [1, 0])
        self.assertEqual(g.input_words(stride)[:3], [2, 0, 1])

    def test_generator_is_deterministic(self):
        self.assertEqual(g.to_glsl(g.generate(42)), g.to_glsl(g.generate(42)))
        self.assertNotEqual(g.to_glsl(g.generate(42)), g.to_glsl(g.generate(43)))


def compile_generated(glslang, spirv_val, work_dir, count):
    """Compiles programs 0..count-1; returns the number of failures (printed)."""
    from sim_tools import compile_glsl, ToolFailure  # noqa: E402
    os.makedirs(work_dir, exist_ok=True)
    failures = 0
    for seed in range(count):
        source = os.path.join(work_dir, "prog_%d.comp" % seed)
        with open(source, "w") as f:
            f.write(g.to_glsl(g.generate(seed)))
        try:
            spv = compile_glsl(glslang, source, source[:-5] + ".spv")
            if spirv_val:
                proc = subprocess.run([spirv_val, "--target-env", "vulkan1.1", spv],
                                      capture_output=True, text=True, check=False)
                if proc.returncode != 0:
                    raise ToolFailure("spirv-val rejects %s:\n%s" % (spv, proc.stderr))
        except ToolFailure as e:
            failures += 1
            print("FAIL: seed %d: %s" % (seed, e))
    print("generated programs: %d compiled, %d failed" % (count - failures, failures))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glslang")
    parser.add_argument("--spirv-val")
    parser.add_argument("--work-dir", default="model-test")
    parser.add_argument("--count", type=int, default=50)
    args = parser.parse_args()
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    failed = not result.wasSuccessful()
    if args.glslang:
        failed |= compile_generated(args.glslang, args.spirv_val, args.work_dir, args.count) > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
