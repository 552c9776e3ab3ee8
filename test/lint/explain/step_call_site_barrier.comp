#version 450
// Issue 39 §4: a helper with a barrier, called once in uniform control flow
// and once under a per-invocation branch. The expected chain cites the
// second call site (the one that makes the context divergent) and the
// branch around it, not the first, uniform call.
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint n; } pc;
layout(set = 0, binding = 0) buffer B { uint d[]; } b;
shared uint s[64];
void step(uint n) {
    if (n == 0u) return;
    barrier();
    s[gl_LocalInvocationIndex] = n;
}
void main() {
    step(pc.n);
    if (b.d[gl_LocalInvocationIndex] > 3u) step(pc.n + 1u);
}
// After spirv-opt -O 'step' is inlined: the barrier's block depends on the
// branch on line 17 directly, with the same cause.
// EXPECT-OUTPUT: spirv-conv lint -g, exit 1
// step_call_site_barrier.comp:12: error: OpControlBarrier with workgroup execution scope in control flow that is not uniform within the workgroup: not every invocation reaches it [barrier-divergent-cf]
//    12 |     barrier();
//       |     ^
// step_call_site_barrier.comp:17: note: 'step' is called from 'main' in non-uniform control flow
//    17 |     if (b.d[gl_LocalInvocationIndex] > 3u) step(pc.n + 1u);
//       |     ^
// step_call_site_barrier.comp:17: note: control flow depends on a condition computed from 'b'
// step_call_site_barrier.comp:17: note: 'b' is read at an address computed from 'gl_LocalInvocationIndex'
// step_call_site_barrier.comp:17: note: 'gl_LocalInvocationIndex' is the built-in LocalInvocationIndex, which varies per invocation
// 1 error, 0 warnings and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 1
// step_call_site_barrier.comp:12: error: OpControlBarrier with workgroup execution scope in control flow that is not uniform within the workgroup: not every invocation reaches it [barrier-divergent-cf]
//    12 |     barrier();
//       |     ^
// step_call_site_barrier.comp:17: note: control flow depends on a condition computed from 'b'
//    17 |     if (b.d[gl_LocalInvocationIndex] > 3u) step(pc.n + 1u);
//       |     ^
// step_call_site_barrier.comp:17: note: 'b' is read at an address computed from 'gl_LocalInvocationIndex'
// step_call_site_barrier.comp:17: note: 'gl_LocalInvocationIndex' is the built-in LocalInvocationIndex, which varies per invocation
// 1 error, 0 warnings and 0 notes in 1 file
