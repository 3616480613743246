#version 450
// Buffer<FMT>.Load: a uniform texel buffer read with texelFetch. The format is the view's;
// WIDTH is its component count.
// xtask-variant: typed_buffer
// xtask-variant: typed_buffer_fragment FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform samplerBuffer source;

void main() {
    uint start = bufferStart();
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        uint elem = (start + i) | params.elementsMask;
        value += widen(texelFetch(source, int(elem)));
    }
    finish(value);
}
