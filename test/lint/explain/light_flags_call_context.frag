#version 450
// Issue 39 §4, from Godot's directional PCF: a helper branches on a UBO
// word indexed by a per-primitive (flat) value and samples under it; the
// helper is called after a per-pixel `continue`. The branch in the helper
// is uniform within the quad, so it is not why the sample's control flow is
// non-uniform there: the call site is. The chain names the call and the
// `continue`, at -O0 as after spirv-opt -O (which inlines 'shade'), and
// does not end at the flat input, which is uniform within the quad.
layout(location = 0) flat in uvec4 lights;
layout(location = 1) in vec2 uv;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform L { uvec4 flags[4]; } l;
layout(location = 0) out vec4 o;
vec4 shade(uint base) {
    if ((l.flags[base].x & 1u) != 0u) return texture(tex, uv);
    return vec4(0);
}
void main() {
    o = vec4(0);
    for (uint i = 0u; i < 4u; i++) {
        uint base = bitfieldExtract(lights[i >> 2], int(i & 3u) * 8, 8);
        if (uv.x > 0.5) continue;
        o += shade(base);
    }
}
// EXPECT-OUTPUT: spirv-conv lint -g, exit 0
// light_flags_call_context.frag:15: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    15 |     if ((l.flags[base].x & 1u) != 0u) return texture(tex, uv);
//       |     ^
// light_flags_call_context.frag:23: note: 'shade' is called from 'main' in non-uniform control flow
//    23 |         o += shade(base);
//       |         ^
// light_flags_call_context.frag:22: note: control flow depends on a condition computed from 'uv'
//    22 |         if (uv.x > 0.5) continue;
//       |         ^
// light_flags_call_context.frag:22: note: 'uv' is a shader input, which varies per invocation
// 0 errors, 1 warning and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 0
// light_flags_call_context.frag:15: warning: OpImageSampleImplicitLod computes an implicit level of detail in control flow that is not uniform within the quad (the derivative group): its result is undefined [derivative-divergent-cf]
//    15 |     if ((l.flags[base].x & 1u) != 0u) return texture(tex, uv);
//       |     ^
// light_flags_call_context.frag:22: note: control flow depends on a condition computed from 'uv'
//    22 |         if (uv.x > 0.5) continue;
//       |         ^
// light_flags_call_context.frag:22: note: 'uv' is a shader input, which varies per invocation
// 0 errors, 1 warning and 0 notes in 1 file
