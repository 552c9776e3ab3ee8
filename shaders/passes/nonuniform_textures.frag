// nonuniform_textures.frag -- every kind of sampled-image access the descriptor
// lowerings rewrite (test/passes/*_pass_test.cpp, docs/passes.md "waterfall" and
// "descriptor-switch"), each indexed by a per-primitive (flat, non-uniform) index:
// a separate texture and sampler array combined, projective and depth-comparison
// samples, an arrayed and a cube image, a bias, an offset, a fetch, and a sample in
// a helper function that receives the index (not the descriptor).
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(set = 0, binding = 0) uniform texture2D textures[4];
layout(set = 0, binding = 1) uniform sampler samplers[3];
layout(set = 0, binding = 2) uniform sampler2DShadow shadows[2];
layout(set = 0, binding = 3) uniform sampler2DArray layers[2];
layout(set = 0, binding = 4) uniform samplerCube cubes[2];
layout(set = 0, binding = 5) uniform sampler2D materials[8];

layout(location = 0) flat in int textureIndex;
layout(location = 1) flat in int samplerIndex;
layout(location = 2) in vec4 uv;
layout(location = 0) out vec4 color;

vec4 material(int index, vec2 at) {
  return texture(materials[nonuniformEXT(index)], at);
}

void main() {
  int t = textureIndex;
  int s = samplerIndex;
  vec4 c = texture(sampler2D(textures[nonuniformEXT(t)], samplers[nonuniformEXT(s)]), uv.xy);
  c += textureProj(sampler2D(textures[nonuniformEXT(t)], samplers[nonuniformEXT(s)]), uv.xyz, 1.0);
  c += texture(shadows[nonuniformEXT(t & 1)], uv.xyz);
  c += textureProj(shadows[nonuniformEXT(t & 1)], uv);
  c += textureOffset(layers[nonuniformEXT(s & 1)], uv.xyz, ivec2(1, 2), -0.5);
  c += texture(cubes[nonuniformEXT(t & 1)], uv.xyz);
  c += texelFetch(sampler2D(textures[nonuniformEXT(t)], samplers[0]), ivec2(uv.xy), 0);
  c += material(t + s, uv.zw);
  color = c;
}
