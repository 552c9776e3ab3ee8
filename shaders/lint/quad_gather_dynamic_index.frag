// quad_gather_dynamic_index.frag -- a 2x2 box filter that gathers the
// quad's shading results with subgroupQuadBroadcast.
// The Index of subgroupQuadBroadcast must be dynamically uniform within the
// quad (VUID-RuntimeSpirv-subgroupBroadcastDynamicId-06277): the pick from
// the fragment's own position is undefined (subgroupQuadSwapDiagonal is
// what it meant); the four constant indices are fine.
#version 450
#extension GL_KHR_shader_subgroup_quad : require

layout(location = 0) in vec3 inColor;
layout(location = 0) out vec4 outColor;

void main()
{
    vec3 c = inColor * inColor;
    vec3 box = subgroupQuadBroadcast(c, 0u) + subgroupQuadBroadcast(c, 1u)   // EXPECT-NOT: subgroup-op-nonuniform-operand
             + subgroupQuadBroadcast(c, 2u) + subgroupQuadBroadcast(c, 3u);  // EXPECT-NOT: subgroup-op-nonuniform-operand
    uint diagonal = 3u - (uint(gl_FragCoord.x) & 1u) - 2u * (uint(gl_FragCoord.y) & 1u);
    vec3 opposite = subgroupQuadBroadcast(c, diagonal);                      // EXPECT: subgroup-op-nonuniform-operand error
    outColor = vec4(sqrt(0.25 * box) + 0.1 * opposite, 1.0);
}
