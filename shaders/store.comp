#version 450
// Stores of 4, 8 or 16 bytes to a target buffer through three paths:
//   PATH 0  RWStructuredBuffer<uint|uint2|uint4>: a storage buffer of typed elements
//   PATH 1  RWByteAddressBuffer.Store/Store2/Store4: a storage buffer of words, BYTES / 4
//           consecutive words from the byte address e * BYTES
//   PATH 2  BDA<uint|uint2|uint4>: a buffer reference (aligned to BYTES) at the device address
//           in params.family.xy
// Element e receives the words dataWord(e * WORDS + k), which depend only on the address, so
// colliding stores leave the same bytes in any order. The stores are the side effect: nothing
// goes to the output buffer.
//
// Specialization constants: FAMILY_A stores per thread (S), FAMILY_B element mask (N - 1),
// FAMILY_C line mask (working set / 64 - 1); PATTERN 1 linear, 5 sparse, 2 random.
// xtask-variant: store_structured_uint PATH=0 BYTES=4
// xtask-variant: store_structured_uint2 PATH=0 BYTES=8
// xtask-variant: store_structured_uint4 PATH=0 BYTES=16
// xtask-variant: store_raw_store PATH=1 BYTES=4
// xtask-variant: store_raw_store2 PATH=1 BYTES=8
// xtask-variant: store_raw_store4 PATH=1 BYTES=16
// xtask-variant: store_bda_uint PATH=2 BYTES=4
// xtask-variant: store_bda_uint2 PATH=2 BYTES=8
// xtask-variant: store_bda_uint4 PATH=2 BYTES=16
#extension GL_GOOGLE_include_directive : require
#if PATH == 2
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "modern.glsl"

#define WORDS (BYTES / 4)

#if WORDS == 1
#define ELEMENT uint
#define VALUE(w) dataWord(w)
#elif WORDS == 2
#define ELEMENT uvec2
#define VALUE(w) uvec2(dataWord(w), dataWord(w + 1u))
#else
#define ELEMENT uvec4
#define VALUE(w) uvec4(dataWord(w), dataWord(w + 1u), dataWord(w + 2u), dataWord(w + 3u))
#endif

#if PATH == 0
layout(set = 0, binding = 0) writeonly buffer Target {
    ELEMENT elements[];
};
#elif PATH == 1
layout(set = 0, binding = 0) writeonly buffer Target {
    uint words[];
};
#else
layout(buffer_reference, buffer_reference_align = BYTES) writeonly buffer Element {
    ELEMENT value;
};
#endif

// The element the thread's store `i` goes to.
uint element(uint group, uint g, uint i) {
    uint threads = LOCAL_X * LOCAL_Y;
    uint linear = group * threads * FAMILY_A + i * threads + gl_LocalInvocationIndex;
    if (PATTERN == 1u) {
        return linear & FAMILY_B;
    } else if (PATTERN == 5u) {
        return (linear & FAMILY_C) * (64u / BYTES);
    }
    return mix32(g * FAMILY_A + i) & FAMILY_B;
}

void main() {
    uint group = groupIndex();
    uint g = globalIndex();
#if PATH == 2
    uint64_t base = (uint64_t(params.family.y) << 32) | uint64_t(params.family.x);
#endif
    for (uint i = 0u; i < FAMILY_A; ++i) {
        uint e = element(group, g, i);
#if PATH == 0
        elements[e | params.elementsMask] = VALUE(e * WORDS);
#elif PATH == 1
        uint word = ((e * BYTES) | params.elementsMask) >> 2u;
        words[word] = dataWord(e * WORDS);
#if WORDS >= 2
        words[word + 1u] = dataWord(e * WORDS + 1u);
#endif
#if WORDS == 4
        words[word + 2u] = dataWord(e * WORDS + 2u);
        words[word + 3u] = dataWord(e * WORDS + 3u);
#endif
#else
        Element(base + uint64_t(e | params.elementsMask) * uint64_t(BYTES)).value =
            VALUE(e * WORDS);
#endif
    }
}
