#version 450
// Issue 38 variant: a barrier in a loop's break block under a branch on the counter;
// the lint crashed explaining it.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } data;
layout(push_constant) uniform PC { uint first; uint last; } pc;
shared uint tile[64];
void main() {
  uint found = 0u;
  for (uint c = pc.first; c <= pc.last; c++) {
    if (data.v[gl_LocalInvocationIndex] == c) {
      if (c == pc.last) barrier();
      found = c;
      break;
    }
  }
  data.v[gl_LocalInvocationIndex] = found;
}
