#version 450
// A std140 uniform buffer: scalar arrays with a 16-byte stride, a vec3
// followed by a float, a mat2 whose columns are 16 bytes apart, a struct
// array; read with constant and dynamic indices and written to a storage
// buffer as integers. Model-independent: per invocation.
layout(local_size_x = 16) in;
struct Light { vec3 color; float intensity; ivec2 cell; };
layout(set = 0, binding = 0, std140) uniform Params {
    uint scale[4];            // each element occupies 16 bytes in std140
    vec3 offset;
    float bias;
    mat2 rot;                 // columns 16 bytes apart
    Light lights[2];
} params;
layout(set = 0, binding = 1, std430) buffer Out { uvec4 r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    Light l = params.lights[g & 1u];
    vec2 rotated = params.rot * vec2(float(g), 1.0);
    outp.r[g * 3u + 0u] = uvec4(params.scale[g % 4u] * g, params.scale[3], uint(params.bias),
                                uint(params.offset.z));
    outp.r[g * 3u + 1u] = floatBitsToUint(vec4(l.color * l.intensity, rotated.y));
    outp.r[g * 3u + 2u] = uvec4(uvec2(l.cell + ivec2(g)), floatBitsToUint(rotated.x),
                                floatBitsToUint(params.offset.x + params.bias));
}
