// divergent_derivative.frag -- DELIBERATELY BUGGY (but valid) terrain
// material: detail-texture blending plus a parallax-occlusion ray march.
// It compiles and validates, but contains two derivative-in-divergent-
// control-flow bugs that a uniformity analysis should report:
//
//  BUG 1 (line marked "BUG 1"): implicit-LOD texture() inside
//        `if (inDetailMask > 0.5)`. inDetailMask is a smooth varying, so the
//        branch is DIVERGENT within a quad; the implicit derivatives used for
//        LOD selection are undefined.
//  BUG 2 (line marked "BUG 2"): dFdx() inside the ray-march loop whose exit
//        (`break` when the ray dips below the height field) depends on
//        per-pixel data. After the first pixel of a quad exits, later
//        iterations run in DIVERGENT control flow -> undefined derivative.
//
// Other claims (NOT bugs):
//  - texture(baseColorTex, ...) at top level: UNIFORM control flow, OK.
//  - textureLod() inside the loop: explicit LOD, no derivatives, OK.
//  - `material` (UBO) is UNIFORM; the loop's `i < material.maxSteps` bound
//    is uniform, but the `break` makes the loop's exit DIVERGENT overall.
#version 450

layout(location = 0) in vec2  inUV;
layout(location = 1) in vec3  inViewDirTS;   // tangent-space view vector
layout(location = 2) in float inDetailMask;  // painted per-vertex blend mask

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D baseColorTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
layout(set = 0, binding = 2) uniform sampler2D heightTex;

layout(set = 1, binding = 0, std140) uniform MaterialData {
    float heightScale;
    float detailTiling;
    int   maxSteps;
    float lodBias;
} material;

void main()
{
    vec3 viewTS = normalize(inViewDirTS);

    // Parallax occlusion mapping: march until the ray hits the height field.
    vec2  uv        = inUV;
    float stepSize  = 1.0 / float(max(material.maxSteps, 1));
    vec2  uvStep    = viewTS.xy / max(viewTS.z, 0.05) * material.heightScale * stepSize;
    float rayHeight = 1.0;
    float footprint = 0.0;
    for (int i = 0; i < material.maxSteps; ++i) {  // EXPECT: branch uniform
        float h = textureLod(heightTex, uv, 0.0).r;
        if (h >= rayHeight) {  // EXPECT: branch divergent
            break;                                   // divergent exit
        }
        footprint = abs(dFdx(uv.x)) + footprint;     // BUG 2: dFdx in divergent loop EXPECT: cf divergent
        uv        -= uvStep;
        rayHeight -= stepSize;
    }

    vec4 color = texture(baseColorTex, uv, material.lodBias);   // OK: uniform CF EXPECT: cf uniform

    if (inDetailMask > 0.5) {  // EXPECT: branch divergent
        vec4 detail = texture(detailTex, uv * material.detailTiling); // BUG 1 EXPECT: cf divergent
        color.rgb  *= mix(vec3(1.0), detail.rgb * 2.0, inDetailMask);
    }

    // Fade parallax shading with the (buggy) accumulated screen footprint.
    color.rgb *= 1.0 - clamp(footprint * 4.0, 0.0, 0.5);
    outColor = color;
}
