#version 450
// Constant paths: 256 loads per thread of a value every thread needs
// (perftest_cases::families::constant_paths). start = bufferStart().
//   CP_PATH 0 push constants: family word ((start + i) | elementsMask) & 3
//   CP_PATH 1 uniform block uvec4 c[1024] (modern data): c[((start + i) | elementsMask) & 1023]
//   CP_PATH 2 storage buffer uvec4[] (modern data), a wave-uniform index, through
//             subgroupBroadcastFirst (Vulkan 1.1 / SPIR-V 1.3)
//   CP_PATH 3 the original cbuffer{float4} (vec4[1024], the original input data) indexed
//             (start + i) & 1023, without the runtime mask
// xtask-variant: constant_paths_push CP_PATH=0
// xtask-variant: constant_paths_ubo CP_PATH=1
// xtask-variant: constant_paths_broadcast CP_PATH=2 VULKAN_1_1
// xtask-variant: constant_paths_nomask CP_PATH=3
#extension GL_GOOGLE_include_directive : require
#if CP_PATH == 2
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#include "modern.glsl"

#if CP_PATH == 1
layout(set = 0, binding = 0) uniform Constants {
    uvec4 c[1024];
};
#elif CP_PATH == 2
layout(set = 0, binding = 0) readonly buffer Source {
    uvec4 elements[];
};
#elif CP_PATH == 3
layout(set = 0, binding = 0) uniform Source {
    vec4 constants[1024];
};
#endif

void main() {
    uint start = bufferStart();
#if CP_PATH == 3
    vec4 value = vec4(0.0);
    for (uint i = 0u; i < LOADS; ++i) {
        value += constants[(start + i) & 1023u];
    }
    finish(value);
#elif CP_PATH == 0
    uint sum = 0u;
    for (uint i = 0u; i < LOADS; ++i) {
        sum += params.family[((start + i) | params.elementsMask) & 3u];
    }
    finishWords(uvec4(sum));
#else
    uvec4 sum = uvec4(0u);
    for (uint i = 0u; i < LOADS; ++i) {
        uint index = ((start + i) | params.elementsMask) & 1023u;
#if CP_PATH == 1
        sum += c[index];
#else
        sum += subgroupBroadcastFirst(elements[index]);
#endif
    }
    finishWords(sum);
#endif
}
