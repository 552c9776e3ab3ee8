#version 450
// Seed 001's multi_exit kernel: two early exits in divergent control flow,
// each writing its result and returning. --reconverge sends both to one exit
// block, so the final store runs once for every invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = i * 2654435761u;
  if ((v & 3u) == 0u) {
    uint a = v >> 5;
    if ((a & 1u) == 0u) {
      result.data[i] = a ^ 0x1234u;
      return;
    }
    v += a;
  }
  if ((v & 12u) == 4u) {
    result.data[i] = v + 7u;
    return;
  }
  for (uint k = 0u; k < 4u; ++k) v = v * 31u + k;
  result.data[i] = v;
}
