#version 450
// Texture1D / Texture2DArray / Texture3D / TextureCube<FMT>.Load and .Sample: the original
// Texture2D kernels' 16x16 loop over texel coordinates (ex, ey) = (start + (x, y)) | mask,
// read from an image of another shape. Load is texelFetch; Sample is textureLod at the texel's
// centre, LOD 0, with the bound sampler (nearest, REPEAT).
//   1D:    1024 texels (the 32x32 texture's bytes), texel ey * 32 + ex.
//   array: 32x32 x 4 layers, texel (ex, ey) of layer ey & 3.
//   3D:    32x32x4, texel (ex, ey) of slice ey & 3.
//   cube:  6 faces of 32x32, texel (ex, ey) of face ey % 6; Sample uses the direction to the
//          texel's centre (major axis 1), Load a 2D-array view of the six faces.
// xtask-variant: texture_shape_1d_load SHAPE=1 OP=0
// xtask-variant: texture_shape_1d_sample SHAPE=1 OP=1
// xtask-variant: texture_shape_array_load SHAPE=2 OP=0
// xtask-variant: texture_shape_array_sample SHAPE=2 OP=1
// xtask-variant: texture_shape_3d_load SHAPE=3 OP=0
// xtask-variant: texture_shape_3d_sample SHAPE=3 OP=1
// xtask-variant: texture_shape_cube_load SHAPE=4 OP=0
// xtask-variant: texture_shape_cube_sample SHAPE=4 OP=1
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

#if SHAPE == 1
layout(set = 0, binding = 0) uniform sampler1D source;
#elif SHAPE == 3
layout(set = 0, binding = 0) uniform sampler3D source;
#elif SHAPE == 4 && OP == 1
layout(set = 0, binding = 0) uniform samplerCube source;
#else
// The array image, or the cube image's six faces seen as a 2D array.
layout(set = 0, binding = 0) uniform sampler2DArray source;
#endif

// The direction from the cube's centre through the centre of texel e of face `face`
// (0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z): the face coordinates ab = 2 (e + 0.5) / 32 - 1,
// placed as Vulkan's face selection reads them back, with a major axis of exactly 1.
vec3 cubeDirection(uint face, uvec2 e) {
    vec2 ab = vec2(e) * (2.0 / 32.0) + (1.0 / 32.0 - 1.0);
    float sgn = (face & 1u) == 0u ? 1.0 : -1.0;
    if (face < 2u) {
        return vec3(sgn, -ab.y, -sgn * ab.x);
    } else if (face < 4u) {
        return vec3(ab.x, sgn, sgn * ab.y);
    }
    return vec3(sgn * ab.x, -ab.y, sgn);
}

vec4 readTexel(uvec2 e) {
#if SHAPE == 1
    uint i = e.y * 32u + e.x;
#if OP == 0
    return texelFetch(source, int(i), 0);
#else
    return textureLod(source, (float(i) + 0.5) * (1.0 / 1024.0), 0.0);
#endif
#else
#if SHAPE == 4
    uint layer = e.y % 6u;
#else
    uint layer = e.y & 3u;
#endif
#if OP == 0
    return texelFetch(source, ivec3(uvec3(e, layer)), 0);
#else
#if SHAPE == 4
    return textureLod(source, cubeDirection(layer, e), 0.0);
#else
    vec2 uv = vec2(e) * (1.0 / 32.0) + (0.5 / 32.0);
#if SHAPE == 3
    return textureLod(source, vec3(uv, (float(layer) + 0.5) * 0.25), 0.0);
#else
    return textureLod(source, vec3(uv, float(layer)), 0.0);
#endif
#endif
#endif
#endif
}

void main() {
    uvec2 start = textureStart();
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            value += widen(readTexel(elem));
        }
    }
    finish(value);
}
