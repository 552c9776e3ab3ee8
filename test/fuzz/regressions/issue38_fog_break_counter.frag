#version 450
// Issue 38, first reproducer: lint crashed (exit 139) explaining a finding through
// the memory-SSA phi of the loop counter 'n' (a Function variable at -O0).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D noiseTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
void main() {
    int n = 0;
    while (n < 6) {
        if (texture(noiseTex, uv * float(n + 1)).r > 0.7) break;
        n++;
    }
    color = vec4(0.0);
    if (n == 6) {
        color = texture(detailTex, uv);
    }
}
