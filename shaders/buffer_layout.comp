#version 450
// Buffer layouts: 256 loads per thread from an array of 65536 elements (FAMILY_A + 1) of one
// layout, summed with wrapping adds (perftest_cases::families::buffer_layout).
//   LAYOUT 0: a uint4 member at offset 0 of structures of STRIDE bytes (16, 20, 32, 64); the
//             20-byte stride is only expressible with the scalar block layout
//   LAYOUT 1: a uint field at offset 0 of structures of STRIDE bytes (array of structures)
//   LAYOUT 2: the same field in its own packed uint[] (structure of arrays)
//   LAYOUT 3: ByteAddressBuffer.Load4: four 32-bit loads from a uint[] at byte address e * 16
// READ_WRITE drops `readonly` from the source block, and adds a store to it that no run makes
// (its guard is a runtime zero), so no compiler can infer read-only access from the absence
// of writes.
// xtask-variant: buffer_layout_stride16 LAYOUT=0 STRIDE=16
// xtask-variant: buffer_layout_stride20 LAYOUT=0 STRIDE=20
// xtask-variant: buffer_layout_stride32 LAYOUT=0 STRIDE=32
// xtask-variant: buffer_layout_stride64 LAYOUT=0 STRIDE=64
// xtask-variant: buffer_layout_aos16 LAYOUT=1 STRIDE=16
// xtask-variant: buffer_layout_aos32 LAYOUT=1 STRIDE=32
// xtask-variant: buffer_layout_aos64 LAYOUT=1 STRIDE=64
// xtask-variant: buffer_layout_soa LAYOUT=2
// xtask-variant: buffer_layout_raw LAYOUT=3
// xtask-variant: buffer_layout_stride16_rw LAYOUT=0 STRIDE=16 READ_WRITE
// xtask-variant: buffer_layout_raw_rw LAYOUT=3 READ_WRITE
#extension GL_GOOGLE_include_directive : require
#if LAYOUT == 0 && STRIDE == 20
#extension GL_EXT_scalar_block_layout : require
#define BLOCK_LAYOUT scalar
#else
#define BLOCK_LAYOUT std430
#endif
#include "modern.glsl"

// FAMILY_A: the element mask (elements - 1; the element count is a power of two).
#define ELEMENT_MASK FAMILY_A

#ifdef READ_WRITE
#define ACCESS
#else
#define ACCESS readonly
#endif

#if LAYOUT == 0
// STRIDE - 16 bytes of padding after the member.
struct Element {
    uvec4 value;
#if STRIDE > 16
    uint pad[(STRIDE - 16) / 4];
#endif
};
#elif LAYOUT == 1
// The field, then STRIDE - 4 bytes of the structure's other fields.
struct Element {
    uint value;
    uint rest[(STRIDE - 4) / 4];
};
#endif

#if LAYOUT == 0 || LAYOUT == 1
layout(BLOCK_LAYOUT, set = 0, binding = 0) ACCESS buffer Source {
    Element elements[];
};
#else
layout(set = 0, binding = 0) ACCESS buffer Source {
    uint words[];
};
#endif

uvec4 loadElement(uint e) {
#if LAYOUT == 0
    return elements[e | params.elementsMask].value;
#elif LAYOUT == 1
    return uvec4(elements[e | params.elementsMask].value);
#elif LAYOUT == 2
    return uvec4(words[e | params.elementsMask]);
#else
    uint w = ((e * 16u) | params.elementsMask) >> 2u;
    return uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]);
#endif
}

// The element load i of this thread reads: linear, each workgroup streams the whole array
// (lanes side by side); random, lowbias32 of the load's index over the dispatch.
uint elementAt(uint i) {
    uint threads = LOCAL_X * LOCAL_Y;
    if (PATTERN == 2u) {
        return mix32(globalIndex() * LOADS + i) & ELEMENT_MASK;
    }
    return (groupIndex() * threads * LOADS + i * threads + gl_LocalInvocationIndex) & ELEMENT_MASK;
}

void main() {
    uvec4 sum = uvec4(0u);
    for (uint i = 0u; i < LOADS; ++i) {
        sum += loadElement(elementAt(i));
    }
#ifdef READ_WRITE
    if (params.family.x != 0u) {
#if LAYOUT == 0
        elements[gl_LocalInvocationIndex].value = sum;
#else
        words[gl_LocalInvocationIndex] = sum.x;
#endif
    }
#endif
    finishWords(sum);
}
