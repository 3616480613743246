#version 450
// cbuffer{float4} load: a 16 KB uniform buffer of vec4[1024], dynamically indexed.
// xtask-variant: uniform_buffer
// xtask-variant: uniform_buffer_fragment FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform Source {
    vec4 constants[1024];
};

void main() {
    uint start = bufferStart();
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        uint elem = (start + i) | params.elementsMask;
        value += constants[elem];
    }
    finish(value);
}
