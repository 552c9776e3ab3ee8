#version 450
// Built-in ids in a 3D dispatch: gl_WorkGroupID, gl_LocalInvocationID,
// gl_GlobalInvocationID, gl_LocalInvocationIndex, gl_NumWorkGroups and
// gl_WorkGroupSize (local size 4x2x2, 3x2x2 workgroups). Each invocation
// writes its own slot. Model-independent.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0, std430) buffer Out { uvec4 r[]; } outp;

void main() {
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint flat_index = (g.z * size.y + g.y) * size.x + g.x;
    outp.r[flat_index * 2u] = uvec4(gl_WorkGroupID, gl_LocalInvocationIndex);
    outp.r[flat_index * 2u + 1u] = uvec4(gl_LocalInvocationID, gl_NumWorkGroups.x * 100u
                                         + gl_NumWorkGroups.y * 10u + gl_NumWorkGroups.z);
}
