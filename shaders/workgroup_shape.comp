#version 450
// Workgroup size and shape: the original's loads from groups of LOCAL_X x LOCAL_Y threads
// (32 to 1024), the same work per thread at every size.
//   OP_RAW      ByteAddressBuffer.Load4: 16-byte loads at start * 16 + i * 16
//   OP_TEXTURE  Texture2D<RGBA8>.Load: the 16x16 texelFetch loop from the thread's local ID
//   OP_EXCHANGE the linear raw loads, each passed to the next thread through shared memory
//               with a barrier per load
// xtask-variant: workgroup_shape_raw OP_RAW
// xtask-variant: workgroup_shape_texture OP_TEXTURE
// xtask-variant: workgroup_shape_exchange OP_EXCHANGE
#extension GL_GOOGLE_include_directive : require
// common.glsl's result array holds 256 threads; these groups reach 1024, so each kernel
// declares shared memory of its group's size here instead.
#define NO_SHARED_MEMORY
#include "common.glsl"

const uint THREADS = LOCAL_X * LOCAL_Y;

#ifdef OP_TEXTURE
layout(set = 0, binding = 0) uniform sampler2D source;
#else
layout(set = 0, binding = 0) readonly buffer Source {
    uint words[];
};

vec4 load4(uint address) {
    uint w = address >> 2;
    return uintBitsToFloat(uvec4(words[w], words[w + 1u], words[w + 2u], words[w + 3u]));
}
#endif

#ifdef OP_EXCHANGE
// Two alternating slots of one element per thread: a thread writes slot i & 1 only after the
// barrier of load i - 1, which every thread passes after reading that slot at load i - 2.
shared vec4 exchange[2u * THREADS];
#else
shared vec4 groupResults[THREADS];

// The original's end: the sum through shared memory, a barrier, then a store that only
// verification takes.
void finishThroughShared(vec4 value) {
    uint localIndex = gl_LocalInvocationIndex;
    groupResults[localIndex] = value;
    barrier();
    if (params.writeIndex != 0xffffffffu) {
        uint group = gl_WorkGroupID.x +
            gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
        results[params.writeIndex + group * THREADS + localIndex] = groupResults[localIndex];
    }
}
#endif

void main() {
    vec4 value = vec4(0.0);
#if defined(OP_TEXTURE)
    uvec2 start = textureStart();
    for (uint y = 0u; y < LOADS; ++y) {
        for (uint x = 0u; x < LOADS; ++x) {
            uvec2 elem = (start + uvec2(x, y)) | params.elementsMask;
            value += widen(texelFetch(source, ivec2(elem), 0));
        }
    }
    finishThroughShared(value);
#elif defined(OP_EXCHANGE)
    uint localIndex = gl_LocalInvocationIndex;
    uint next = (localIndex + 1u) % THREADS;
    uint address = bufferStart() * 16u;
    for (uint i = 0u; i < LOADS; ++i) {
        uint slot = (i & 1u) * THREADS;
        exchange[slot + localIndex] = load4((address + i * 16u) | params.elementsMask);
        barrier();
        value += exchange[slot + next];
    }
    finish(value);
#else
    uint address = bufferStart() * 16u;
    for (uint i = 0u; i < LOADS; ++i) {
        value += load4((address + i * 16u) | params.elementsMask);
    }
    finishThroughShared(value);
#endif
}
