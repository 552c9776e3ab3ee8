// quad_coverage.frag -- coverage-driven detail shading with subgroup and
// quad operations. The expensive detail path is taken per quad (so its
// derivatives stay meaningful), a cheap fallback per subgroup vote.
// REQUIRES: Vulkan 1.1 (SPIR-V 1.3) for the subgroup operations.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - Top-level texture() and subgroup operations: UNIFORM control flow.
//  - `coverage` comes from a texture at a per-pixel uv: DIVERGENT.
//  - subgroupQuadBroadcast(coverage, 0) gives every invocation of a quad the
//    value of the quad's first invocation: equal within each quad, different
//    between quads. A branch on it is QUAD-uniform, so the texture() and the
//    fine derivatives inside run in QUAD control flow -- every invocation of
//    a quad executes them together, other quads may not. (This assumes the
//    quad's first invocation takes part in the broadcast; without
//    RequireFullQuadsKHR a helper invocation need not, and the result is
//    then undefined: a caveat of the shader, not of the verdict.)
//  - subgroupAll(coverage > 0.9) is one value per subgroup: a branch on it is
//    SUBGROUP-uniform and the subgroupAdd() inside sees whole subgroups
//    (SUBGROUP control flow).
//  - `if (coverage > 0.5)` on the raw value is DIVERGENT, and so is the
//    control flow of the fwidth() and the subgroupMax() inside it.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_quad : require

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D coverageTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;

void main()
{
    float coverage = texture(coverageTex, inUV).r;                    // EXPECT: cf uniform
    float avgCoverage = subgroupAdd(coverage) / float(gl_SubgroupSize); // EXPECT: cf uniform
    float quadCoverage = subgroupQuadBroadcast(coverage, 0);          // EXPECT: cf uniform

    vec3 color = vec3(coverage);
    if (quadCoverage > 0.25) {                                        // EXPECT: branch quad
        vec3 detail = texture(detailTex, inUV * 8.0).rgb;             // EXPECT: cf quad
        float slope = abs(dFdxFine(coverage)) + abs(dFdyFine(coverage)); // EXPECT: cf quad
        color = mix(color, detail, clamp(slope * 4.0, 0.0, 1.0));
    }

    if (subgroupAll(coverage > 0.9)) {                                // EXPECT: branch subgroup, cf uniform
        color *= subgroupAdd(color.g) / float(gl_SubgroupSize);       // EXPECT: cf subgroup
    }

    if (coverage > 0.5) {                                             // EXPECT: branch divergent
        float edge = fwidth(coverage);                                // EXPECT: cf divergent
        color += vec3(edge * subgroupMax(coverage));                  // EXPECT: cf divergent
    }

    outColor = vec4(color, avgCoverage);
}
