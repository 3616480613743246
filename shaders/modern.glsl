// Shared by the modern suite's kernels (included instead of common.glsl): 32 bytes of push
// constants, the family's specialization constants 5..7, the working-set hash and data, and
// integer results.
#define FAMILY_WORDS 1
#include "common.glsl"

// The family's own specialization constants (perftest_cases::Family::constants). A kernel that
// sizes an array by FAMILY_A defines FAMILY_A_DEFAULT (an array's default size must be positive).
#ifndef FAMILY_A_DEFAULT
#define FAMILY_A_DEFAULT 0u
#endif
layout(constant_id = 5) const uint FAMILY_A = FAMILY_A_DEFAULT;
layout(constant_id = 6) const uint FAMILY_B = 0;
layout(constant_id = 7) const uint FAMILY_C = 0;

// Linear index of this workgroup, as finish() numbers them.
uint groupIndex() {
    return gl_WorkGroupID.x +
        gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
}

// Index of this thread over the whole dispatch.
uint globalIndex() {
    return groupIndex() * (LOCAL_X * LOCAL_Y) + gl_LocalInvocationIndex;
}

// The random-address hash of the modern suite: "lowbias32" (a 32-bit integer finalizer with
// full avalanche), so hashed addresses spread over the whole working set.
uint mix32(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

// Word `i` of every modern working set (the CPU model computes the same): never zero.
uint dataWord(uint i) {
    return mix32(i + 0x9e3779b9u) | 1u;
}

// Integer results: the four words go out bit for bit through finish().
void finishWords(uvec4 value) {
    finish(uintBitsToFloat(value));
}
