// gbuffer_material_switch.frag -- deferred material pass that shades by the
// material class stored in the G-buffer.
// The class is read per pixel from an ID target (texelFetch at gl_FragCoord),
// so `switch (materialClass)` is divergent: the fine/coarse derivative
// variants inside its cases are errors and texture() a warning. The
// derivatives in the second switch, on the push-constant debug mode, are in
// uniform control flow (no finding).
#version 450

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform usampler2D materialIds;
layout(set = 0, binding = 1) uniform sampler2D gbufferColor;
layout(set = 0, binding = 2) uniform sampler2D gbufferDepth;
layout(set = 0, binding = 3) uniform sampler2D sparkleTex;

layout(push_constant) uniform Debug {
    int mode;      // 0 = off, 1 = depth edges, 2 = colour edges
} debug;

void main()
{
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint materialClass = texelFetch(materialIds, pixel, 0).r & 3u;
    vec4 base = texelFetch(gbufferColor, pixel, 0);
    float depth = texelFetch(gbufferDepth, pixel, 0).r;
    vec3 color = base.rgb;

    switch (materialClass) {
    case 1u: {  // hair: anisotropic shimmer from fine depth derivatives
        float ddx = dFdxFine(depth);                                      // EXPECT: derivative-divergent-cf error
        float ddy = dFdyFine(depth);                                      // EXPECT: derivative-divergent-cf error
        color *= 1.0 + 0.2 * clamp(abs(ddx) + abs(ddy), 0.0, 1.0);
        break;
    }
    case 2u: {  // car paint: sparkles filtered by the pixel footprint
        float sparkle = texture(sparkleTex, inUV * 64.0).r;              // EXPECT: derivative-divergent-cf warning
        color += sparkle * (1.0 - clamp(fwidthCoarse(depth) * 100.0, 0.0, 1.0)); // EXPECT: derivative-divergent-cf error
        break;
    }
    case 3u: {  // cloth: soften along colour edges
        color = mix(color, vec3(dot(color, vec3(0.333))), clamp(length(fwidthFine(base.rgb)), 0.0, 1.0)); // EXPECT: derivative-divergent-cf error
        break;
    }
    default:
        break;
    }

    switch (debug.mode) {
    case 1:
        color = vec3(fwidthFine(depth) * 100.0);                          // EXPECT-NOT: derivative-divergent-cf
        break;
    case 2:
        color = abs(dFdxCoarse(base.rgb)) + abs(dFdyCoarse(base.rgb));    // EXPECT-NOT: derivative-divergent-cf
        break;
    default:
        break;
    }
    outColor = vec4(color, 1.0);
}
