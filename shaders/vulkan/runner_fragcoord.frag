// runner_fragcoord.frag -- vk_runner's own test (test/vulkan/runner_test.py,
// "render"): the full-screen triangle runs the fragment shader exactly once
// per pixel (an atomic counter), pixel (x, y) of the framebuffer is the one at
// gl_FragCoord (x + 0.5, y + 0.5) with row 0 at the top, and push constants
// reach the fragment stage.
#version 450

layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) buffer Count { uint fragments; };
layout(push_constant) uniform Push { float blue; };

void main() {
  color = vec4(floor(gl_FragCoord.xy) / 255.0, blue, 1.0);
  atomicAdd(fragments, 1u);
}
