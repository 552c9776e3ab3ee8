#version 450
// flat_material_kind.frag -- a material kind arrives as a flat varying and
// selects the shading path; the back faces get a second path.
// Expectations: a flat input, gl_FrontFacing and gl_PrimitiveID are the same
// for every fragment of a primitive, and a quad never spans primitives
// (helper invocations belong to the quad's primitive), so branches on them
// are uniform within the quad: implicit-LOD samples and derivatives under
// them are legal. A smooth input is not: the last sample is a finding.
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform sampler2D layers[8];
layout(location = 0) flat in int kind;
layout(location = 1) in vec2 uv;
layout(location = 2) in float fade;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(0.0);
    if (kind == 0) {
        o = texture(albedo, uv);             // EXPECT-NOT: derivative-divergent-cf
    }
    if (!gl_FrontFacing) {
        o.xy += dFdx(uv);                    // EXPECT-NOT: derivative-divergent-cf
    }
    if ((gl_PrimitiveID & 1) == 1) {
        o += texture(layers[kind], uv);      // EXPECT-NOT: derivative-divergent-cf EXPECT: nonuniform-missing-decoration
    }
    if (fade > 0.5) {
        o += texture(albedo, uv * 2.0);      // EXPECT: derivative-divergent-cf warning
    }
}
