#version 450
// test/package/package_test.py: one branch on a push constant (uniform), one
// on the invocation id (divergent).
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint count; } params;
layout(std430, binding = 0) buffer Data { uint values[]; } data;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (params.count > 4u) {
    data.values[0] = params.count;
  }
  if (i < params.count) {
    data.values[i] += 1u;
  }
}
