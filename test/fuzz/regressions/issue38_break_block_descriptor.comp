#version 450
// Issue 38, second reproducer: lint crashed explaining the descriptor index 'c'
// read in the loop's break block.
layout(local_size_x = 64) in;
layout(set=0, binding=0) buffer BM { uint data[]; } maps[4];
layout(set=0, binding=1) buffer Out { uint o[]; } outb;
layout(push_constant) uniform PC { uint s; uint e; } pc;
void main() {
  uint o = 0u; float x = float(gl_GlobalInvocationID.x);
  for (uint c = pc.s; c <= pc.e; c++) {
    if (x > float(c)) { o = maps[c].data[0]; break; }
  }
  outb.o[gl_GlobalInvocationID.x] = o;
}
