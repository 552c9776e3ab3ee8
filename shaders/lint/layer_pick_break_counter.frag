#version 450
#extension GL_EXT_nonuniform_qualifier : require
// layer_pick_break_counter.frag -- a variant of issue 38's first reproducer
// where the loop counter reaches a descriptor index: after the loop it is
// passed to a helper (through glslang's -O0 argument temporary) and used
// directly with nonuniformEXT.
// Expectations: the loop is left on a per-pixel noise value, so its sample is
// a derivative warning. After the loop 'n' differs per pixel: the helper's
// layers[i] needs NonUniform (missing), and main's layers[nonuniformEXT(n)]
// has it (neither missing nor redundant). Both reads are in uniform control
// flow (the loop's exit reconverges), so they are no derivative finding.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D noiseTex;
layout(set = 0, binding = 1) uniform sampler2D layers[8];
vec4 layer(int i) {
    return texture(layers[i], uv);  // EXPECT: nonuniform-missing-decoration EXPECT-NOT: derivative-divergent-cf
}
void main() {
    int n = 0;
    while (n < 7) {
        float noise = texture(noiseTex, uv * float(n + 1)).r;  // EXPECT: derivative-divergent-cf warning
        if (noise > 0.7) break;
        n++;
    }
    color = layer(n);
    color += texture(layers[nonuniformEXT(n)], uv);  // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration, derivative-divergent-cf
}
