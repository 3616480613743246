#version 450
// RWTexture2D<FMT>.Load: imageLoad from a 32x32 storage image declared with its format
// qualifier (so shaderStorageImageReadWithoutFormat is not needed), a 16x16 loop per thread
// over texel (start + (x, y)) | mask, as the original Texture2D.Load kernel.
// xtask-variant: texture_storage_r8 STORAGE_FORMAT=r8
// xtask-variant: texture_storage_rg8 STORAGE_FORMAT=rg8
// xtask-variant: texture_storage_rgba8 STORAGE_FORMAT=rgba8
// xtask-variant: texture_storage_r16f STORAGE_FORMAT=r16f
// xtask-variant: texture_storage_rg16f STORAGE_FORMAT=rg16f
// xtask-variant: texture_storage_rgba16f STORAGE_FORMAT=rgba16f
// xtask-variant: texture_storage_r32f STORAGE_FORMAT=r32f
// xtask-variant: texture_storage_rg32f STORAGE_FORMAT=rg32f
// xtask-variant: texture_storage_rgba32f STORAGE_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0, STORAGE_FORMAT) uniform readonly image2D source;

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            value += widen(imageLoad(source, ivec2(elem)));
        }
    }
    finish(value);
}
