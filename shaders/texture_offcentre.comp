#version 450
// Texture2D<FMT>.Sample(bilinear, off-centre): textureLod a quarter texel past the texel
// centre, uv = (e + 0.75) / 32 of a 32x32 image, LOD 0, with the bilinear REPEAT sampler: each
// sample blends texels e and e + 1 per axis (weights 0.75, 0.25). A 16x16 loop per thread.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.75 / 32.0);
            value += widen(textureLod(source, uv, 0.0));
        }
    }
    finish(value);
}
