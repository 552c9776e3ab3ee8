// decal_projection_clip.frag -- deferred decal box: reconstruct the world
// position from depth, clip fragments outside the box, sample the decal.
// The clip `discard` depends on each pixel's reconstructed position, so the
// implicit-LOD texture() after it is in non-uniform control flow (the
// classic decal bug: seams at the box edges). The textureGrad() with UV
// gradients taken before the discard is the fix and is fine.
// The derivative findings after the discard are derivative-after-discard's:
// the discard alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450

layout(location = 0) in vec4 inClipPos;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D sceneDepth;
layout(set = 0, binding = 1) uniform sampler2D decalAlbedo;
layout(set = 0, binding = 2) uniform sampler2D decalNormal;

layout(set = 1, binding = 0, std140) uniform Decal {
    mat4  invViewProj;
    mat4  worldToDecal;
    vec4  tint;
    float angleFade;
} decal;

void main()
{
    vec2 screenUV = inClipPos.xy / inClipPos.w * 0.5 + 0.5;
    float depth = textureLod(sceneDepth, screenUV, 0.0).r;               // EXPECT-NOT: derivative-divergent-cf
    vec4 world = decal.invViewProj * vec4(screenUV * 2.0 - 1.0, depth, 1.0);
    vec3 local = (decal.worldToDecal * vec4(world.xyz / world.w, 1.0)).xyz;
    vec2 uv = local.xz + 0.5;
    vec2 duvdx = dFdx(uv);                                                // EXPECT-NOT: derivative-divergent-cf
    vec2 duvdy = dFdy(uv);                                                // EXPECT-NOT: derivative-divergent-cf

    if (any(greaterThan(abs(local), vec3(0.5)))) {
        discard;
    }

    vec4 albedo = texture(decalAlbedo, uv);                               // EXPECT: derivative-after-discard warning
    vec3 n = textureGrad(decalNormal, uv, duvdx, duvdy).xyz;              // EXPECT-NOT: derivative-divergent-cf
    float fade = clamp(n.z * decal.angleFade, 0.0, 1.0);
    outColor = vec4(albedo.rgb * decal.tint.rgb, albedo.a * fade);
}
