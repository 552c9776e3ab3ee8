// bindless_helper_param.frag -- decal layers sampled through small helpers
// that take the descriptor index as a parameter.
// sampleDecal() indexes the texture table with its parameter and is called
// with a flat per-primitive decal index: the index is not uniform, the access
// in the helper lacks NonUniform -- the finding is on the helper's line.
// sampleGlobal() is only called with a push-constant index from uniform
// control flow: no finding in it.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec2 inDecalUV;
layout(location = 2) flat in uint inDecalTexture;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D textureTable[];

layout(push_constant) uniform Frame {
    uint wearTexture;
    float wearAmount;
} frame;

vec4 sampleDecal(uint textureIndex, vec2 uv)
{
    return texture(textureTable[textureIndex], uv);                       // EXPECT: nonuniform-missing-decoration
}

vec4 sampleGlobal(uint textureIndex, vec2 uv)
{
    return texture(textureTable[textureIndex], uv);                       // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
}

void main()
{
    vec4 decal = sampleDecal(inDecalTexture, inDecalUV);
    vec4 wear = sampleGlobal(frame.wearTexture, inUV * 4.0);
    vec3 color = mix(decal.rgb, wear.rgb, wear.a * frame.wearAmount);
    outColor = vec4(color, decal.a);
}
