#version 450
// Texture2D<FMT>.Sample(trilinear) / .SampleGrad(trilinear) / .SampleGrad(aniso16x): samples
// at level-0 texel centres, uv = (e + 0.5) / 32, of a six-level mip chain of a 32x32 image,
// at a level of detail of 0.5 (levels 0 and 1 blended), with the bound sampler (LINEAR
// filters and mipmap mode, REPEAT; anisotropic for MODE 2). A 16x16 loop per thread.
// MODE 0: textureLod(uv, 0.5).
// MODE 1: textureGrad(uv, (G, 0), (0, G)): isotropic, sqrt(2) level-0 texels per step.
// MODE 2: textureGrad(uv, (16 G, 0), (0, G)): a 16:1 footprint along x.
// G = sqrt(2) / 32 * (1 + 2^-12), so that an LOD rounded to 8 fraction bits is exactly 0.5.
// xtask-variant: texture_mips_lod MODE=0
// xtask-variant: texture_mips_grad MODE=1
// xtask-variant: texture_mips_aniso MODE=2
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;

const float G = 0.044204965;

vec4 sampleAt(vec2 uv) {
#if MODE == 0
    return textureLod(source, uv, 0.5);
#elif MODE == 1
    return textureGrad(source, uv, vec2(G, 0.0), vec2(0.0, G));
#else
    return textureGrad(source, uv, vec2(16.0 * G, 0.0), vec2(0.0, G));
#endif
}

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            vec2 uv = vec2(elem) * (1.0 / 32.0) + (0.5 / 32.0);
            value += widen(sampleAt(uv));
        }
    }
    finish(value);
}
