#version 450
// The same in a compute shader (found by the generator).
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; } outb;
layout(push_constant) uniform PC { uint a; uint b; uint c; } pc;
void main() {
    outb.o[gl_LocalInvocationIndex] = gl_LocalInvocationIndex < 4u ? pc.a : pc.c;
}
