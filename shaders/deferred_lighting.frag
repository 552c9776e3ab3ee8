// deferred_lighting.frag -- deferred shading resolve (second subpass).
// Reads albedo/normal/depth from the G-buffer via input attachments,
// reconstructs world position, and accumulates point lights from a UBO.
//
// Uniformity claims:
//  - `frame` (UBO) is UNIFORM: lightCount, lights[], invViewProj, etc.
//  - G-buffer values, `worldPos`, `N`, `V` are DIVERGENT (per-pixel).
//  - The light loop `for (uint i = 0; i < numLights; ++i)` has a UNIFORM
//    trip count (numLights = min(frame.lightCount, MAX_LIGHTS)); its exit
//    branch is uniform.
//  - `if (dist > light.radius) continue;` is a DIVERGENT branch (depends on
//    the pixel's world position). The rest of that iteration runs in
//    divergent control flow, but control reconverges at the loop latch.
//  - `radiance` is DIVERGENT. subpassLoad has no implicit derivatives, so
//    there is no derivative hazard anywhere in this shader.
#version 450

#define MAX_LIGHTS 256

layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput gAlbedo;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput gNormal;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInput gDepth;

struct PointLight {
    vec4 positionRadius;  // xyz = world position, w = radius of influence
    vec4 colorIntensity;  // rgb = colour, a = intensity
};

layout(set = 1, binding = 0, std140) uniform FrameData {
    mat4       invViewProj;
    vec4       cameraPos;
    vec2       viewportSize;
    uint       lightCount;
    float      ambientIntensity;
    PointLight lights[MAX_LIGHTS];
} frame;

layout(location = 0) out vec4 outColor;

vec3 reconstructWorldPos(float depth)
{
    vec2 ndc   = (gl_FragCoord.xy / frame.viewportSize) * 2.0 - 1.0;
    vec4 clip  = vec4(ndc, depth, 1.0);
    vec4 world = frame.invViewProj * clip;
    return world.xyz / world.w;
}

void main()
{
    vec4  albedo    = subpassLoad(gAlbedo);
    vec4  normalRgh = subpassLoad(gNormal);
    float depth     = subpassLoad(gDepth).r;

    vec3  worldPos  = reconstructWorldPos(depth);
    vec3  N         = normalize(normalRgh.xyz * 2.0 - 1.0);
    vec3  V         = normalize(frame.cameraPos.xyz - worldPos);
    float shininess = mix(256.0, 4.0, normalRgh.w);

    vec3 radiance = albedo.rgb * frame.ambientIntensity;

    uint numLights = min(frame.lightCount, uint(MAX_LIGHTS));
    for (uint i = 0u; i < numLights; ++i) {  // EXPECT: branch uniform
        PointLight light = frame.lights[i];
        vec3  toLight = light.positionRadius.xyz - worldPos;
        float dist    = length(toLight);

        // Divergent early-out: pixel is outside this light's volume.
        if (dist > light.positionRadius.w) {  // EXPECT: branch divergent
            continue;
        }

        vec3  L     = toLight / max(dist, 1e-4);
        vec3  H     = normalize(L + V);
        float ndotl = max(dot(N, L), 0.0);
        float ndoth = max(dot(N, H), 0.0);

        // Smooth windowed inverse-square falloff (UE4 style).
        float ratio   = dist / light.positionRadius.w;
        float window  = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
        float atten   = (window * window) / (dist * dist + 1.0);

        vec3 lightCol = light.colorIntensity.rgb * light.colorIntensity.a;
        vec3 diffuse  = albedo.rgb * ndotl;
        vec3 specular = vec3(pow(ndoth, shininess)) * ndotl;
        radiance += (diffuse + specular) * lightCol * atten;
    }

    outColor = vec4(radiance, 1.0);
}
