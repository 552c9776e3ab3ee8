#version 450
#extension GL_KHR_shader_subgroup_vote : require
// subgroupAll, subgroupAny and subgroupAllEqual on predicates true in all,
// some and no invocations of a subgroup (the input decides per subgroup),
// on uint, float and vector values. Uniform control flow with full
// subgroups: model-independent.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = inp.v[g];
    bool p = (u & 1u) != 0u;
    uint bits = uint(subgroupAll(p)) | uint(subgroupAny(p)) << 1
              | uint(subgroupAll(u < 1000u)) << 2 | uint(subgroupAny(u == 0u)) << 3
              | uint(subgroupAllEqual(u)) << 4 | uint(subgroupAllEqual(u >> 8)) << 5
              | uint(subgroupAllEqual(float(u >> 4))) << 6
              | uint(subgroupAllEqual(uvec2(u & 0xF00u, gl_SubgroupSize))) << 7
              | uint(subgroupAllEqual(p)) << 8;
    outp.r[g] = bits;
}
