#version 450
// Vector operations: component-wise arithmetic, swizzles, dynamic component
// indexing, dot products of small integers (exact in any summation order),
// bvec any/all/not, vector comparisons and mix with a bvec selector.
// Model-independent: per invocation, no subgroup operation.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec4 v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uvec4 r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    ivec4 a = inp.v[g];
    ivec4 b = inp.v[(g + 5u) % 16u];
    vec4 fa = vec4(a);
    vec4 fb = vec4(b);
    uint o = g * 8u;
    outp.r[o + 0u] = uvec4(a + b * 3);
    outp.r[o + 1u] = uvec4(a.wzyx * b.xxyy - ivec4(a.xy, b.zw));
    outp.r[o + 2u] = uvec4(floatBitsToUint(dot(fa, fb)), floatBitsToUint(dot(fa.xyz, fb.zyx)),
                           uint(a[g % 4u]), uint(b[(g + 1u) % 4u]));
    bvec4 lt = lessThan(a, b);
    outp.r[o + 3u] = uvec4(lt) + uvec4(any(lt), all(lt), any(not(lt)), all(equal(a, a))) * 2u;
    outp.r[o + 4u] = floatBitsToUint(mix(fa, fb, greaterThan(a, b)));
    outp.r[o + 5u] = uvec4(max(a, b) - min(a, b));
    vec3 c = cross(fa.xyz, fb.xyz);
    outp.r[o + 6u] = uvec4(floatBitsToUint(c), uint(length(vec2(3.0, 4.0) * 0.0)));
    ivec4 t = a;
    t[g % 4u] = 99;
    t.yx = t.xy;
    outp.r[o + 7u] = uvec4(t);
}
