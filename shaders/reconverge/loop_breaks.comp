#version 450
// A loop whose invocations leave at different iterations through different
// breaks, each followed by a return that writes the result.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint acc = i;
  for (uint k = 0u; k < 16u; ++k) {
    acc = acc * 1103515245u + 12345u;
    if ((acc >> 28) == 3u) {
      result.data[i] = acc ^ k;
      return;
    }
    if ((acc & 255u) < 16u) {
      result.data[i] = acc + k;
      return;
    }
    if (k == i % 16u) break;
  }
  result.data[i] = acc;
}
