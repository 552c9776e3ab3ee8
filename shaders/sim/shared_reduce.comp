#version 450
// Workgroup reductions in shared memory: a tree sum, min and max over 64
// values with a barrier() between levels, in 4 workgroups. The barriers are
// in uniform control flow (the tree loop's trip count is a constant), and
// each result is a function of the whole workgroup's input only.
// Model-independent.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

shared uint s_sum[64];
shared uint s_min[64];
shared uint s_max[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint v = inp.v[gl_GlobalInvocationID.x];
    s_sum[l] = v;
    s_min[l] = v;
    s_max[l] = v;
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            s_sum[l] += s_sum[l + stride];
            s_min[l] = min(s_min[l], s_min[l + stride]);
            s_max[l] = max(s_max[l], s_max[l + stride]);
        }
        barrier();
    }
    if (l == 0u) {
        uint w = gl_WorkGroupID.x;
        outp.r[w * 3u] = s_sum[0];
        outp.r[w * 3u + 1u] = s_min[0];
        outp.r[w * 3u + 2u] = s_max[0];
    }
}
