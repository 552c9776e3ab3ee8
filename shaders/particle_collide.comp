// particle_collide.comp -- particle integration with tile-local repulsion and
// plane collisions, several substeps per dispatch.
// REQUIRES: Vulkan 1.1 (SPIR-V 1.3) for the subgroup operations.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - `sim` (UBO) is UNIFORM; gl_GlobalInvocationID / gl_LocalInvocationID
//    and every particle value are DIVERGENT.
//  - The substep loop and the tile loop have UNIFORM trip counts (UBO and a
//    constant; Function-variable counters at -O0); the barrier()s in the
//    substep loop are in UNIFORM control flow.
//  - The bounce loop `for (b < sim.maxBounces)` has a UNIFORM bound, but
//    `break`s as soon as the particle is in front of the plane: a DIVERGENT
//    exit. Its condition is still a UNIFORM decision (the invocations that
//    are still inside have done the same iterations). After the loop all
//    invocations reconverge: the subgroup operations there run in UNIFORM
//    control flow.
//  - The bounds checks on gid and the elected invocation's write are
//    DIVERGENT.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require

#define GROUP_SIZE 64
#define MAX_PLANES 8

layout(local_size_x = GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;

struct Particle {
    vec4 position;   // w = radius
    vec4 velocity;   // w = remaining lifetime
};

layout(set = 0, binding = 0, std430) buffer Particles {
    Particle particles[];
};

layout(set = 0, binding = 1, std430) writeonly buffer Counters {
    uint bouncingPerGroup[];
};

layout(set = 0, binding = 2, std140) uniform SimParams {
    vec4  planes[MAX_PLANES];   // xyz = normal, w = offset
    vec4  gravity;
    uint  particleCount;
    uint  substeps;
    uint  maxBounces;
    float dt;
    float restitution;
    float repulsion;
} sim;

shared vec4 tilePositions[GROUP_SIZE];

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    bool alive = gid < sim.particleCount;

    vec4 pos = vec4(0.0);
    vec4 vel = vec4(0.0);
    if (gid < sim.particleCount) {                                     // EXPECT: branch divergent
        pos = particles[gid].position;
        vel = particles[gid].velocity;
    }

    float h = sim.dt / float(max(sim.substeps, 1u));
    bool bounced = false;
    for (uint step = 0u; step < sim.substeps; ++step) {                // EXPECT: branch uniform
        tilePositions[lid] = pos;
        barrier();                                                     // EXPECT: cf uniform

        vec3 push = vec3(0.0);
        for (uint j = 0u; j < GROUP_SIZE; ++j) {                       // EXPECT: branch uniform
            vec4 other = tilePositions[j];
            vec3 d = pos.xyz - other.xyz;
            float dist2 = dot(d, d) + 1e-6;
            float reach = pos.w + other.w;
            push += d * (sim.repulsion * max(reach * reach - dist2, 0.0) / dist2);
        }
        barrier();                                                     // EXPECT: cf uniform

        vel.xyz += (sim.gravity.xyz + push) * h;
        pos.xyz += vel.xyz * h;

        for (uint b = 0u; b < sim.maxBounces; ++b) {                   // EXPECT: branch uniform
            vec4 plane = sim.planes[b % MAX_PLANES];
            float d = dot(plane.xyz, pos.xyz) + plane.w - pos.w;
            if (d >= 0.0) {                                            // EXPECT: branch divergent
                break;
            }
            pos.xyz -= plane.xyz * d;
            vel.xyz = reflect(vel.xyz, plane.xyz) * sim.restitution;
            bounced = true;
        }
    }

    // Reconverged after all loops.
    uvec4 ballot = subgroupBallot(bounced && alive);                   // EXPECT: cf uniform
    bool anyAlive = subgroupAny(alive);                                // EXPECT: cf uniform
    if (subgroupElect()) {                                             // EXPECT: branch divergent, cf uniform
        atomicAdd(bouncingPerGroup[gl_WorkGroupID.x], anyAlive ? subgroupBallotBitCount(ballot) : 0u);
    }

    if (gid < sim.particleCount) {                                     // EXPECT: branch divergent
        particles[gid].position = pos;
        particles[gid].velocity = vec4(vel.xyz, vel.w - sim.dt);
    }
}
