// tiled_light_culling.comp -- CLEAN: tiled forward+ light culling, one
// workgroup per 16x16 screen tile.
// The early return for tiles outside the screen tests gl_WorkGroupID
// against a push constant: the same decision for the whole workgroup, so it
// never splits it. The light loop has a push-constant trip count, the
// divergent tests inside it and the list copy loop (per-invocation start)
// hold no barrier, and the debug-heatmap block depends on a UBO flag: every
// barrier() runs in control flow uniform across the workgroup. No finding.
#version 450

#define TILE 16
#define MAX_TILE_LIGHTS 256

layout(local_size_x = TILE, local_size_y = TILE) in;

struct PointLight {
    vec4 positionRadius;   // view space
    vec4 color;
};

layout(set = 0, binding = 0, std430) readonly buffer Lights {
    PointLight lights[];
};
layout(set = 0, binding = 1, std430) writeonly buffer TileLists {
    uint tileLightIndices[];
};
layout(set = 0, binding = 2) uniform sampler2D depthTex;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D heatmap;

layout(set = 1, binding = 0, std140) uniform Frame {
    mat4  invProjection;
    int   debugHeatmap;
} frame;

layout(push_constant) uniform Culling {
    uvec2 tileCount;
    uint  lightCount;
} pc;

shared uint minDepthBits;
shared uint maxDepthBits;
shared uint tileLightCount;
shared uint tileList[MAX_TILE_LIGHTS];

void main()
{
    if (gl_WorkGroupID.x >= pc.tileCount.x || gl_WorkGroupID.y >= pc.tileCount.y) {
        return;
    }
    uint lid = gl_LocalInvocationIndex;
    if (lid == 0u) {
        minDepthBits = 0x7f7fffffu;
        maxDepthBits = 0u;
        tileLightCount = 0u;
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf

    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    float depth = texelFetch(depthTex, pixel, 0).r;
    atomicMin(minDepthBits, floatBitsToUint(depth));
    atomicMax(maxDepthBits, floatBitsToUint(depth));
    barrier();
    float zNear = uintBitsToFloat(minDepthBits);
    float zFar = uintBitsToFloat(maxDepthBits);
    uint tile = gl_WorkGroupID.y * pc.tileCount.x + gl_WorkGroupID.x;

    for (uint base = 0u; base < pc.lightCount; base += TILE * TILE) {
        uint index = base + lid;
        vec4 l = index < pc.lightCount ? lights[index].positionRadius : vec4(0.0, 0.0, 0.0, -1.0);
        if (l.w > 0.0 && l.z + l.w >= zNear && l.z - l.w <= zFar) {
            uint slot = atomicAdd(tileLightCount, 1u);
            if (slot < MAX_TILE_LIGHTS) {
                tileList[slot] = index;
            }
        }
    }
    barrier();

    uint count = min(tileLightCount, MAX_TILE_LIGHTS);
    for (uint i = lid; i < count; i += TILE * TILE) {
        tileLightIndices[tile * MAX_TILE_LIGHTS + i] = tileList[i];
    }

    if (frame.debugHeatmap != 0) {
        barrier();                                                        // EXPECT-NOT: barrier-divergent-cf
        float heat = float(tileLightCount) / float(MAX_TILE_LIGHTS);
        imageStore(heatmap, pixel, vec4(heat, 1.0 - heat, 0.0, 1.0));
    }
}
