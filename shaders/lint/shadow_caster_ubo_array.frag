// shadow_caster_ubo_array.frag -- projected shadows of dynamic casters whose
// parameters live in an array of uniform blocks (one descriptor per caster).
// The caster index is a flat input (per primitive, so not uniform across a
// subgroup): indexing the uniform-block array with it needs NonUniform --
// findings. The sun block array is indexed by a push-constant cascade
// (uniform): no finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) flat in int inCasterIndex;

layout(location = 0) out vec4 outShadow;

layout(set = 0, binding = 0, std140) uniform CasterBlock {
    mat4 worldToShadow;
    vec4 fadeRange;
} casters[8];

layout(set = 0, binding = 1, std140) uniform SunBlock {
    mat4 worldToShadow;
    vec4 texelSize;
} sunCascades[4];

layout(set = 0, binding = 2) uniform sampler2DShadow casterAtlas;
layout(set = 0, binding = 3) uniform sampler2DArrayShadow sunShadow;

layout(push_constant) uniform Shadow {
    int cascade;
} shadow;

void main()
{
    vec4 sp = casters[inCasterIndex].worldToShadow * vec4(inWorldPos, 1.0); // EXPECT: nonuniform-missing-decoration
    vec4 fade = casters[inCasterIndex].fadeRange;                         // EXPECT: nonuniform-missing-decoration
    float caster = texture(casterAtlas, sp.xyz / sp.w);
    vec4 sun = sunCascades[shadow.cascade].worldToShadow * vec4(inWorldPos, 1.0); // EXPECT-NOT: nonuniform-missing-decoration
    float sunLit = texture(sunShadow, vec4(sun.xy / sun.w, float(shadow.cascade), sun.z / sun.w));
    float d = clamp((length(inWorldPos - fade.xyz) - fade.w) * 0.1, 0.0, 1.0);
    outShadow = vec4(min(mix(caster, 1.0, d), sunLit));
}
