#version 450
#extension GL_EXT_nonuniform_qualifier : require
// A known false positive of `spirv-conv check-motion` (docs/motion.md,
// Limitations): compile with glslangValidator -V, run spirv-opt -O, and
// check-motion reports motion-convergent-gained-divergence for the sample in
// the loop, "merged into" from the helper's sample. After inlining, the
// helper's texture() reads 'uv' directly instead of its parameter's Function
// variable, so no image of it matches structurally; the merge fallback then
// pairs it by position with an unrelated sample of main. The transformation
// is legal. Not part of any test: it stays here until the matcher compares
// local operands as wildcards.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D noiseTex;
layout(set = 0, binding = 1) uniform sampler2D layers[8];
vec4 layer(int i, vec2 p) {
    return texture(layers[i], p);
}
void main() {
    int n = 0;
    while (n < 7) {
        float noise = texture(noiseTex, uv * float(n + 1)).r;
        if (noise > 0.7) break;
        n++;
    }
    color = layer(n, uv);
    color += texture(layers[nonuniformEXT(n)], uv);
}
