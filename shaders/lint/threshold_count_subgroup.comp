#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// threshold_count_subgroup.comp -- issue 38's reproducer shape with a
// subgroup reduction under a branch on the counter of a loop left through a
// per-invocation break.
// Expectations: after the loop 'n' differs per invocation, so subgroupAdd runs
// with only the invocations whose search ran to the end. The loop was
// entered in uniform control flow and every invocation leaves it through its
// merge, so control flow is uniform again after it; the subgroupAdd is inside
// the one divergent if, with the invocations that took it: a
// subgroup-op-divergent-cf note.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; } data;
void main() {
    uint n = 0u;
    while (n < 6u) {
        if (data.v[gl_LocalInvocationIndex] > float(n)) break;
        n++;
    }
    float s = 0.0;
    if (n == 6u) {
        s = subgroupAdd(data.v[gl_LocalInvocationIndex]);  // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
    }
    data.v[gl_LocalInvocationIndex] = s;
}
