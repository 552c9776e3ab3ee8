#version 450
// shadow_cascade_break_select.frag -- the cascade search leaves the loop
// through a break block that samples the cascade it stopped at.
// Expectations: the break block runs once per iteration among the
// invocations leaving the loop in that iteration (the loop construct bounds
// the dynamic instance, SPV_KHR_maximal_reconvergence), and 'c' is the same
// for them: maps[c] needs no NonUniform there. After the loop, invocations
// that left on different iterations meet, and maps[last] is non-uniform.
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 0) uniform sampler2D maps[4];
layout(set = 0, binding = 1) uniform Cascades { vec4 splits; } cascades;
layout(location = 0) in vec3 pos;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(1.0);
    int last = 3;
    for (int c = 0; c < 4; ++c) {
        if (pos.z < cascades.splits[c]) {
            o = textureLod(maps[c], pos.xy, 0.0);        // EXPECT-NOT: nonuniform-missing-decoration
            last = c;
            break;
        }
    }
    o += textureLod(maps[last], pos.xy, 0.0);            // EXPECT: nonuniform-missing-decoration
}
