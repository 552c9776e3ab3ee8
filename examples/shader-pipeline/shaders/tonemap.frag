// Tonemapping: exposure from a uniform buffer, the ACES curve from a shared
// header. Every sample is in uniform control flow.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "color.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D hdr;
layout(set = 0, binding = 1) uniform Exposure { float exposure; };

void main() {
    vec3 c = texture(hdr, uv).rgb * exposure;
    color = vec4(acesFilm(c), 1.0);
}
