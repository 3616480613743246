#version 450
// Narrow loads: 256 loads per thread of 8-, 16- or 32-bit elements of a 16 KB storage buffer
// with the original addressing, widened to 32 bits and summed
// (perftest_cases::families::narrow_loads).
//   NL_TYPE 0 uint8_t, 1 uint16_t (modern data, wrapping integer sums)
//   NL_TYPE 2 float16_t (the original input data, every half finite; f32 sum)
//   NL_TYPE 3 uint (modern data, the 32-bit reference)
// The 8- and 16-bit kernels compile for Vulkan 1.1 / SPIR-V 1.3 with the storage and
// explicit-arithmetic-type extensions.
// xtask-variant: narrow_loads_u8 NL_TYPE=0 VULKAN_1_1
// xtask-variant: narrow_loads_u16 NL_TYPE=1 VULKAN_1_1
// xtask-variant: narrow_loads_f16 NL_TYPE=2 VULKAN_1_1
// xtask-variant: narrow_loads_u32 NL_TYPE=3
#extension GL_GOOGLE_include_directive : require
#if NL_TYPE == 0
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define ELEMENT uint8_t
#elif NL_TYPE == 1
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define ELEMENT uint16_t
#elif NL_TYPE == 2
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define ELEMENT float16_t
#else
#define ELEMENT uint
#endif
#include "modern.glsl"

layout(set = 0, binding = 0) readonly buffer Source {
    ELEMENT elements[];
};

void main() {
    uint start = bufferStart();
#if NL_TYPE == 2
    float sum = 0.0;
    for (uint i = 0u; i < LOADS; ++i) {
        sum += float(elements[(start + i) | params.elementsMask]);
    }
    finish(vec4(sum));
#else
    uint sum = 0u;
    for (uint i = 0u; i < LOADS; ++i) {
        sum += uint(elements[(start + i) | params.elementsMask]);
    }
    finishWords(uvec4(sum));
#endif
}
