#version 450
// Early returns from nested ifs: every path ends with the same store.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = i;
  if (i % 3u == 0u) {
    x = x * 5u;
    if (i % 2u == 0u) {
      result.data[i] = x + 1u;
      return;
    }
    x += 3u;
    if (i % 5u == 0u) {
      result.data[i] = x + 2u;
      return;
    }
  } else if (i % 7u == 1u) {
    result.data[i] = x * 9u;
    return;
  }
  result.data[i] = x + 100u;
}
