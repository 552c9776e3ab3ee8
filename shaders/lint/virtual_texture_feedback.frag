// virtual_texture_feedback.frag -- virtual-texturing feedback and sampling
// for pixels inside the streamed region.
// Inside `if (inside)` (a per-pixel test of the world position) every
// implicit-LOD form is a warning: textureQueryLod (OpImageQueryLod),
// textureProj, texture() with a bias and textureOffset. Explicit-LOD and
// LOD-free forms are not: textureLod, texelFetch, textureGather (gathers
// read the base level, no derivatives), textureSize.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec4 inProjCoord;
layout(location = 2) in vec3 inWorldPos;

layout(location = 0) out vec4 outColor;
layout(location = 1) out uvec4 outFeedback;

layout(set = 0, binding = 0) uniform sampler2D pageCache;
layout(set = 0, binding = 1) uniform usampler2D pageTable;
layout(set = 0, binding = 2) uniform sampler2D projectorTex;
layout(set = 0, binding = 3) uniform sampler2D fallbackTex;

layout(set = 1, binding = 0, std140) uniform Streaming {
    vec4  regionMin;
    vec4  regionMax;
    float mipBias;
    uint  frameIndex;
} streaming;

void main()
{
    vec4 color = texture(fallbackTex, inUV);                              // EXPECT-NOT: derivative-divergent-cf
    uvec4 feedback = uvec4(0u);
    bool inside = all(greaterThanEqual(inWorldPos, streaming.regionMin.xyz)) &&
                  all(lessThan(inWorldPos, streaming.regionMax.xyz));
    if (inside) {
        vec2 lod = textureQueryLod(pageCache, inUV);                      // EXPECT: derivative-divergent-cf warning
        ivec2 size = textureSize(pageTable, 0);                           // EXPECT-NOT: derivative-divergent-cf
        int mip = clamp(int(lod.y), 0, 15);
        uvec4 page = texelFetch(pageTable, ivec2(inUV * vec2(size)) >> mip, mip); // EXPECT-NOT: derivative-divergent-cf
        vec4 cached = texture(pageCache, inUV, streaming.mipBias);        // EXPECT: derivative-divergent-cf warning
        vec4 neighbour = textureOffset(pageCache, inUV, ivec2(1, 0));     // EXPECT: derivative-divergent-cf warning
        vec4 exact = textureLod(pageCache, inUV, lod.x);                  // EXPECT-NOT: derivative-divergent-cf
        vec4 quad = textureGather(pageCache, inUV, 3);                    // EXPECT-NOT: derivative-divergent-cf
        vec4 proj = textureProj(projectorTex, inProjCoord);               // EXPECT: derivative-divergent-cf warning
        color = mix(exact, cached, 0.5) + 0.1 * neighbour * dot(quad, vec4(0.25)) + proj;
        feedback = uvec4(page.xy, uint(mip), streaming.frameIndex);
    }
    outColor = color;
    outFeedback = feedback;
}
