// terrain_splat_layers.frag -- CLEAN: terrain splatting over a material-
// driven number of layers.
// The layer loop's trip count comes from a UBO (the same for every
// invocation) and nothing inside it branches per pixel, so the loop never
// diverges: the texture() calls inside it and after it, and the fwidth() for
// the height blend, all run in uniform control flow. No finding.
#version 450

#define MAX_LAYERS 8

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2DArray layerAlbedo;
layout(set = 0, binding = 1) uniform sampler2DArray layerHeight;
layout(set = 0, binding = 2) uniform sampler2D splatMap;
layout(set = 0, binding = 3) uniform sampler2D macroVariation;

layout(set = 1, binding = 0, std140) uniform Terrain {
    vec4  tiling[MAX_LAYERS];   // x = uv tiling, y = height blend sharpness
    int   layerCount;
    float macroScale;
} terrain;

void main()
{
    vec4 weights0 = texture(splatMap, inUV);
    vec3 color = vec3(0.0);
    float total = 0.0;
    int count = min(terrain.layerCount, 4);
    for (int i = 0; i < count; ++i) {
        vec3 uvw = vec3(inUV * terrain.tiling[i].x, float(i));
        float height = texture(layerHeight, uvw).r;                       // EXPECT-NOT: derivative-divergent-cf
        float w = weights0[i] * pow(max(height, 1e-3), terrain.tiling[i].y);
        color += texture(layerAlbedo, uvw).rgb * w;
        total += w;
    }
    color /= max(total, 1e-4);

    float macro = texture(macroVariation, inUV * terrain.macroScale).r;   // EXPECT-NOT: derivative-divergent-cf
    float aa = clamp(fwidth(total) * 4.0, 0.0, 1.0);                      // EXPECT-NOT: derivative-divergent-cf
    vec3 n = normalize(inNormal);
    outColor = vec4(color * mix(0.8, 1.2, macro) * (0.6 + 0.4 * n.y), 1.0 - aa);
}
