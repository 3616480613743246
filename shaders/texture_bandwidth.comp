#version 450
// Texture bandwidth by format: texelFetch streaming through one image, a 16-wide, 32-tall tile
// per workgroup and step, each thread fetching a texel and the one 16 rows below
// (perftest_cases::families::texture_bandwidth).
#extension GL_GOOGLE_include_directive : require
#include "modern.glsl"

// FAMILY_A: the tile mask (tiles - 1; the tile count is a power of two).
// FAMILY_B: log2 of the rows of tiles (tiles are walked a column at a time).
#define TILE_MASK FAMILY_A
#define ROW_SHIFT FAMILY_B

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    uvec2 local = gl_LocalInvocationID.xy;
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        uint t = (groupIndex() * LOADS + i) & TILE_MASK;
        uvec2 tile = uvec2(t >> ROW_SHIFT, t & ((1u << ROW_SHIFT) - 1u));
        uvec2 texel = tile * uvec2(16u, 32u) + local;
        value += widen(texelFetch(source, ivec2(texel | params.elementsMask), 0));
        value += widen(texelFetch(source, ivec2((texel + uvec2(0u, 16u)) | params.elementsMask), 0));
    }
    finish(value);
}
