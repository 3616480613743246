#version 450
// ByteAddressBuffer.Load{,2,3,4}: WIDTH consecutive 32-bit words at a byte address,
// reinterpreted as floats (the original's asfloat).
// xtask-variant: raw_buffer
// xtask-variant: raw_buffer_fragment FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

vec4 loadWords(uint address) {
    uint w = address >> 2;
    if (WIDTH == 1u) {
        return vec4(uintBitsToFloat(words[w]));
    } else if (WIDTH == 2u) {
        return vec4(uintBitsToFloat(uvec2(words[w], words[w + 1u])), 0.0, 0.0);
    } else if (WIDTH == 3u) {
        return vec4(uintBitsToFloat(uvec3(words[w], words[w + 1u], words[w + 2u])), 0.0);
    }
    return uintBitsToFloat(uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]));
}

void main() {
    uint address = bufferStart() * 4u * WIDTH + params.readStartAddress;
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        value += widen(loadWords((address + i * 4u * WIDTH) | params.elementsMask));
    }
    finish(value);
}
