// material_feature_toggles.frag -- CLEAN: uber-material whose optional
// layers are switched by UBO flags and a push-constant quality level.
// Every branch condition is a uniform-block or push-constant value (the same
// for the whole draw), including a `discard` on a material-wide flag, so all
// texture() calls and derivatives run in uniform control flow. No finding.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inWorldPos;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D emissiveTex;
layout(set = 0, binding = 2) uniform sampler2D clearcoatTex;
layout(set = 0, binding = 3) uniform sampler2D sheenTex;
layout(set = 0, binding = 4) uniform sampler2D dustTex;

layout(set = 1, binding = 0, std140) uniform MaterialFlags {
    int   hasEmissive;
    int   hasClearcoat;
    int   shadingModel;   // 0 = standard, 1 = sheen, 2 = unlit
    int   hidden;         // editor visibility toggle
    float emissiveScale;
} flags;

layout(push_constant) uniform Quality {
    int level;
} quality;

void main()
{
    if (flags.hidden != 0) {
        discard;
    }
    vec4 albedo = texture(albedoTex, inUV);                               // EXPECT-NOT: derivative-divergent-cf
    vec3 color = albedo.rgb * max(normalize(inNormal).y, 0.2);

    if (flags.hasEmissive != 0) {
        color += texture(emissiveTex, inUV).rgb * flags.emissiveScale;
    }
    if (flags.hasClearcoat != 0 && quality.level > 0) {
        float coat = texture(clearcoatTex, inUV * 2.0).r;
        color = mix(color, vec3(1.0), 0.04 * coat);
    }
    switch (flags.shadingModel) {
    case 1:
        color += texture(sheenTex, inUV).rgb * 0.25;                      // EXPECT-NOT: derivative-divergent-cf
        break;
    case 2:
        color = albedo.rgb;
        break;
    default:
        break;
    }
    if (quality.level >= 2) {
        float dust = texture(dustTex, inWorldPos.xz * 0.05).r;
        float slopeAA = fwidth(inWorldPos.y);
        color = mix(color, vec3(0.5, 0.45, 0.4), dust * clamp(1.0 - slopeAA, 0.0, 1.0) * 0.3);
    }
    outColor = vec4(color, albedo.a);
}
