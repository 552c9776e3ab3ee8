#version 450
// subpass_material_index.frag -- a deferred resolve reads the material index
// from an input attachment and selects a texture with it.
// Expectations: subpassLoad reads the attachment at the current fragment's
// own position (the coordinate operand of OpImageRead on a SubpassData image
// is an offset from it, SPIR-V 3.8 "Dim" and OpImageRead), so the index is a
// per-fragment value: indexing the texture array with it needs NonUniform,
// and an implicit-LOD sample under a branch on it runs in control flow that
// is not uniform within the quad.
#extension GL_EXT_nonuniform_qualifier : require
layout(input_attachment_index = 0, set = 0, binding = 0) uniform usubpassInput idxIn;
layout(set = 0, binding = 1) uniform sampler2D texs[4];
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    uint idx = subpassLoad(idxIn).r;
    o = texture(texs[idx], uv);              // EXPECT: nonuniform-missing-decoration
    if (idx > 2u) {
        o += texture(texs[0], uv);           // EXPECT: derivative-divergent-cf warning
    }
}
