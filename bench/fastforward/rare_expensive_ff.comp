#version 450
// shaders/fastforward/rare_expensive.comp fast-forwarded by hand with window
// D (reference/loop-fast-forwarding.md §4.2): the shape the pass is to emit,
// used to check the cost model against the simulator before the pass exists.
#ifndef RARITY
#define RARITY 8u
#endif
#ifndef D
#define D 4u
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

const uint WINDOW = 0u, DONE = 1u, PARKED = 2u;

void main() {
  uint id = gl_GlobalInvocationID.x;
  uint acc = id;
  uint i = 0u;
  uint why;
  do {
    why = WINDOW;
    uint x = 0u;
    for (uint d = 0u; d < D; ++d) {   // the fast-forward loop
      if (!(i < 64u)) { why = DONE; break; }
      x = hash(i * 64u + id);         // P
      if (x % RARITY == 0u) { why = PARKED; break; }
      acc = acc * 3u + (x >> 7);      // C
      acc ^= i;                       // T
      ++i;
    }
    if (why == PARKED) {              // the confluence node
      acc = shade(x, acc);            // E
      acc ^= i;                       // T
      ++i;
    }
  } while (why != DONE);
  result.data[id] = acc;
}
