#version 450
// Shape B of loop fast-forwarding (docs/fast-forward.md): each invocation
// walks 8 items and runs an inner loop of a per-item trip count. SKEWED:
// one item in 16 takes 31 trips and the others 0 to 3, so in lock step most
// lanes wait at the inner loop's merge for a few long ones.
#ifndef SKEWED
#define SKEWED 1
#endif
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

uint trips(uint h) {
#if SKEWED
  return (h & 15u) == 0u ? 31u : (h >> 8) & 3u;
#else
  return (h >> 8) & 31u;
#endif
}

void main() {
  uint id = gl_GlobalInvocationID.x;
  uint acc = id;
  for (uint j = 0u; j < 8u; ++j) {
    uint cnt = trips(hash(j * 64u + id));  // P
    for (uint k = 0u; k < cnt; ++k) {
      acc = hash(acc + k);                 // B
    }
    acc ^= j;                              // Q
  }
  result.data[id] = acc;
}
