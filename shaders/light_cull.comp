// light_cull.comp -- tiled light culling (Forward+). One 16x16 workgroup per
// screen tile: it finds the tile's depth bounds, tests every light against
// the tile and writes the tile's light list.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - In compute the invocation group is the workgroup: gl_WorkGroupID, the
//    tile derived from it, and `scene` (UBO) are UNIFORM. Branches on the
//    tile position (border tiles) decide UNIFORMLY, so the barrier() inside
//    one is still in UNIFORM control flow.
//  - gl_LocalInvocationIndex is DIVERGENT: `if (lidx == 0u)` and the strided
//    light loop `for (uint i = lidx; ...)` (its counter starts at lidx) are
//    DIVERGENT branches, as is the per-light intersection test.
//  - Every barrier() outside those divergent constructs is in UNIFORM
//    control flow, including the one in the sorting loop whose bound comes
//    from the UBO (a Function-variable counter at -O0).
//  - `tileLightCount` (hence `listed`) is read after a barrier; it is then
//    the same in every invocation, but proving that needs the barrier's
//    synchronisation, which the analysis does not model (workgroup memory
//    the shader writes is divergent, docs/uniformity.md). The final loop
//    over `listed` is divergent anyway (its counter starts at lidx); no
//    marker depends on `listed`.
#version 450

#define TILE 16
#define MAX_LIGHTS_PER_TILE 128

layout(local_size_x = TILE, local_size_y = TILE, local_size_z = 1) in;

layout(set = 0, binding = 0) uniform sampler2D depthTex;

struct Light {
    vec4 positionRadius;   // view space
};

layout(set = 0, binding = 1, std140) uniform SceneData {
    mat4  projection;
    vec4  screenSize;      // xy = pixels
    uint  lightCount;
    uint  refinePasses;
    Light lights[1024];
} scene;

layout(set = 0, binding = 2, std430) writeonly buffer TileLights {
    uint tileData[];       // per tile: count, then MAX_LIGHTS_PER_TILE indices
};

shared uint minDepthBits;
shared uint maxDepthBits;
shared uint tileLightCount;
shared uint tileLightIndex[MAX_LIGHTS_PER_TILE];

bool sphereInTile(vec4 sphere, vec2 tileMin, vec2 tileMax, float zMin, float zMax)
{
    vec4 clip = scene.projection * vec4(sphere.xyz, 1.0);
    vec2 ndc  = clip.xy / max(clip.w, 1e-4);
    vec2 px   = (ndc * 0.5 + 0.5) * scene.screenSize.xy;
    float r   = sphere.w * scene.screenSize.y / max(clip.w, 1e-4);
    return all(greaterThan(px + r, tileMin)) && all(lessThan(px - r, tileMax)) &&
           -sphere.z + sphere.w >= zMin && -sphere.z - sphere.w <= zMax;
}

void main()
{
    uvec2 tile = gl_WorkGroupID.xy;
    uint  lidx = gl_LocalInvocationIndex;
    uint  tileIndex = tile.y * uint(scene.screenSize.x / TILE) + tile.x;

    if (lidx == 0u) {                                                   // EXPECT: branch divergent
        minDepthBits   = 0xffffffffu;
        maxDepthBits   = 0u;
        tileLightCount = 0u;
    }
    barrier();                                                          // EXPECT: cf uniform

    float depth = texelFetch(depthTex, ivec2(gl_GlobalInvocationID.xy), 0).r;
    atomicMin(minDepthBits, floatBitsToUint(depth));
    atomicMax(maxDepthBits, floatBitsToUint(depth));
    barrier();                                                          // EXPECT: cf uniform

    // Left-border tiles also take lights touching the near plane: one
    // invocation widens the range, the whole workgroup waits for it (the
    // condition is the same for every invocation of the workgroup).
    if (tile.x == 0u) {                                                 // EXPECT: branch uniform
        if (lidx == 0u) {                                               // EXPECT: branch divergent
            minDepthBits = 0u;
        }
        barrier();                                                      // EXPECT: cf uniform
    }
    float zMin = uintBitsToFloat(minDepthBits);
    float zMax = uintBitsToFloat(maxDepthBits);

    vec2 tileMin = vec2(tile * TILE);
    vec2 tileMax = tileMin + vec2(TILE);
    for (uint i = lidx; i < scene.lightCount; i += TILE * TILE) {       // EXPECT: branch divergent
        if (sphereInTile(scene.lights[i].positionRadius, tileMin, tileMax, zMin, zMax)) { // EXPECT: branch divergent
            uint slot = atomicAdd(tileLightCount, 1u);
            if (slot < MAX_LIGHTS_PER_TILE) {
                tileLightIndex[slot] = i;
            }
        }
    }
    barrier();                                                          // EXPECT: cf uniform

    // Sort the list a little for coherent shading: odd-even transposition
    // passes, a uniform trip count (UBO) with barriers in the body.
    uint listed = min(tileLightCount, uint(MAX_LIGHTS_PER_TILE));
    for (uint pass = 0u; pass < scene.refinePasses; ++pass) {           // EXPECT: branch uniform
        if ((lidx & 1u) == (pass & 1u) && lidx + 1u < listed) {
            uint a = tileLightIndex[lidx];
            uint b = tileLightIndex[lidx + 1u];
            if (a > b) {                                                // EXPECT: branch divergent
                tileLightIndex[lidx]      = b;
                tileLightIndex[lidx + 1u] = a;
            }
        }
        barrier();                                                      // EXPECT: cf uniform
    }

    uint base = tileIndex * (MAX_LIGHTS_PER_TILE + 1u);
    if (lidx == 0u) {                                                   // EXPECT: branch divergent
        tileData[base] = listed;
    }
    for (uint j = lidx; j < listed; j += TILE * TILE) {
        tileData[base + 1u + j] = tileLightIndex[j];
    }
}
