// bindless_decal_list_memory.frag -- screen-space decals: the decal texture
// indices of the pixel are first collected in a local array, then sampled.
// The indices stored into `decalTextures` come from a per-pixel cluster
// lookup (a storage buffer read at a per-pixel address): loading them back
// from the local array gives non-uniform values, and the accesses lack
// NonUniform -- a finding. The `globalLayers` array is only filled with
// push-constant values, so loads from it are uniform: no finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

#define MAX_DECALS 4

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inWorldPos;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D textureTable[];
layout(set = 0, binding = 1, std430) readonly buffer DecalClusters {
    uvec4 clusterDecals[];   // up to 4 decal texture indices per cluster, 0xffffffff = none
};

layout(push_constant) uniform Layers {
    uint rainLayer;
    uint dirtLayer;
    uint clusterCountX;
    float clusterSize;
} layers;

void main()
{
    uvec2 cell = uvec2(gl_FragCoord.xy / layers.clusterSize);
    uvec4 list = clusterDecals[cell.y * layers.clusterCountX + cell.x];
    uint decalTextures[MAX_DECALS];
    uint count = 0u;
    for (int i = 0; i < MAX_DECALS; ++i) {
        if (list[i] != 0xffffffffu) {
            decalTextures[count] = list[i];
            count += 1u;
        }
    }
    uint globalLayers[2];
    globalLayers[0] = layers.rainLayer;
    globalLayers[1] = layers.dirtLayer;

    vec4 color = vec4(0.0);
    for (int k = 0; k < MAX_DECALS; ++k) {
        if (uint(k) < count) {
            vec4 d = textureLod(textureTable[decalTextures[k]], inUV, 0.0);  // EXPECT: nonuniform-missing-decoration
            color = mix(color, d, d.a);
        }
    }
    for (int g = 0; g < 2; ++g) {
        vec4 l = texture(textureTable[globalLayers[g]], inWorldPos.xz);      // EXPECT-NOT: nonuniform-missing-decoration
        color.rgb = mix(color.rgb, l.rgb, l.a * 0.5);
    }
    outColor = color;
}
