#version 450
// Issue 38's crash shape with barrier(): a barrier under a branch on the
// counter (a Function variable at -O0) of a loop left through a
// per-invocation break.
// The expected chain: the barrier's block depends on 'n'; 'n' is read after
// the loop that invocations leave on different iterations; they leave
// depending on a value read from 'data' at the per-invocation index
// gl_LocalInvocationIndex.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; } data;
void main() {
    uint n = 0u;
    while (n < 6u) {
        if (data.v[gl_LocalInvocationIndex] > float(n)) break;
        n++;
    }
    if (n == 6u) {
        barrier();
    }
    data.v[gl_LocalInvocationIndex] = float(n);
}
// After spirv-opt -O the counter is an SSA phi with no name: the same chain
// names it by its place, "the value the loop on line 13 carries", and the
// branch by its line; the finding and the cause are the same.
// EXPECT-OUTPUT: spirv-conv lint -g, exit 1
// search_counter_barrier.comp:18: error: OpControlBarrier with workgroup execution scope in control flow that is not uniform within the workgroup: not every invocation reaches it [barrier-divergent-cf]
//    18 |         barrier();
//       |         ^
// search_counter_barrier.comp:17: note: control flow depends on a condition computed from 'n'
//    17 |     if (n == 6u) {
//       |     ^
// search_counter_barrier.comp:17: note: 'n' is read after a loop that invocations leave on different iterations, so each sees the value from the iteration it left in
// search_counter_barrier.comp:14: note: invocations leave the loop depending on a condition computed from 'data'
//    14 |         if (data.v[gl_LocalInvocationIndex] > float(n)) break;
//       |         ^
// search_counter_barrier.comp:14: note: 'data' is read at an address computed from 'gl_LocalInvocationIndex'
// search_counter_barrier.comp:14: note: 'gl_LocalInvocationIndex' is the built-in LocalInvocationIndex, which varies per invocation
// 1 error, 0 warnings and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 1
// search_counter_barrier.comp:18: error: OpControlBarrier with workgroup execution scope in control flow that is not uniform within the workgroup: not every invocation reaches it [barrier-divergent-cf]
//    18 |         barrier();
//       |         ^
// search_counter_barrier.comp:17: note: control flow depends on the condition on line 17
//    17 |     if (n == 6u) {
//       |     ^
// search_counter_barrier.comp:17: note: the condition on line 17 uses the value the loop on line 13 carries after the loop that computes it; invocations leave that loop on different iterations, so each sees the value from the iteration it left in
// search_counter_barrier.comp:14: note: invocations leave the loop depending on a condition computed from 'data'
//    14 |         if (data.v[gl_LocalInvocationIndex] > float(n)) break;
//       |         ^
// search_counter_barrier.comp:14: note: 'data' is read at an address computed from 'gl_LocalInvocationIndex'
// search_counter_barrier.comp:14: note: 'gl_LocalInvocationIndex' is the built-in LocalInvocationIndex, which varies per invocation
// 1 error, 0 warnings and 0 notes in 1 file
