// bindless_material.frag -- bindless forward material shader. Each draw
// batches many objects; the material index arrives as a flat varying and
// selects both the albedo texture (descriptor-indexed) and the material
// parameters (SSBO array).
//
// Uniformity claims:
//  - `inMaterialIndex` is flat: constant across one primitive, but different
//    primitives in the same draw (and the same subgroup) may differ, so it is
//    NON-UNIFORM; a quad never spans primitives, so it is QUAD-uniform.
//    Every descriptor index derived from it needs nonuniformEXT() ->
//    NonUniform decorations in SPIR-V.
//  - `materials[matIdx]` loads (a read-only buffer) are quad-uniform too.
//  - Note: glslang 12.0 decorates the OpCopyObject index, OpAccessChain and
//    OpLoad of the image with NonUniform, but NOT the OpSampledImage result
//    (the sampled-image operand of OpImageSampleImplicitLod). Wrapping the
//    whole sampler2D(...) in nonuniformEXT() would add it; the common idiom
//    below is kept deliberately.
//  - `lighting` (UBO) is UNIFORM.
//  - texture() (implicit LOD) is called at top level: UNIFORM control flow,
//    derivatives are well-defined. Not a bug.
//  - `if (mat.alphaCutoff > 0.0 && ...) discard;` at the end, after all
//    texture sampling: the branch with the `if`'s line is the first operand
//    of `&&` (short-circuit), on `mat.alphaCutoff`: QUAD; the discard is
//    decided divergently by the texel's alpha.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) flat in uint inMaterialIndex;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform texture2D textures[];
layout(set = 0, binding = 1) uniform sampler samp;

struct MaterialParams {
    vec4  baseColorFactor;
    vec3  emissive;
    float roughness;
    vec2  uvScale;
    float metallic;
    float alphaCutoff;
};

layout(set = 0, binding = 2, std430) readonly buffer MaterialBuffer {
    MaterialParams materials[];
};

layout(set = 1, binding = 0, std140) uniform LightingParams {
    vec4 sunDirection; // xyz = direction towards the sun
    vec4 sunColor;     // rgb = colour, a = intensity
    vec4 ambient;      // rgb = ambient colour
} lighting;

void main()
{
    uint matIdx = inMaterialIndex;
    MaterialParams mat = materials[nonuniformEXT(matIdx)];

    vec2 uv     = inUV * mat.uvScale;
    vec4 albedo = texture(sampler2D(textures[nonuniformEXT(matIdx)], samp), uv);  // EXPECT: cf uniform
    albedo     *= mat.baseColorFactor;

    vec3  n      = normalize(inNormal);
    vec3  l      = normalize(lighting.sunDirection.xyz);
    float ndotl  = max(dot(n, l), 0.0);
    float diffuseScale = mix(1.0, 0.04, mat.metallic) * (1.0 - 0.5 * mat.roughness);

    vec3 color = albedo.rgb * (lighting.ambient.rgb +
                 diffuseScale * ndotl * lighting.sunColor.rgb * lighting.sunColor.a);
    color += mat.emissive;

    if (mat.alphaCutoff > 0.0 && albedo.a < mat.alphaCutoff) {  // EXPECT: branch quad
        discard;
    }
    outColor = vec4(color, albedo.a);
}
