#version 450
// Divergent access to eight 16 KB regions of one 128 KB buffer: 256 uint4 loads per thread.
// Region r: params.index for PATTERN 0 (control), g & 7 otherwise. Element e (uint4 of the
// region): ((local + i) | elementsMask) & 1023 for control and linear (PATTERN 0, 1),
// (mix32(g * 256 + i) | elementsMask) & 1023 for random (PATTERN 2).
// WAY 0: eight descriptors, one per region (nonuniformEXT when NONUNIFORM is set);
// WAY 1: one device address (params.family.xy), uint4 at base + r * 16384 + e * 16;
// WAY 2: one 128 KB binding, element r * 1024 + e.
// xtask-variant: eight_regions_slots WAY=0 NONUNIFORM=0
// xtask-variant: eight_regions_slots_nonuniform WAY=0 NONUNIFORM=1
// xtask-variant: eight_regions_bda WAY=1 NONUNIFORM=0
// xtask-variant: eight_regions_offset WAY=2 NONUNIFORM=0
#extension GL_GOOGLE_include_directive : require
#if NONUNIFORM == 1
#extension GL_EXT_nonuniform_qualifier : require
#endif
#if WAY == 1
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "modern.glsl"

#if WAY == 0
layout(set = 0, binding = 0) readonly buffer Region {
    uvec4 elements[];
} regions[8];
#if NONUNIFORM == 1
#define LOAD(R, E) regions[nonuniformEXT(R)].elements[E]
#else
#define LOAD(R, E) regions[R].elements[E]
#endif
#elif WAY == 1
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Element {
    uvec4 value;
};
#define LOAD(R, E) Element(base + uint64_t((R) * 16384u + (E) * 16u)).value
#else
layout(set = 0, binding = 0) readonly buffer Whole {
    uvec4 elements[];
};
#define LOAD(R, E) elements[(R) * 1024u + (E)]
#endif

void main() {
    uint g = globalIndex();
    uint local = gl_LocalInvocationIndex;
#if WAY == 1
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
#endif
    uint r = PATTERN == 0u ? params.index : (g & 7u);
    uvec4 sum = uvec4(0u);
    for (uint i = 0u; i < LOADS; ++i) {
        uint e = PATTERN == 2u ? mix32(g * LOADS + i) : local + i;
        e = (e | params.elementsMask) & 1023u;
        sum += LOAD(r, e);
    }
    finishWords(sum);
}
