#version 450
// Texture2D<FMT>.Sample with a separate image and sampler: the original Sample loop
// (textureLod at texel centres of a 32x32 image, LOD 0, nearest or bilinear, REPEAT), the
// texture at binding 0 and the sampler at binding 2 joined at each sample by
// sampler2D(source, smp). A 16x16 loop per thread.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 2) uniform sampler smp;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.5 / 32.0);
            value += widen(textureLod(sampler2D(source, smp), uv, 0.0));
        }
    }
    finish(value);
}
