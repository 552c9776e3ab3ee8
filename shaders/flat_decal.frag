// flat_decal.frag -- decal projection in a batched draw. Each decal box is
// one instance; the decal kind and its atlas layer arrive as flat varyings.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - Flat inputs are constant over one primitive, but one draw covers many
//    decals and one subgroup can hold fragments of several primitives, so
//    `inDecalKind` and `inLayer` are NOT uniform and NOT subgroup-uniform.
//    A quad's fragments (helpers included) all come from one primitive, so
//    they are QUAD-uniform: a branch on a flat input is "quad", and so is the
//    control flow inside it (implicit-LOD sampling there is legal).
//  - gl_FrontFacing is per primitive too: QUAD.
//  - The first texture() is at the top level: UNIFORM control flow.
//  - `decal.fadeMode` (UBO) decides UNIFORMLY.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) flat in int  inDecalKind;   // 0 = colour, 1 = normal, 2 = emissive
layout(location = 2) flat in uint inLayer;       // atlas layer of this decal

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2DArray decalAtlas;
layout(set = 0, binding = 1) uniform sampler2D grimeTex;

layout(set = 1, binding = 0, std140) uniform DecalParams {
    vec4 tint;
    int  fadeMode;
    float backfaceDim;
} decal;

void main()
{
    vec4 color = texture(decalAtlas, vec3(inUV, float(inLayer)));  // EXPECT: cf uniform

    if (inDecalKind == 2) {                                          // EXPECT: branch quad
        color.rgb += texture(grimeTex, inUV * 4.0).rgb;              // EXPECT: cf quad
    }

    switch (clamp(inDecalKind, 0, 2)) {                              // EXPECT: branch quad
    case 0:
        color *= decal.tint;
        break;
    case 1:
        color.rgb = color.rgb * 0.5 + 0.5;
        break;
    default:
        break;
    }

    if (!gl_FrontFacing) {                                           // EXPECT: branch quad
        color.rgb *= decal.backfaceDim;
    }

    if (decal.fadeMode != 0) {                                       // EXPECT: branch uniform
        color.a *= clamp(1.0 - length(inUV - 0.5) * 2.0, 0.0, 1.0);
    }

    outColor = color;
}
