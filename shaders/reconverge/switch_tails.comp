#version 450
// A switch on a divergent value whose cases end with the same kind of store
// (and shared arithmetic) before they meet again.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v;
  switch (i % 4u) {
    case 0u: v = i * 3u; result.data[i] = v + 1u; break;
    case 1u: v = i + 11u; result.data[i] = v + 1u; break;
    case 2u: v = i ^ 5u; result.data[i] = v + 1u; break;
    default: v = i; result.data[i] = v + 1u; break;
  }
  result.data[i + 64u] = v;
}
