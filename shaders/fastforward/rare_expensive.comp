#version 450
// Shape A of loop fast-forwarding (docs/fast-forward.md): each invocation
// walks 64 items; one item in RARITY needs the expensive shading E, the rest
// the cheap path C. In lock step E issues on almost every trip with a few
// lanes active.
#ifndef RARITY
#define RARITY 8u
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

// E: eight dependent hash rounds.
uint shade(uint x, uint acc) {
  uint h = x ^ acc;
  h = hash(h + 1u);
  h = hash(h + 2u);
  h = hash(h + 3u);
  h = hash(h + 4u);
  h = hash(h + 5u);
  h = hash(h + 6u);
  h = hash(h + 7u);
  h = hash(h + 8u);
  return acc + h;
}

void main() {
  uint id = gl_GlobalInvocationID.x;
  uint acc = id;
  for (uint i = 0u; i < 64u; ++i) {
    uint x = hash(i * 64u + id);  // P
    if (x % RARITY == 0u) {
      acc = shade(x, acc);        // E
    } else {
      acc = acc * 3u + (x >> 7);  // C
    }
    acc ^= i;                     // T
  }
  result.data[id] = acc;
}
