#version 450
// Matrices: matrix-vector and matrix-matrix products, transpose, outer
// product and determinants of small integer matrices (every partial sum an
// integer below 2^24, so exact in any order and with or without fma), read
// from a std430 buffer (column-major mat3: columns 16 bytes apart) and an
// array of row_major mat4. Model-independent: per invocation.
layout(local_size_x = 8) in;
struct Mats {
    mat4 m;
    mat3 n;                   // std430: 3 columns of vec3 padded to 16 bytes
    mat2 p;                   // std430: columns 8 bytes apart
};
layout(set = 0, binding = 0, std430) readonly buffer In {
    Mats mats[8];             // 128 bytes each
    layout(row_major) mat4 rm[8];
} inp;
layout(set = 0, binding = 1, std430) buffer Out { vec4 r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    Mats s = inp.mats[g];
    mat4 rm = inp.rm[g];
    vec4 v = vec4(1.0, -2.0, float(g), 3.0);
    uint o = g * 12u;
    outp.r[o + 0u] = s.m * v;
    outp.r[o + 1u] = v * s.m;
    outp.r[o + 2u] = vec4(s.n * v.xyz, determinant(s.n));
    outp.r[o + 3u] = rm * v;
    mat4 mm = s.m * rm;
    outp.r[o + 4u] = mm[0];
    outp.r[o + 5u] = mm[3];
    mat4 t = transpose(rm);
    outp.r[o + 6u] = t[1];
    mat3 op = outerProduct(v.xyz, vec3(2.0, 0.5, -1.0));
    outp.r[o + 7u] = vec4(op[0], op[2].z);
    outp.r[o + 8u] = vec4(s.p * vec2(v.x, v.w), determinant(s.p), s.p[1][0]);
    outp.r[o + 9u] = vec4(s.n[2], s.m[2][1]);
    outp.r[o + 10u] = (s.m + rm * 2.0)[2];
    outp.r[o + 11u] = vec4(matrixCompMult(s.p, s.p)[1], rm[0][3], rm[3][0]);
}
