// cascade_workgroup_images.comp -- shadow cascade post-filter: one
// workgroup layer per cascade, each cascade a separate storage image.
// gl_WorkGroupID is the same for the whole workgroup (the invocation group
// of a compute dispatch), so `cascades[gl_WorkGroupID.z]` needs no
// NonUniform and nonuniformEXT() on it is redundant (a note). The per-
// texel debug view index (bucketed from the filtered depth moment) is not
// uniform: its access without nonuniformEXT() is a finding.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

#define CASCADES 4

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0, rg32f) uniform image2D cascades[CASCADES];
layout(set = 0, binding = 1, rg32f) uniform readonly image2D cascadeHistory[CASCADES];
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D debugViews[CASCADES];

layout(push_constant) uniform Filter {
    float blend;
    int   size;
} filterParams;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint cascade = gl_WorkGroupID.z;
    vec2 moments = imageLoad(cascades[cascade], p).xy;                    // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    vec2 history = imageLoad(cascadeHistory[nonuniformEXT(cascade)], p).xy; // EXPECT: nonuniform-redundant-decoration
    vec2 filtered = mix(moments, history, filterParams.blend);
    imageStore(cascades[cascade], p, vec4(filtered, 0.0, 0.0));           // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    uint view = min(uint(filtered.x * float(CASCADES)), uint(CASCADES - 1));
    imageStore(debugViews[view], p, vec4(filtered, 0.0, 1.0));            // EXPECT: nonuniform-missing-decoration
}
