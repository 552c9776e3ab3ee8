#version 450
// workgroup_flag_unsynchronised.comp -- the same ticket as the "last
// workgroup" idiom, but read before any barrier separates it from the store.
// Expectations: invocation 0 may store 'flag' while the others read it, so
// the read is not the same for every invocation and the barrier under the
// branch on it may not be reached by the whole workgroup: an error. The
// second read sits between two barriers with a store after the second one:
// the store is in the next interval, so the read is uniform.
layout(local_size_x = 64) in;
shared uint flag;
layout(set = 0, binding = 0) buffer B { uint counter; uint data[]; } b;
void main() {
    if (gl_LocalInvocationIndex == 0u) {
        flag = atomicAdd(b.counter, 1u);
    }
    if (flag == 3u) {
        barrier();                           // EXPECT: barrier-divergent-cf
    }
    barrier();
    uint seen = flag;
    if (seen == 4u) {
        barrier();                           // EXPECT-NOT: barrier-divergent-cf
    }
    barrier();
    flag = gl_LocalInvocationIndex;
    b.data[gl_LocalInvocationIndex] = seen;
}
