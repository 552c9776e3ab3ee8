// bindless_layer_select_phi.frag -- two-layer material (e.g. moss over
// stone) that picks the texture of the dominant layer per pixel.
// Both candidate indices are uniform-block values, but which one is used
// depends on the per-pixel blend mask: after the if/else (a phi of two
// uniform values under a divergent branch) and after the ?: select the index
// is not uniform, and the accesses lack NonUniform -- findings. An index
// chosen by a UBO flag is uniform: no finding for it.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in float inMossMask;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D textureTable[];

layout(set = 1, binding = 0, std140) uniform LayeredMaterial {
    uint stoneAlbedo;
    uint mossAlbedo;
    uint stoneNormal;
    uint mossNormal;
    uint wetStoneAlbedo;
    int  rainy;
} layered;

void main()
{
    uint albedoIndex;
    if (inMossMask > 0.5) {
        albedoIndex = layered.mossAlbedo;
    } else {
        albedoIndex = layered.stoneAlbedo;
    }
    vec4 albedo = textureLod(textureTable[albedoIndex], inUV, 0.0);       // EXPECT: nonuniform-missing-decoration

    uint normalIndex = inMossMask > 0.5 ? layered.mossNormal : layered.stoneNormal;
    vec3 n = textureLod(textureTable[normalIndex], inUV, 0.0).xyz;        // EXPECT: nonuniform-missing-decoration

    uint baseIndex;
    if (layered.rainy != 0) {
        baseIndex = layered.wetStoneAlbedo;
    } else {
        baseIndex = layered.stoneAlbedo;
    }
    vec4 base = texture(textureTable[baseIndex], inUV);                   // EXPECT-NOT: nonuniform-missing-decoration
    outColor = vec4(mix(base.rgb, albedo.rgb, 0.5) * (0.5 + 0.5 * n.z), 1.0);
}
