#version 450
// shaders/fastforward/skewed_inner.comp with its inner loop merged into the
// outer one by hand (reference/loop-fast-forwarding.md §3.2, §4.3): a lane
// whose inner trips are done goes on to its next item instead of waiting.
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
  uint j = 0u, k = 0u;
  uint cnt = trips(hash(id));              // P of item 0
  while (j < 8u) {
    if (k < cnt) {
      acc = hash(acc + k);                 // B
      ++k;
    } else {
      acc ^= j;                            // Q
      ++j;
      k = 0u;
      if (j < 8u) cnt = trips(hash(j * 64u + id));  // P
    }
  }
  result.data[id] = acc;
}
