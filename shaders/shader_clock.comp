#version 450
// The shader clock (perftest_cases::families::shader_clock): one thread spins on the subgroup
// clock for family.w blocks of LOADS ticks (0 counts as 1). The count runs on across blocks,
// each read adding its difference from the last one masked to 20 bits, so that a clock with
// only 20 valid bits (AMD RDNA 2 and 3) wraps harmlessly and a block ends exactly LOADS ticks
// after the one before. A block gives up after 4 * LOADS reads (a clock that stands still
// ends, never hangs). Verification: every thread spins one block and writes the ticks it
// counted up to the block's end (LOADS when the clock ran), 1 when no block gave up, and the
// blocks: exact words, so that one wrong bit fails.
// xtask-variant: shader_clock
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_clock : require
#define NO_SHARED_MEMORY 1
#include "modern.glsl"

void main() {
    uint blocks = max(params.family.w, 1u);
    bool timed = params.writeIndex == 0xffffffffu;
    uint ticks = 0u;
    uint target = 0u;
    bool counted = true;
    uint done = 0u;
    if (!timed || gl_LocalInvocationIndex < 1u) {
        uint last = clock2x32ARB().x;
        for (uint b = 0u; b < blocks; ++b) {
            target += LOADS;
            uint reads = 0u;
            while (ticks < target && reads < 4u * LOADS) {
                uint now = clock2x32ARB().x;
                ticks += (now - last) & 0xfffffu;
                last = now;
                ++reads;
            }
            counted = counted && ticks >= target;
            ++done;
        }
    }
    finishWords(uvec4(min(ticks, target), counted ? 1u : 0u, done, 0u));
}
