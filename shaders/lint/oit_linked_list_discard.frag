// oit_linked_list_discard.frag -- order-independent transparency: fragments
// are appended to per-pixel linked lists, with one atomic per subgroup.
// Nearly transparent fragments are discarded first (OpKill on a per-pixel
// alpha). After that the subgroup operations see only the surviving
// invocations, which took the same path to them: subgroupAdd() and
// subgroupElect() count the survivors, as the append wants (notes,
// subgroup-op-divergent-cf). subgroupBroadcastFirst() and
// subgroupExclusiveAdd() come after `if (subgroupElect())` rejoins: the
// elect-then-atomic idiom, not counted as a rejoin, so notes too. The
// implicit-LOD texture() of the tint after the discard is a derivative
// finding. The texture() and the subgroupAny() before the discard are fine.
// The derivative findings after the discard are derivative-after-discard's:
// the discard alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(early_fragment_tests) in;

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec4 inColor;

layout(set = 0, binding = 0) uniform sampler2D particleTex;
layout(set = 0, binding = 1) uniform sampler2D tintTex;
layout(set = 0, binding = 2, r32ui) uniform coherent uimage2D headPointers;
layout(set = 0, binding = 3, std430) buffer Nodes {
    uint nodeCounter;
    uint maxNodes;
    uvec4 nodes[];   // x = packed colour, y = depth, z = next
};

void main()
{
    vec4 color = texture(particleTex, inUV) * inColor;                    // EXPECT-NOT: derivative-divergent-cf
    bool anyOpaque = subgroupAny(color.a > 0.99);                         // EXPECT-NOT: subgroup-op-divergent-cf
    if (color.a < 0.01) {
        discard;
    }
    color.rgb *= texture(tintTex, inUV * 0.5).rgb;                        // EXPECT: derivative-after-discard warning
    uint count = subgroupAdd(1u);                                         // EXPECT: subgroup-op-divergent-cf note
    uint base = 0u;
    if (subgroupElect()) {                                                // EXPECT: subgroup-op-divergent-cf note
        base = atomicAdd(nodeCounter, count);
    }
    base = subgroupBroadcastFirst(base);                                  // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
    uint node = base + subgroupExclusiveAdd(1u);                          // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
    if (node < maxNodes) {
        uint previous = imageAtomicExchange(headPointers, ivec2(gl_FragCoord.xy), node);
        nodes[node] = uvec4(packUnorm4x8(color), floatBitsToUint(gl_FragCoord.z), previous, anyOpaque ? 1u : 0u);
    }
}
