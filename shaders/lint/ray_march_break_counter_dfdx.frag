#version 450
// ray_march_break_counter_dfdx.frag -- a variant of issue 38's first
// reproducer for explicit derivatives: the march's step count 'n' (a Function
// variable at -O0) is used after a loop left through a per-pixel break.
// Expectations: textureLod takes an explicit LOD, so the march itself has no
// derivative finding. After the loop 'n' differs per pixel, so dFdx under
// the branch on it is an error (explicit derivative in control flow that is
// not quad-uniform).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D heightTex;
void main() {
    int n = 0;
    for (; n < 6; n++) {
        float h = textureLod(heightTex, uv * float(n + 1), 0.0).r;  // EXPECT-NOT: derivative-divergent-cf
        if (h > 0.7) break;
    }
    color = vec4(0.0);
    if (n == 6) {
        color.xy = dFdx(uv);  // EXPECT: derivative-divergent-cf error
    }
}
