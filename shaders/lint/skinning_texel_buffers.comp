// skinning_texel_buffers.comp -- compute skinning where each mesh's bone
// palette is its own texel buffer in a bindless array.
// The palette index is read from a per-vertex record (a storage buffer at
// the invocation's own index), so different invocations of a subgroup can
// use different palettes: texelFetch() on `bonePalettes[paletteIndex]`
// without nonuniformEXT() is a finding, with it (the normal-matrix palette)
// it is not. The morph-target buffer array indexed by gl_WorkGroupID.y (one
// mesh per workgroup row) is uniform: no finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(local_size_x = 64) in;

struct SkinnedVertex {
    vec4  position;
    uvec4 joints;
    vec4  weights;
    uint  paletteIndex;
    uint  pad0;
    uint  pad1;
    uint  pad2;
};

layout(set = 0, binding = 0) uniform samplerBuffer bonePalettes[];      // 3 texels (rows of a 3x4) per bone
layout(set = 0, binding = 1) uniform samplerBuffer normalPalettes[];
layout(set = 0, binding = 2) uniform samplerBuffer morphTargets[];
layout(set = 0, binding = 3, std430) readonly buffer Vertices {
    SkinnedVertex vertices[];
};
layout(set = 0, binding = 4, std430) writeonly buffer Skinned {
    vec4 skinnedPositions[];
};

layout(push_constant) uniform Skinning {
    float morphWeight;
    uint  vertexCount;
} skinning;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    SkinnedVertex v = vertices[min(id, skinning.vertexCount - 1u)];
    vec4 morph = texelFetch(morphTargets[gl_WorkGroupID.y], int(id));     // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    vec4 p = vec4(v.position.xyz + morph.xyz * skinning.morphWeight, 1.0);
    vec3 skinned = vec3(0.0);
    for (int j = 0; j < 4; ++j) {
        int row = int(v.joints[j]) * 3;
        vec4 r0 = texelFetch(bonePalettes[v.paletteIndex], row);          // EXPECT: nonuniform-missing-decoration
        vec4 r1 = texelFetch(bonePalettes[v.paletteIndex], row + 1);      // EXPECT: nonuniform-missing-decoration
        vec4 r2 = texelFetch(bonePalettes[v.paletteIndex], row + 2);      // EXPECT: nonuniform-missing-decoration
        vec4 n0 = texelFetch(normalPalettes[nonuniformEXT(v.paletteIndex)], row); // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
        skinned += vec3(dot(r0, p), dot(r1, p), dot(r2, p)) * v.weights[j] * max(n0.w, 1.0);
    }
    if (id < skinning.vertexCount) {
        skinnedPositions[id] = vec4(skinned, 1.0);
    }
}
