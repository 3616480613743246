#version 450
// Texture2D<FMT>.Sample with unnormalized coordinates: textureLod at texel centres given in
// texels, (e + 0.5), LOD 0 (an unnormalized sampler allows no other), with the bound sampler
// (nearest or bilinear, CLAMP_TO_EDGE, unnormalizedCoordinates), a 16x16 loop per thread.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            value += widen(textureLod(source, vec2(elem) + 0.5, 0.0));
        }
    }
    finish(value);
}
