// A known false positive of `spirv-conv check-motion` (docs/motion.md,
// Limitations): compile with glslangValidator -V --target-env vulkan1.1, run
// `spirv-conv opt -O` (every pass is accepted on its own), and check-motion of
// the output against the input reports motion-coconvergent-changed-divergence
// for the two subgroup operations of rankInSubgroup(). Inlining groupMax()
// and countIf() splits main's first block, so the branch on `visible` gets a
// new label, and store-to-load forwarding makes it branch on the comparison
// instead of the load of `visible`: neither its label nor its condition maps
// to the original branch, which then looks lost. The transformation is legal
// (the operations stay under `if (visible)`). Not part of any test; with the
// branch before the calls (shaders/lint/subgroup_helper_divergent_call.comp)
// the label survives and nothing is reported.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Boxes {
    vec4 boxes[];
};
layout(set = 0, binding = 1, std430) buffer Out {
    uint ranks[];
};

uint rankInSubgroup(out uint total)
{
    total = subgroupAdd(1u);
    return subgroupExclusiveAdd(1u);
}

float groupMax(float v)
{
    return subgroupMax(v);
}

uint countIf(float v)
{
    uint n = 0u;
    if (v > 0.5) {
        n = subgroupAdd(1u);
    }
    return n;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 box = boxes[id];
    bool visible = box.w > 0.0;
    float largest = groupMax(box.w);
    uint bright = countIf(box.w);
    if (visible) {
        uint total;
        uint rank = rankInSubgroup(total);
        ranks[id] = rank + total;
    }
    ranks[id + 64u] = uint(largest) + bright;
}
