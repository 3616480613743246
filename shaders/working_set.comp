#version 450
// Working sets: 16-byte (uint4) loads over a working set of FAMILY_A + 1 elements, through one
// of four paths, summed with wrapping adds (perftest_cases::families::working_set).
// xtask-variant: working_set_structured WS_PATH=0
// xtask-variant: working_set_raw WS_PATH=1
// xtask-variant: working_set_aligned WS_PATH=2
// xtask-variant: working_set_bda WS_PATH=3
#extension GL_GOOGLE_include_directive : require
#if WS_PATH == 3
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "modern.glsl"

// FAMILY_A: the element mask (elements - 1; the element count is a power of two).
#define ELEMENT_MASK FAMILY_A

#if WS_PATH == 0
// StructuredBuffer<uint4>.Load
layout(set = 0, binding = 0) readonly buffer Elements {
    uvec4 elements[];
};

uvec4 loadElement(uint e) {
    return elements[e | params.elementsMask];
}
#elif WS_PATH == 1
// ByteAddressBuffer.Load4: four 32-bit loads at byte address e * 16.
layout(set = 0, binding = 0) readonly buffer Words {
    uint words[];
};

uvec4 loadElement(uint e) {
    uint w = ((e * 16u) | params.elementsMask) >> 2u;
    return uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]);
}
#elif WS_PATH == 2
// ByteAddressBuffer.Load4 through a uvec4[] view of the same binding: one aligned 16-byte load.
layout(set = 0, binding = 0) readonly buffer Words4 {
    uvec4 words4[];
};

uvec4 loadElement(uint e) {
    return words4[((e * 16u) | params.elementsMask) >> 4u];
}
#else
// BDA<uint4, align16>.Load: a buffer reference at the device address in family.xy.
layout(buffer_reference, buffer_reference_align = 16) readonly buffer Element16 {
    uvec4 value;
};

uvec4 loadElement(uint e) {
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
    return Element16(base + uint64_t(e | params.elementsMask) * 16ul).value;
}
#endif

// The element load i of this thread reads (see the Rust module for the patterns).
uint elementAt(uint i) {
    uint local = gl_LocalInvocationIndex;
    uint g = globalIndex();
    uint threads = LOCAL_X * LOCAL_Y;
    if (PATTERN == 2u) {
        // random
        return mix32(g * LOADS + i) & ELEMENT_MASK;
    }
    if (PATTERN == 3u || PATTERN == 4u) {
        uint e = mix32((g >> 5u) * LOADS + i) & ELEMENT_MASK;
        // wave-uniform: one element per 32-lane wave; wave-coherent: an aligned block of 32.
        return PATTERN == 3u ? e : ((e & ~31u) | (g & 31u));
    }
    // linear: the group's contiguous block, lanes side by side.
    return (groupIndex() * threads * LOADS + i * threads + local) & ELEMENT_MASK;
}

void main() {
    uvec4 sum = uvec4(0u);
    for (uint i = 0u; i < LOADS; ++i) {
        sum += loadElement(elementAt(i));
    }
    finishWords(sum);
}
