#version 450
// mip_store_helper_arg.comp -- a helper writes one mip of an image array; the
// mip is a constant argument, the call sits in a divergent branch.
// Expectations: at -O0 glslang passes 'mip' through a Function variable that
// the caller stores right before the call; every invocation that makes the
// call stored the same constant 2, so imgs[mip] is uniform and needs no
// NonUniform, at -O0 as after inlining.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D imgs[4];
void store(int mip, ivec2 p) {
    imageStore(imgs[mip], p, vec4(1.0));     // EXPECT-NOT: nonuniform-missing-decoration
}
void main() {
    if (gl_LocalInvocationIndex < 16u) {
        store(2, ivec2(gl_GlobalInvocationID.xy));
    }
}
