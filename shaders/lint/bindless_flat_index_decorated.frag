// bindless_flat_index_decorated.frag -- CLEAN: the bindless material with
// every per-primitive descriptor index wrapped in nonuniformEXT().
// The flat material index is not subgroup-uniform, so NonUniform is needed
// and present (not redundant); the environment map index is a push constant
// and correctly left undecorated. Combined image samplers only, so every
// resource operand glslang emits carries the decoration. All sampling is at
// the top level. No finding.
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
    uint emissiveTexture;
    float roughness;
};

layout(set = 0, binding = 0) uniform sampler2D materialTextures[];
layout(set = 0, binding = 1) uniform samplerCube environmentMaps[];
layout(set = 0, binding = 2, std430) readonly buffer Materials {
    Material materials[];
};

layout(push_constant) uniform Scene {
    uint environmentIndex;
    float environmentIntensity;
} scene;

void main()
{
    Material mat = materials[inMaterialIndex];
    vec4 albedo = texture(materialTextures[nonuniformEXT(mat.albedoTexture)], inUV); // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    vec3 tn = texture(materialTextures[nonuniformEXT(mat.normalTexture)], inUV).xyz;
    vec3 emissive = texture(materialTextures[nonuniformEXT(mat.emissiveTexture)], inUV).rgb;
    vec3 n = normalize(normalize(inNormal) + 0.3 * (tn * 2.0 - 1.0));
    vec3 env = textureLod(environmentMaps[scene.environmentIndex], n, mat.roughness * 8.0).rgb; // EXPECT-NOT: nonuniform-missing-decoration
    outColor = vec4(albedo.rgb * mat.baseColor.rgb + emissive + env * scene.environmentIntensity, albedo.a);
}
