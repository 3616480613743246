#version 450
// The original Buffer.Load, Texture2D.Load and Texture2D.Sample loops over unsigned integer
// formats (perftest_cases::families::texel_buffer_formats and texture_formats): the same
// addressing as typed_buffer.comp, texture_load.comp and texture_sample.comp, through a
// usamplerBuffer or usampler2D, summed in wrapping 32-bit integers and written bit for bit.
//   KIND 0 texel buffer (texelFetch), 1 texture texelFetch, 2 texture textureLod (nearest)
// xtask-variant: texture_formats_uint_buffer KIND=0
// xtask-variant: texture_formats_uint_load KIND=1
// xtask-variant: texture_formats_uint_sample KIND=2
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

#if KIND == 0
layout(set = 0, binding = 0) uniform usamplerBuffer source;
#else
layout(set = 0, binding = 0) uniform usampler2D source;
#endif

// widen() for integers: xxxx, xyxy, xyzx, xyzw.
uvec4 widenWords(uvec4 v) {
    if (WIDTH == 1u) {
        return v.xxxx;
    } else if (WIDTH == 2u) {
        return v.xyxy;
    } else if (WIDTH == 3u) {
        return v.xyzx;
    }
    return v;
}

void main() {
    uvec4 value = uvec4(0u);
#if KIND == 0
    uint start = bufferStart();
    for (uint i = 0u; i < LOADS; ++i) {
        uint elem = (start + i) | params.elementsMask;
        value += widenWords(texelFetch(source, int(elem)));
    }
#else
    uvec2 start = textureStart();
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
#if KIND == 1
            value += widenWords(texelFetch(source, ivec2(elem), 0));
#else
            vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.5 / 32.0);
            value += widenWords(textureLod(source, uv, 0.0));
#endif
        }
    }
#endif
    finish(uintBitsToFloat(value));
}
