#version 450
// Implicit derivatives (perftest_cases::families::texture_derivatives): a 16x16 loop of
// samples per fragment at uv = (p + (x, y)) * STEP / 32, p = mod(gl_FragCoord.xy, 16) (the
// fragment's place in its tile plus 0.5, continuous across every 2x2 quad), from the mip
// family's six-level chains of the 32x32 textures. MODE (constant 5):
//   0 texture(uv), STEP = 2^LEVEL: the quad's derivatives give LOD LEVEL (constant 6);
//   1 textureLod(uv, LEVEL), the same samples with the LOD given;
//   2 texture(uv), STEP = (16, 1): a 16:1 footprint through the anisotropic sampler;
//   3 textureGrad(uv, (16, 0) / 32, (0, 1) / 32): the same footprint given.
#extension GL_GOOGLE_include_directive : require
#define FRAGMENT 1
#include "common.glsl"

layout(constant_id = 5) const uint MODE = 0;
layout(constant_id = 6) const uint LEVEL = 0;

layout(set = 0, binding = 0) uniform sampler2D source;

void main() {
    vec2 p = mod(gl_FragCoord.xy, 16.0);
    vec2 step = MODE >= 2u ? vec2(16.0, 1.0) : vec2(float(1u << LEVEL));
    vec4 value = vec4(0.0);
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            vec2 e = p + vec2(uvec2(x, y) | params.elementsMask);
            vec2 uv = e * step * (1.0 / 32.0);
            if (MODE == 1u) {
                value += widen(textureLod(source, uv, float(LEVEL)));
            } else if (MODE == 3u) {
                value += widen(textureGrad(source, uv, vec2(0.5, 0.0), vec2(0.0, 1.0 / 32.0)));
            } else {
                value += widen(texture(source, uv));
            }
        }
    }
    finish(value);
}
