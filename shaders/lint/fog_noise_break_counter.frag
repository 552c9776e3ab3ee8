#version 450
// fog_noise_break_counter.frag -- issue 38's first reproducer: the loop
// counter 'n' lives in a Function variable at -O0, the loop is left through a
// break on a per-pixel noise sample, and the value of 'n' after the loop
// decides a texture read. The explanation of that finding crossed the
// counter's memory-SSA phi, which crashed the lint.
// Expectations: the loop is left on a per-pixel value, so every block of it
// runs in control flow that is not quad-uniform (later iterations run with
// fewer invocations) and its implicit-LOD sample is a warning. After the loop
// 'n' differs per pixel (each keeps the count of the iteration it left in),
// so the branch on it is divergent and the sample under it is a warning too.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D noiseTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
void main() {
    int n = 0;
    while (n < 6) {
        float noise = texture(noiseTex, uv * float(n + 1)).r;  // EXPECT: derivative-divergent-cf warning
        if (noise > 0.7) break;
        n++;
    }
    color = vec4(0.0);
    if (n == 6) {
        color = texture(detailTex, uv);  // EXPECT: derivative-divergent-cf warning
    }
}
