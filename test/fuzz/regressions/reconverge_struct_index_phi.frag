#version 450
// opt --reconverge sank two access chains into one with a phi of their struct
// member indices (invalid: those must be constants), reported as bad input (exit 2).
layout(location = 0) in float x;
layout(location = 0) out uint o;
layout(push_constant) uniform PC { uint a; uint b; uint c; } pc;
void main() {
    o = x > 0.5 ? pc.a : pc.c;
}
