#version 450
// Texture2D[32].SampleLevel: a fixed array of 32 RGBA8 64x64 textures indexed at runtime.
// Sample i of thread g reads texel (s & 63, (s >> 6) & 63), s = (g * 32 + i) | elementsMask, at
// the texel centre, LOD 0, and adds its bytes (round(value * 255)) to a uvec4.
// Texture index: MODE 0 params.index (uniform); MODE 1 ((g & 31) * N) >> 5 with nonuniformEXT;
// MODE 2 the same index resolved by a subgroupBroadcastFirst loop around the whole sample loop.
// FAMILY_A = N, textures per 32 consecutive threads.
// xtask-variant: bindless_texture_uniform MODE=0
// xtask-variant: bindless_texture_nonuniform MODE=1
// xtask-variant: bindless_texture_scalarized MODE=2 VULKAN_1_1
#extension GL_GOOGLE_include_directive : require
#if MODE == 1
#extension GL_EXT_nonuniform_qualifier : require
#elif MODE == 2
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#include "modern.glsl"

layout(set = 0, binding = 0) uniform sampler2D textures[32];

// The 32 samples of thread g from texture TEX, added to SUM.
#define SAMPLE_ALL(TEX, SUM)                                                   \
    for (uint i = 0u; i < LOADS; ++i) {                                        \
        uint s = (g * LOADS + i) | params.elementsMask;                        \
        vec2 uv = (vec2(uvec2(s & 63u, (s >> 6u) & 63u)) + 0.5) / 64.0;        \
        SUM += uvec4(round(textureLod(TEX, uv, 0.0) * 255.0));                 \
    }

void main() {
    uint g = globalIndex();
    uvec4 sum = uvec4(0u);
#if MODE == 0
    uint idx = params.index;
    SAMPLE_ALL(textures[idx], sum)
#else
    uint idx = ((g & 31u) * FAMILY_A) >> 5u;
#if MODE == 1
    SAMPLE_ALL(textures[nonuniformEXT(idx)], sum)
#else
    for (;;) {
        uint first = subgroupBroadcastFirst(idx);
        if (first == idx) {
            SAMPLE_ALL(textures[first], sum)
            break;
        }
    }
#endif
#endif
    finishWords(sum);
}
