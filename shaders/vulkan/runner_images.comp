// runner_images.comp -- vk_runner's own test (test/vulkan/runner_test.py,
// "images"): every mip level of a combined image sampler holds the colour the
// job gives it, explicit texels of an R32F sampled image arrive row by row
// (top row first), a separate sampler works, and a storage image comes back
// with what the shader stored.
#version 450

layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform sampler2D mips;  // RGBA8, 4 levels
layout(set = 0, binding = 1) uniform texture2D texels;  // R32F, 3x2
layout(set = 0, binding = 2) uniform sampler nearest;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D stored;  // 2x2
layout(set = 0, binding = 4) writeonly buffer Result {
  vec4 levels[4];
  float texel_values[6];
};

void main() {
  for (int level = 0; level < 4; ++level) {
    levels[level] = textureLod(mips, vec2(0.5), float(level));
  }
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      texel_values[y * 3 + x] = texelFetch(sampler2D(texels, nearest), ivec2(x, y), 0).r;
    }
  }
  imageStore(stored, ivec2(0, 0), vec4(1.0, 0.0, 0.0, 1.0));
  imageStore(stored, ivec2(1, 0), vec4(0.0, 1.0, 0.0, 1.0));
  imageStore(stored, ivec2(0, 1), vec4(0.0, 0.0, 1.0, 1.0));
  imageStore(stored, ivec2(1, 1), vec4(0.2, 0.4, 0.6, 0.8));
}
