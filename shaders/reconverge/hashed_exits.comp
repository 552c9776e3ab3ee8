#version 450
// Seed 001's multi_exit kernel with a longer tail: every exit finishes its
// result with the same hash (a few instructions) before storing it. Where
// multi_exit's exits share only the store, which does not pay for the
// guards that route the early exits to one exit block, these share the
// hash too: --reconverge's cost model takes this one and leaves multi_exit.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

#define FINISH(x)                  \
  x ^= x >> 16;                    \
  x *= 0x7feb352du;                \
  x ^= x >> 15;                    \
  x *= 0x846ca68bu;                \
  x ^= x >> 16;                    \
  result.data[i] = x;              \
  return

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = i * 2654435761u;
  if ((v & 3u) == 0u) {
    uint a = v >> 5;
    if ((a & 1u) == 0u) {
      a ^= 0x1234u;
      FINISH(a);
    }
    v += a;
  }
  if ((v & 12u) == 4u) {
    v += 7u;
    FINISH(v);
  }
  for (uint k = 0u; k < 4u; ++k) v = v * 31u + k;
  FINISH(v);
}
