#version 450
// config_buffer_never_written.comp -- a settings block in a storage buffer
// that the shader only reads (not declared readonly), and a results buffer
// that it writes.
// Expectations: no instruction of the module writes 'cfg' (no store, no
// atomic, no pointer into it handed on), so no invocation of this dispatch
// changes it while others read it: cfg.mode is the same for every invocation
// and the barrier under the branch on it is legal. 'res' is written by other
// invocations of the same dispatch, so the barrier under a branch on a value
// read from it is an error.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Config { uint mode; uint limit; } cfg;
layout(set = 0, binding = 1) buffer Results { uint total; uint data[]; } res;
shared uint tile[64];
void main() {
    tile[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
    if (cfg.mode == 1u) {
        barrier();                           // EXPECT-NOT: barrier-divergent-cf
    }
    if (res.total > cfg.limit) {
        barrier();                           // EXPECT: barrier-divergent-cf
    }
    res.data[gl_LocalInvocationIndex] = tile[(gl_LocalInvocationIndex + 1u) % 64u];
    atomicAdd(res.total, 1u);
}
