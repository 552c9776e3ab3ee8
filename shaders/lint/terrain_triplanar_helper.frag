// terrain_triplanar_helper.frag -- terrain that switches to tri-planar
// rock mapping on steep slopes.
// The tri-planar helper is only called inside `if (slope > ...)`, a branch on
// the per-pixel normal: the three implicit-LOD texture() calls in the helper
// run in non-uniform control flow, so the findings are on the helper's lines.
// The grass texture() in main() is at the top level and fine.
#version 450

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D grassTex;
layout(set = 0, binding = 1) uniform sampler2D rockTex;

layout(set = 1, binding = 0, std140) uniform TerrainParams {
    float rockScale;
    float slopeStart;
    float slopeEnd;
    float grassTiling;
} terrain;

vec3 sampleTriplanar(vec3 pos, vec3 n)
{
    vec3 w = abs(n);
    w /= (w.x + w.y + w.z);
    vec3 x = texture(rockTex, pos.zy * terrain.rockScale).rgb;           // EXPECT: derivative-divergent-cf warning
    vec3 y = texture(rockTex, pos.xz * terrain.rockScale).rgb;           // EXPECT: derivative-divergent-cf warning
    vec3 z = texture(rockTex, pos.xy * terrain.rockScale).rgb;           // EXPECT: derivative-divergent-cf warning
    return x * w.x + y * w.y + z * w.z;
}

void main()
{
    vec3 n = normalize(inNormal);
    vec3 color = texture(grassTex, inUV * terrain.grassTiling).rgb;      // EXPECT-NOT: derivative-divergent-cf
    float slope = 1.0 - n.y;
    if (slope > terrain.slopeStart) {
        vec3 rock = sampleTriplanar(inWorldPos, n);
        color = mix(color, rock, smoothstep(terrain.slopeStart, terrain.slopeEnd, slope));
    }
    outColor = vec4(color, 1.0);
}
