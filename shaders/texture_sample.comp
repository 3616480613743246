#version 450
// Texture2D<FMT>.Sample: textureLod at texel centres of a 32x32 image, LOD 0, with the bound
// sampler (nearest or bilinear, REPEAT addressing), a 16x16 loop per thread.
// xtask-variant: texture_sample
// xtask-variant: texture_sample_fragment FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.5 / 32.0);
            value += widen(textureLod(source, uv, 0.0));
        }
    }
    finish(value);
}
