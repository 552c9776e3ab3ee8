// bindless_flat_index_missing.frag -- bindless forward material whose
// texture indices come from a flat per-primitive material index, without
// nonuniformEXT().
// A flat input is constant per primitive, but one subgroup can hold
// fragments of several primitives (of different objects in a batched draw),
// so the index is not dynamically uniform: the descriptor-array accesses
// need NonUniform -- findings on the combined-sampler array and on the
// separate-texture array. Indexing *inside* one storage buffer
// (materials[matIdx]) is not a descriptor index (no finding), nor is the
// push-constant environment-map index non-uniform.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) flat in uint inMaterialIndex;

layout(location = 0) out vec4 outColor;

struct Material {
    vec4 baseColor;
    uint albedoTexture;
    uint normalTexture;
    uint occlusionTexture;
    float roughness;
};

layout(set = 0, binding = 0) uniform sampler2D materialTextures[];
layout(set = 0, binding = 1) uniform texture2D occlusionTextures[];
layout(set = 0, binding = 2) uniform sampler linearSampler;
layout(set = 0, binding = 3) uniform samplerCube environmentMaps[];
layout(set = 0, binding = 4, std430) readonly buffer Materials {
    Material materials[];
};

layout(push_constant) uniform Scene {
    uint environmentIndex;
    float environmentIntensity;
} scene;

void main()
{
    uint matIdx = inMaterialIndex;
    Material mat = materials[matIdx];                                     // EXPECT-NOT: nonuniform-missing-decoration
    vec4 albedo = texture(materialTextures[mat.albedoTexture], inUV);     // EXPECT: nonuniform-missing-decoration
    vec3 tn = texture(materialTextures[mat.normalTexture], inUV).xyz;     // EXPECT: nonuniform-missing-decoration
    float ao = texture(sampler2D(occlusionTextures[mat.occlusionTexture], linearSampler), inUV).r; // EXPECT: nonuniform-missing-decoration
    vec3 n = normalize(normalize(inNormal) + 0.3 * (tn * 2.0 - 1.0));
    vec3 env = textureLod(environmentMaps[scene.environmentIndex], n, mat.roughness * 8.0).rgb; // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    outColor = vec4(albedo.rgb * mat.baseColor.rgb * ao + env * scene.environmentIntensity, albedo.a);
}
