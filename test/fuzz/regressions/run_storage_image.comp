#version 450
// run crashed (exit 139) on imageLoad from a storage image (spirv-cross corpus).
layout(local_size_x = 1) in;
layout(binding = 0) buffer SSBO { vec4 value; };
layout(r32f, binding = 3) uniform readonly image2D uImage;
void main() { value = imageLoad(uImage, ivec2(10)); }
