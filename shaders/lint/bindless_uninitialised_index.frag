#version 450
// bindless_uninitialised_index.frag -- glslang's spv.nonuniform.frag shape: a
// nonuniformEXT local read before anything is stored to it, next to a
// push-constant index wrapped in nonuniformEXT.
// Expectations: the uninitialised index is an undefined value; the analysis
// may treat it as uniform for the other rules, but nothing promises it is the
// same in every invocation, so the NonUniform on it is not called redundant.
// The push constant is the same everywhere: its NonUniform is redundant (a
// note).
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 0) uniform U { vec4 a; } ubufs[4];
layout(push_constant) uniform PC { int k; } pc;
layout(location = 0) out vec4 o;
void main() {
    nonuniformEXT ivec4 v;
    o = ubufs[v.y].a;                        // EXPECT-NOT: nonuniform-redundant-decoration
    o += ubufs[nonuniformEXT(pc.k)].a;       // EXPECT: nonuniform-redundant-decoration note
}
