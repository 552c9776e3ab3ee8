#version 450
// run crashed (exit 139) loading a sampled image; the simulator has no images, so
// the load is refused as unsupported (exit 2).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D mips;
layout(set = 0, binding = 1) buffer Result { vec4 levels[4]; };
void main() {
  levels[0] = textureLod(mips, vec2(0.5), 0.0);
}
