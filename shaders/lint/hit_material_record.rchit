#version 460
// hit_material_record.rchit -- a closest-hit shader reads its material's
// texture index from its hit group's shader record.
// Expectations: each ray that hits reads the record of the hit group of the
// geometry it hit, so invocations of one subgroup read different records:
// the index is not uniform and indexing the texture array needs NonUniform.
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 1) uniform sampler2D textures[16];
layout(shaderRecordEXT, std430) buffer Record { uint texture_index; } record;
layout(location = 0) rayPayloadInEXT vec4 payload;
hitAttributeEXT vec2 bary;
void main() {
    payload = textureLod(textures[record.texture_index], bary, 0.0);  // EXPECT: nonuniform-missing-decoration
}
