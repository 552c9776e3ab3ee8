#version 450
// Issue 39 §4: the branch of `a && b` has no line of its own in glslang's
// output (it branches on the phi that merges the two operands); its note
// takes the `if`'s line, and the chain goes on to the second operand's line.
// After the do-while loop every invocation has left it: the last sample is
// in uniform control flow and no finding.
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int k;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) uniform sampler2D a;
void main() {
    o = vec4(0.0);
    if (k > 2 &&
        uv.y > 0.5) {
        o = texture(a, uv);
    }
    int i = 0;
    do {
        i++;
    } while (uv.x * float(i) < 3.0);
    o += texture(a, uv * float(i));
}
// After spirv-opt -O the text is the same: the && stays a branch on a phi.
// EXPECT-OUTPUT: spirv-conv lint -g, exit 0
// short_circuit_sample.frag:15: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    15 |         o = texture(a, uv);
//       |         ^
// short_circuit_sample.frag:13: note: control flow depends on a condition computed from 'uv'
//    13 |     if (k > 2 &&
//       |     ^
// short_circuit_sample.frag:14: note: 'uv' is a shader input, which varies per invocation
//    14 |         uv.y > 0.5) {
//       |         ^
// 0 errors, 1 warning and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 0
// short_circuit_sample.frag:15: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    15 |         o = texture(a, uv);
//       |         ^
// short_circuit_sample.frag:13: note: control flow depends on a condition computed from 'uv'
//    13 |     if (k > 2 &&
//       |     ^
// short_circuit_sample.frag:14: note: 'uv' is a shader input, which varies per invocation
//    14 |         uv.y > 0.5) {
//       |         ^
// 0 errors, 1 warning and 0 notes in 1 file
