// runner_inputs.frag -- vk_runner's own test (test/vulkan/runner_test.py,
// "inputs"): a job's "vertex_spv" replaces the built-in vertex shader and
// writes the planes of its "inputs"; the float input is the pixel centre
// (plane [[0, 1, 0], [0, 0, 1]]), so it equals gl_FragCoord.xy, and the flat
// integer input is the constant (7, 9).
#version 450

layout(location = 0) in vec2 centre;
layout(location = 1) flat in ivec2 k;
layout(location = 0) out vec4 color;

void main() {
  bool same = centre == gl_FragCoord.xy;
  color = vec4(floor(centre) / 255.0, float(k.x) / 255.0, same ? float(k.y) / 255.0 : 1.0);
}
