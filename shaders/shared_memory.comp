#version 450
// Shared memory: every workgroup fills 16 KB of shared memory with the modern data (each
// thread copies four 16-byte elements, then a barrier), then each thread makes LOADS loads
// through a view of SM_WORDS 32-bit words per element at element
// ((local * FAMILY_A + i * FAMILY_B) | elementsMask) & (elements - 1), summed with wrapping
// adds (perftest_cases::families::shared_memory).
// xtask-variant: shared_memory_32 SM_WORDS=1
// xtask-variant: shared_memory_64 SM_WORDS=2
// xtask-variant: shared_memory_128 SM_WORDS=4
#extension GL_GOOGLE_include_directive : require
#include "modern.glsl"

// FAMILY_A: lane stride, FAMILY_B: load step, both in elements of the view.
#define LANE_STRIDE FAMILY_A
#define LOAD_STEP FAMILY_B

// The modern data, 16 KB.
layout(set = 0, binding = 0) readonly buffer Source {
    uvec4 source[];
};

#if SM_WORDS == 1
#define ELEMENTS 4096u
shared uint s[ELEMENTS];
#elif SM_WORDS == 2
#define ELEMENTS 2048u
shared uvec2 s[ELEMENTS];
#else
#define ELEMENTS 1024u
shared uvec4 s[ELEMENTS];
#endif

// Word w of shared memory becomes word w of the modern data.
void fill() {
    uint threads = LOCAL_X * LOCAL_Y;
    for (uint k = 0u; k < 1024u / threads; ++k) {
        uint e = gl_LocalInvocationIndex + k * threads;
        uvec4 v = source[e | params.elementsMask];
#if SM_WORDS == 1
        s[4u * e] = v.x;
        s[4u * e + 1u] = v.y;
        s[4u * e + 2u] = v.z;
        s[4u * e + 3u] = v.w;
#elif SM_WORDS == 2
        s[2u * e] = v.xy;
        s[2u * e + 1u] = v.zw;
#else
        s[e] = v;
#endif
    }
    barrier();
}

void main() {
    fill();
    uint local = gl_LocalInvocationIndex;
#if SM_WORDS == 1
    uint sum = 0u;
#elif SM_WORDS == 2
    uvec2 sum = uvec2(0u);
#else
    uvec4 sum = uvec4(0u);
#endif
    for (uint i = 0u; i < LOADS; ++i) {
        uint e = ((local * LANE_STRIDE + i * LOAD_STEP) | params.elementsMask) & (ELEMENTS - 1u);
        sum += s[e];
    }
#if SM_WORDS == 1
    finishWords(uvec4(sum));
#elif SM_WORDS == 2
    finishWords(sum.xyxy);
#else
    finishWords(sum);
#endif
}
