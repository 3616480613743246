#version 450
// Buffer paths: the original 16 KB float data through typed views of a byte-address buffer and
// through buffer device addresses, with the original addressing
// (perftest_cases::families::buffer_path).
// xtask-variant: buffer_path_raw_float2 BP_PATH=0
// xtask-variant: buffer_path_raw_float4 BP_PATH=1
// xtask-variant: buffer_path_bda_float_align4 BP_PATH=2
// xtask-variant: buffer_path_bda_float4_align4 BP_PATH=3
// xtask-variant: buffer_path_bda_float4_align16 BP_PATH=4
#extension GL_GOOGLE_include_directive : require
#if BP_PATH >= 2
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
#include "modern.glsl"

#if BP_PATH == 0
// ByteAddressBuffer.Load<float2>: a vec2[] view indexed by byte address elem * 8.
layout(set = 0, binding = 0) readonly buffer Source {
    vec2 v2[];
};

vec4 loadElement(uint elem) {
    return vec4(v2[(elem * 8u) >> 3u], 0.0, 0.0);
}
#elif BP_PATH == 1
// ByteAddressBuffer.Load<float4>: a vec4[] view indexed by byte address elem * 16.
layout(set = 0, binding = 0) readonly buffer Source {
    vec4 v4[];
};

vec4 loadElement(uint elem) {
    return v4[(elem * 16u) >> 4u];
}
#else
#if BP_PATH == 2
// BDA<float, align4>: a float at base + elem * 4.
layout(buffer_reference, buffer_reference_align = 4) readonly buffer Ref {
    float value;
};
#define STRIDE 4ul
#define AS_VEC4(v) vec4(v)
#elif BP_PATH == 3
// BDA<float4, align4>: a vec4 at base + elem * 16, declared 4-byte aligned.
layout(buffer_reference, buffer_reference_align = 4) readonly buffer Ref {
    vec4 value;
};
#define STRIDE 16ul
#define AS_VEC4(v) (v)
#else
// BDA<float4, align16>: a vec4 at base + elem * 16, declared 16-byte aligned.
layout(buffer_reference, buffer_reference_align = 16) readonly buffer Ref {
    vec4 value;
};
#define STRIDE 16ul
#define AS_VEC4(v) (v)
#endif

vec4 loadElement(uint elem) {
    uint64_t base = uint64_t(params.family.x) | (uint64_t(params.family.y) << 32);
    return AS_VEC4(Ref(base + uint64_t(elem) * STRIDE).value);
}
#endif

void main() {
    uint start = bufferStart();
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        uint elem = (start + i) | params.elementsMask;
        value += widen(loadElement(elem));
    }
    finish(value);
}
