#version 450
// Texture2D<FMT>.Sample at medium precision: the original Sample loop (textureLod at texel
// centres of a 32x32 image, LOD 0, nearest or bilinear, REPEAT) through a sampler declared
// mediump, so every sample's result is RelaxedPrecision (a 16-bit float is enough); the
// coordinates and the sum stay at full precision. A 16x16 loop per thread.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform mediump sampler2D source;

void main() {
    uvec2 start = textureStart();
    highp vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            highp vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.5 / 32.0);
            mediump vec4 texel = textureLod(source, uv, 0.0);
            value += widen(texel);
        }
    }
    finish(value);
}
