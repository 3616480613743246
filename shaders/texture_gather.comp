#version 450
// Texture2D<FMT>.Gather(c): textureGather of component COMPONENT at the corner between texels
// e and e + 1 of a 32x32 image, uv = (e + 1) / 32, so the 2x2 footprint is {e, e + 1} per axis
// (nearest REPEAT sampler). The four lanes are summed as they are. A 16x16 loop per thread.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The component to gather: 0 r, 1 g, 2 b, 3 a (textureGather needs a literal, so one call
// per value; the pipeline keeps only the one the constant selects).
layout(constant_id = 5) const uint COMPONENT = 0;

layout(set = 0, binding = 0) uniform sampler2D source;

vec4 gatherAt(vec2 uv) {
    if (COMPONENT == 1u) {
        return textureGather(source, uv, 1);
    } else if (COMPONENT == 2u) {
        return textureGather(source, uv, 2);
    } else if (COMPONENT == 3u) {
        return textureGather(source, uv, 3);
    }
    return textureGather(source, uv, 0);
}

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            vec2 uv = (vec2(elem) + 1.0) * (1.0 / 32.0);
            value += gatherAt(uv);
        }
    }
    finish(value);
}
