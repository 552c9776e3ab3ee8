// instance_material_table.frag -- visibility-buffer style shading: the
// object id is a flat input, the object's texture indices come from a
// read-only object table.
// `objects[inObjectId]` is read at a per-primitive address, so its texture
// indices are not uniform: the access without nonuniformEXT() is a finding,
// the decorated one is not. The sky-object record is read at a push-constant
// address from a read-only buffer: that index is uniform, no finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 inUV;
layout(location = 1) flat in uint inObjectId;

layout(location = 0) out vec4 outColor;

struct ObjectRecord {
    mat4 transform;
    uint albedoTexture;
    uint maskTexture;
    uint flags;
    uint pad;
};

layout(set = 0, binding = 0) uniform sampler2D textureTable[];
layout(set = 0, binding = 1, std430) readonly buffer Objects {
    ObjectRecord objects[];
};

layout(push_constant) uniform View {
    uint skyObject;
    float skyBlend;
} view;

void main()
{
    uint albedoIndex = objects[inObjectId].albedoTexture;
    uint maskIndex = objects[inObjectId].maskTexture;
    vec4 albedo = texture(textureTable[albedoIndex], inUV);              // EXPECT: nonuniform-missing-decoration
    float mask = texture(textureTable[nonuniformEXT(maskIndex)], inUV).r; // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    uint skyIndex = objects[view.skyObject].albedoTexture;
    vec3 sky = texture(textureTable[skyIndex], inUV).rgb;                // EXPECT-NOT: nonuniform-missing-decoration
    outColor = vec4(mix(albedo.rgb * mask, sky, view.skyBlend), albedo.a);
}
