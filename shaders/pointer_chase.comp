#version 450
// Load latency: every thread of the one workgroup follows the same chain of 128-byte nodes,
// each holding the device address of the next (perftest_cases::families::pointer_chase).
// family.xy: the address of node 0; family.w: blocks of LOADS steps (0 counts as 1).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "modern.glsl"

layout(buffer_reference, buffer_reference_align = 8) readonly buffer Node {
    uint64_t next;
};

void main() {
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
    uint blocks = max(params.family.w, 1u);
    uint64_t p = base;
    uint sum = 0u;
    for (uint b = 0u; b < blocks; ++b) {
        for (uint s = 0u; s < LOADS; ++s) {
            p = Node(p).next;
            // Off the chain's critical path: the visited node's index, for verification.
            sum += uint((p - base) >> 7u);
        }
    }
    finishWords(uvec4(uint((p - base) >> 7u), sum, blocks, 0u));
}
