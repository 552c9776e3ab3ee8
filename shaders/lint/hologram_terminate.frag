// hologram_terminate.frag -- scan-line hologram that terminates the
// invocations of the dark scan lines.
// terminateInvocation (GL_EXT_terminate_invocation) compiles to
// OpTerminateInvocation; it depends on the pixel row, so after it control flow
// is not uniform across the quad: the texture() and fwidth() after it are
// findings. The texture() before it is fine.
// The derivative findings after the discard are derivative-after-discard's:
// the termination alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450
#extension GL_EXT_terminate_invocation : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inViewDir;
layout(location = 2) in vec3 inNormal;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D hologramTex;
layout(set = 0, binding = 1) uniform sampler2D glitchTex;

layout(push_constant) uniform Hologram {
    vec4  tint;
    float time;
    float lineDensity;
} holo;

void main()
{
    vec4 base = texture(hologramTex, inUV);                               // EXPECT-NOT: derivative-divergent-cf
    float line = fract(gl_FragCoord.y * holo.lineDensity + holo.time);
    if (line < 0.35) {
        terminateInvocation;
    }
    vec2 glitchUV = vec2(inUV.x + holo.time * 0.1, inUV.y);
    float glitch = texture(glitchTex, glitchUV).r;                        // EXPECT: derivative-after-discard warning
    float rim = 1.0 - abs(dot(normalize(inViewDir), normalize(inNormal)));
    float rimAA = fwidth(rim);                                            // EXPECT: derivative-after-discard error
    outColor = vec4(base.rgb * holo.tint.rgb + rim * (1.0 - rimAA), base.a * (0.6 + 0.4 * glitch));
}
