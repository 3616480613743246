#version 450
// Texture2D<FMT>.Load: texelFetch on a 32x32 single-mip image, a 16x16 loop per thread.
// xtask-variant: texture_load
// xtask-variant: texture_load_fragment FRAGMENT
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            value += widen(texelFetch(source, ivec2(elem), 0));
        }
    }
    finish(value);
}
