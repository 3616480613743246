#version 450
// StructuredBuffer<float|float2|float4>.Load: a storage buffer of typed elements.
// xtask-variant: structured_float COMPONENTS=1
// xtask-variant: structured_float2 COMPONENTS=2
// xtask-variant: structured_float4 COMPONENTS=4
// xtask-variant: structured_float_fragment COMPONENTS=1 FRAGMENT
// xtask-variant: structured_float2_fragment COMPONENTS=2 FRAGMENT
// xtask-variant: structured_float4_fragment COMPONENTS=4 FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

#if COMPONENTS == 1
#define ELEMENT float
#define AS_VEC4(v) vec4(v)
#elif COMPONENTS == 2
#define ELEMENT vec2
#define AS_VEC4(v) vec4(v, 0.0, 0.0)
#else
#define ELEMENT vec4
#define AS_VEC4(v) (v)
#endif

layout(set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
};

void main() {
    uint start = bufferStart();
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        uint elem = (start + i) | params.elementsMask;
        value += widen(AS_VEC4(elements[elem]));
    }
    finish(value);
}
