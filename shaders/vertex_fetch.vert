#version 450
// Vertex fetch (perftest_cases::families::vertex_fetch): each vertex sums its WIDTH attributes
// (1-4, widened to four lanes; RGB32F gets w = 1), read through the input assembler or pulled
// from a storage buffer by gl_VertexIndex. FORMAT (constant 5): 0 RGBA8 UNORM, 1 RGBA16F,
// 2 RGB32F, 3 RGBA32F.
// xtask-variant: vertex_input_1 INPUT=1
// xtask-variant: vertex_input_2 INPUT=2
// xtask-variant: vertex_input_3 INPUT=3
// xtask-variant: vertex_input_4 INPUT=4
// xtask-variant: vertex_pull_structured_rgba8 PULL=1 ELEMENT_FORMAT=0
// xtask-variant: vertex_pull_structured_rgba16f PULL=1 ELEMENT_FORMAT=1
// xtask-variant: vertex_pull_structured_rgb32f PULL=1 ELEMENT_FORMAT=2
// xtask-variant: vertex_pull_structured_rgba32f PULL=1 ELEMENT_FORMAT=3
// xtask-variant: vertex_pull_raw PULL=2
// xtask-variant: vertex_pull_address_rgba8 PULL=3 ELEMENT_FORMAT=0
// xtask-variant: vertex_pull_address_rgba16f PULL=3 ELEMENT_FORMAT=1
// xtask-variant: vertex_pull_address_rgb32f PULL=3 ELEMENT_FORMAT=2
// xtask-variant: vertex_pull_address_rgba32f PULL=3 ELEMENT_FORMAT=3
#extension GL_GOOGLE_include_directive : require
#if PULL == 3
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define FAMILY_WORDS 1
#endif
#define VERTEX 1
#include "common.glsl"

layout(constant_id = 5) const uint FORMAT = 0;

#ifdef INPUT
layout(location = 0) in vec4 attribute0;
#if INPUT >= 2
layout(location = 1) in vec4 attribute1;
#endif
#if INPUT >= 3
layout(location = 2) in vec4 attribute2;
#endif
#if INPUT >= 4
layout(location = 3) in vec4 attribute3;
#endif

vec4 attributes() {
    vec4 sum = attribute0;
#if INPUT >= 2
    sum += attribute1;
#endif
#if INPUT >= 3
    sum += attribute2;
#endif
#if INPUT >= 4
    sum += attribute3;
#endif
    return sum;
}
#else
// Element types of the typed pulls, one attribute each.
// ALIGN: the element's natural alignment, which the device-address path declares.
#if ELEMENT_FORMAT == 0
#define ELEMENT uint
#define DECODE(e) unpackUnorm4x8(e)
#define ALIGN 4
#elif ELEMENT_FORMAT == 1
#define ELEMENT uvec2
#define DECODE(e) vec4(unpackHalf2x16((e).x), unpackHalf2x16((e).y))
#define ALIGN 8
#elif ELEMENT_FORMAT == 2
struct Float3 {
    float x, y, z;
};
#define ELEMENT Float3
#define DECODE(e) vec4((e).x, (e).y, (e).z, 1.0)
#define ALIGN 4
#elif ELEMENT_FORMAT == 3
#define ELEMENT vec4
#define DECODE(e) (e)
#define ALIGN 16
#endif

#if PULL == 1
// StructuredBuffer<T>: attribute a of vertex v is element v * WIDTH + a.
layout(set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
};
vec4 fetchAttribute(uint element) {
    return DECODE(elements[element]);
}
#elif PULL == 3
// T* at a device address (family words x, y): the same elements, naturally aligned (the
// buffer's address is; every element's offset is a multiple of its size).
layout(buffer_reference, std430, buffer_reference_align = ALIGN) readonly buffer Elements {
    ELEMENT elements[];
};
vec4 fetchAttribute(uint element) {
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
    return DECODE(Elements(base).elements[element]);
}
#else
// ByteAddressBuffer: the attribute's 32-bit words at byte (v * WIDTH + a) * size, decoded.
layout(set = 0, binding = 0) readonly buffer Source {
    uint words[];
};
vec4 fetchAttribute(uint element) {
    if (FORMAT == 0u) {
        return unpackUnorm4x8(words[element]);
    } else if (FORMAT == 1u) {
        uint w = element * 2u;
        return vec4(unpackHalf2x16(words[w]), unpackHalf2x16(words[w + 1u]));
    } else if (FORMAT == 2u) {
        uint w = element * 3u;
        return vec4(uintBitsToFloat(uvec3(words[w], words[w + 1u], words[w + 2u])), 1.0);
    }
    uint w = element * 4u;
    return uintBitsToFloat(uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]));
}
#endif

vec4 attributes() {
    uint first = (uint(gl_VertexIndex) | params.elementsMask) * WIDTH;
    vec4 sum = vec4(0.0);
    for (uint a = 0u; a < WIDTH; ++a) {
        sum += fetchAttribute(first + a);
    }
    return sum;
}
#endif

void main() {
    finish(attributes());
}
