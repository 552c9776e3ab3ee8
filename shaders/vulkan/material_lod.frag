// material_lod.frag -- implicit-LOD sampling from an array of mip-mapped
// textures with a per-pixel material index (test/vulkan/
// nonuniform_driver_test.py, case material_lod).
// The material is a function of the pixel: tiles of 3 x 5 pixels, so 2x2
// quads straddle material borders. The UV grows exponentially with the pixel
// position, so the implicit LOD grows linearly across the image and every mip
// level (each of its own colour) shows up. Variants, by macro:
//   (none)              tex[nonuniformEXT(m)]: the input of spirv-conv opt
//                       --descriptor-switch (lavapipe cannot index sampled-image
//                       arrays dynamically at all)
//   CONSTANT_MATERIAL=K tex[K] for every pixel: drawn for K = 0..3 and composed
//                       by the material mask, the reference image
//   NAIVE_SWITCH        switch (m) { case K: texture(tex[K], uv) }: the
//                       implicit-LOD sample in divergent control flow that
//                       spirv-opt's --replace-desc-array-access-using-var-index
//                       produces (derivatives undefined at material borders)
//   GRAD_SWITCH         the switch a correct lowering produces: gradients taken
//                       before it, textureGrad inside
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) out vec4 color;

uint material(uvec2 pixel) { return (pixel.x / 3u + 2u * (pixel.y / 5u)) % 4u; }

void main() {
  vec2 p = gl_FragCoord.xy;
  uint m = material(uvec2(p));
  // d(uv)/dp = 2^(p/16) / 64: on 64x64 textures a footprint of 2^(p/16) texels,
  // so LOD = max(p.x, p.y) / 16, a new mip level every 16 pixels.
  vec2 uv = exp2(p / 16.0) * (0.25 / log(2.0));
#if defined(CONSTANT_MATERIAL)
  color = texture(tex[CONSTANT_MATERIAL], uv);
#elif defined(NAIVE_SWITCH)
  switch (m) {
    case 0u: color = texture(tex[0], uv); break;
    case 1u: color = texture(tex[1], uv); break;
    case 2u: color = texture(tex[2], uv); break;
    default: color = texture(tex[3], uv); break;
  }
#elif defined(GRAD_SWITCH)
  vec2 dx = dFdx(uv);
  vec2 dy = dFdy(uv);
  switch (m) {
    case 0u: color = textureGrad(tex[0], uv, dx, dy); break;
    case 1u: color = textureGrad(tex[1], uv, dx, dy); break;
    case 2u: color = textureGrad(tex[2], uv, dx, dy); break;
    default: color = textureGrad(tex[3], uv, dx, dy); break;
  }
#else
  color = texture(tex[nonuniformEXT(m)], uv);
#endif
}
