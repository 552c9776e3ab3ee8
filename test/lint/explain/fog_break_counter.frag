#version 450
// Issue 38's first reproducer, as filed: the loop counter 'n' is a Function
// variable at -O0, the loop is left through a break on a per-pixel noise
// sample, and 'n' after the loop decides a texture read. Explaining that
// finding walks through the counter's memory-SSA phi (no result id), where
// the lint crashed.
// The expected chain: the read after the loop depends on 'n'; 'n' is read
// after a loop invocations leave on different iterations (each keeps the
// count of the iteration it left in); they leave depending on the noise
// sample, computed from the per-pixel input 'uv'. The sample in the loop is
// explained by the break's condition directly.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D noiseTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
void main() {
    int n = 0;
    while (n < 6) {
        if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
        n++;
    }
    color = vec4(0.0);
    if (n == 6) {
        color = texture(detailTex, uv);
    }
}
// After spirv-opt -O the counter is an SSA phi with no name: the same chain
// names it by its place, "the value the loop on line 18 carries", and the
// branch by its line; the findings and the cause ('uv') are the same.
// EXPECT-OUTPUT: spirv-conv lint -g, exit 0
// fog_break_counter.frag:19: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    19 |         if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
//       |         ^
// fog_break_counter.frag:19: note: control flow depends on a condition computed from 'uv'
// fog_break_counter.frag:19: note: 'uv' is a shader input, which varies per invocation
// fog_break_counter.frag:24: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    24 |         color = texture(detailTex, uv);
//       |         ^
// fog_break_counter.frag:23: note: control flow depends on a condition computed from 'n'
//    23 |     if (n == 6) {
//       |     ^
// fog_break_counter.frag:23: note: 'n' is read after a loop that invocations leave on different iterations, so each sees the value from the iteration it left in
// fog_break_counter.frag:19: note: invocations leave the loop depending on a condition computed from 'uv'
//    19 |         if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
//       |         ^
// fog_break_counter.frag:19: note: 'uv' is a shader input, which varies per invocation
// 0 errors, 2 warnings and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 0
// fog_break_counter.frag:19: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    19 |         if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
//       |         ^
// fog_break_counter.frag:19: note: control flow depends on a condition computed from 'uv'
// fog_break_counter.frag:19: note: 'uv' is a shader input, which varies per invocation
// fog_break_counter.frag:24: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    24 |         color = texture(detailTex, uv);
//       |         ^
// fog_break_counter.frag:23: note: control flow depends on the condition on line 23
//    23 |     if (n == 6) {
//       |     ^
// fog_break_counter.frag:23: note: the condition on line 23 uses the value the loop on line 18 carries after the loop that computes it; invocations leave that loop on different iterations, so each sees the value from the iteration it left in
// fog_break_counter.frag:19: note: invocations leave the loop depending on a condition computed from 'uv'
//    19 |         if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
//       |         ^
// fog_break_counter.frag:19: note: 'uv' is a shader input, which varies per invocation
// 0 errors, 2 warnings and 0 notes in 1 file
