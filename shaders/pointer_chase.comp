#version 450
// Load latency: a chain of 128-byte nodes, each holding the device address of the next
// (perftest_cases::families::pointer_chase). family.xy: the address of node 0; family.w:
// blocks of LOADS steps (0 counts as 1). Timed: one thread walks on from where the last
// dispatch stopped (bytes 8..16 of node 0) and leaves its position there. Verification:
// every thread walks one block from node 0.
//
// The kernel declares no shared memory: on GPUs where the L1 and shared memory share one array,
// what a pipeline declares can shrink its L1. The carve-out variant declares FAMILY_A words
// (perftest_cases::families::cache_carveout) and passes each thread's sum through its own word.
// xtask-variant: pointer_chase
// xtask-variant: pointer_chase_carveout CARVEOUT=1 FAMILY_A_DEFAULT=1u
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define NO_SHARED_MEMORY 1
#include "modern.glsl"

layout(buffer_reference, buffer_reference_align = 8) readonly buffer Node {
    uint64_t next;
};

layout(buffer_reference, buffer_reference_align = 8) buffer Position {
    uint64_t at;
};

#ifdef CARVEOUT
// The declared shared memory: FAMILY_A 32-bit words (at least one).
shared uint carve[FAMILY_A];
#endif

// One step: the next node, and (off the chain's critical path) its index, for verification.
#define STEP p = Node(p).next; sum += uint((p - base) >> 7u);
#define STEP16 STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP

void main() {
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
    uint blocks = max(params.family.w, 1u);
    bool timed = params.writeIndex == 0xffffffffu;
    Position position = Position(base + 8ul);
    uint64_t p = base;
    uint sum = 0u;
    // Timed, one thread walks: nothing else competes for the load path.
    if (!timed || gl_LocalInvocationIndex < 1u) {
        if (timed) {
            p = position.at;
        }
        // Steps written out 16 at a time: Mesa's lavapipe stops any loop after 65535
        // iterations, which a loop of single steps would reach in 256 blocks.
        for (uint b = 0u; b < blocks; ++b) {
            for (uint s = 0u; s < LOADS; s += 16u) {
                STEP16
            }
        }
        if (timed) {
            position.at = p;
        }
    }
#ifdef CARVEOUT
    // Each thread's own word, at an index the compiler cannot know (family.z is 0): the whole
    // array stays declared. Word 3 reads the sum back.
    uint slot = (gl_LocalInvocationIndex + params.family.z) % FAMILY_A;
    carve[slot] = sum;
    barrier();
    uint back = carve[slot];
#else
    uint back = 0u;
#endif
    finishWords(uvec4(uint((p - base) >> 7u), sum, blocks, back));
}
