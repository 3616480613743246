#version 450
// Texture read latency: a chain through the texels of a 2D texture, each read's coordinates
// taken from the texel the previous read returned (perftest_cases::families::texture_chain).
// FETCH: an R32_UINT texture whose texel n holds the next texel's index, read with texelFetch
// at (n & (width - 1), n >> log2(width)). SAMPLE: an RG32_SFLOAT texture whose texels hold the
// normalized coordinates of the next texel's centre, sampled at LOD 0 (nearest, clamp).
// family.x: the case's position slot; family.w: blocks of LOADS steps (0 counts as 1).
// Timed: one thread walks on from where the last dispatch stopped (its slot) and leaves its
// position there. Verification: every thread walks one block from texel 0.
// xtask-variant: texture_chain FETCH=1
// xtask-variant: texture_chain_sample SAMPLE=1
#extension GL_GOOGLE_include_directive : require
#define NO_SHARED_MEMORY 1
#include "modern.glsl"

#ifdef SAMPLE
layout(set = 0, binding = 0) uniform sampler2D chain;
#else
layout(set = 0, binding = 0) uniform usampler2D chain;
#endif

// Where each case's timed walk stands: the texel index (FETCH) or the coordinates' bits.
layout(set = 0, binding = 2) buffer Positions {
    uvec4 positions[];
};

#ifdef SAMPLE
// One step: the next coordinates, and (off the chain's critical path) the texel's index.
#define STEP at = textureLod(chain, at, 0.0).xy; \
    sum += uint(at.y * size.y) * uint(size.x) + uint(at.x * size.x);
#else
#define STEP n = texelFetch(chain, ivec2(n & mask, n >> shift), 0).r; sum += n;
#endif
#define STEP16 STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP

void main() {
    uint blocks = max(params.family.w, 1u);
    uint slot = params.family.x;
    bool timed = params.writeIndex == 0xffffffffu;
    uint sum = 0u;
#ifdef SAMPLE
    vec2 size = vec2(textureSize(chain, 0));
    vec2 at = vec2(0.0);
#else
    uint width = uint(textureSize(chain, 0).x);
    uint mask = width - 1u;
    uint shift = uint(findMSB(width));
    uint n = 0u;
#endif
    // Timed, one thread walks: nothing else competes for the texture unit.
    if (!timed || gl_LocalInvocationIndex < 1u) {
        if (timed) {
#ifdef SAMPLE
            at = uintBitsToFloat(positions[slot].xy);
#else
            n = positions[slot].x;
#endif
        }
        // Steps written out 16 at a time: Mesa's lavapipe stops any loop after 65535
        // iterations, which a loop of single steps would reach in 256 blocks.
        for (uint b = 0u; b < blocks; ++b) {
            for (uint s = 0u; s < LOADS; s += 16u) {
                STEP16
            }
        }
        if (timed) {
#ifdef SAMPLE
            positions[slot].xy = floatBitsToUint(at);
#else
            positions[slot].x = n;
#endif
        }
    }
#ifdef SAMPLE
    uint node = uint(at.y * size.y) * uint(size.x) + uint(at.x * size.x);
#else
    uint node = n;
#endif
    finishWords(uvec4(node, sum, blocks, 0u));
}
