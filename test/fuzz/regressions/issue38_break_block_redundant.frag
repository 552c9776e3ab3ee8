#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Issue 38 variant: nonuniformEXT on the counter of a loop left through a break.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D layers[8];
layout(push_constant) uniform PC { int count; } pc;
void main() {
  color = vec4(0.0);
  for (int i = 0; i < pc.count; i++) {
    vec4 c = textureLod(layers[nonuniformEXT(i)], uv, 0.0);
    if (c.a > 0.5) {
      color = textureLod(layers[nonuniformEXT(i)], uv, 1.0);
      break;
    }
  }
}
