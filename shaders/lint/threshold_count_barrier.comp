#version 450
// threshold_count_barrier.comp -- issue 38's reproducer shape with barrier():
// a per-invocation search loop whose counter (a Function variable at -O0)
// decides, after the loop, whether to reach a barrier.
// Expectations: invocations leave the loop on different iterations, so 'n'
// differs per invocation after it and the barrier under the branch on it is
// not reached by the whole workgroup: an error.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; } data;
void main() {
    uint n = 0u;
    while (n < 6u) {
        if (data.v[gl_LocalInvocationIndex] > float(n)) break;
        n++;
    }
    if (n == 6u) {
        barrier();  // EXPECT: barrier-divergent-cf
    }
    data.v[gl_LocalInvocationIndex] = float(n);
}
