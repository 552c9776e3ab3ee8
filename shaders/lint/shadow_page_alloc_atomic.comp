// shadow_page_alloc_atomic.comp -- virtual shadow map page allocation: each
// invocation that needs a page takes one from a global allocator and clears
// it in the page pool (an array of storage images).
// The page index is the result of an atomicAdd(): every invocation gets its
// own value, so it is not uniform, and the imageStore() into the pool
// without nonuniformEXT() is a finding. The cleared page's debug tag goes to
// the array of per-page buffers with the index decorated: no finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

#define PAGE_SIZE 16

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, r32f) uniform writeonly image2D pagePool[];
layout(set = 0, binding = 1, std430) buffer PageTags {
    uint tag;
    uint requestingTile;
} pageTags[];
layout(set = 0, binding = 2, std430) buffer Allocator {
    uint nextPage;
    uint poolSize;
};
layout(set = 0, binding = 3, std430) readonly buffer Requests {
    uint tileRequests[];
};

void main()
{
    uint tile = gl_GlobalInvocationID.x;
    if (tileRequests[tile] == 0u) {
        return;
    }
    uint page = atomicAdd(nextPage, 1u) % poolSize;
    for (int y = 0; y < PAGE_SIZE; ++y) {
        for (int x = 0; x < PAGE_SIZE; ++x) {
            imageStore(pagePool[page], ivec2(x, y), vec4(1.0));           // EXPECT: nonuniform-missing-decoration
        }
    }
    pageTags[nonuniformEXT(page)].tag = 1u;                               // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    pageTags[nonuniformEXT(page)].requestingTile = tile;                  // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
}
