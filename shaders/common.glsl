// Shared by every kernel: specialization constants, runtime parameters, the output path.
//
// Specialization constants (set by perftest-core per case):
//   0 LOCAL_X, 1 LOCAL_Y  workgroup shape: 256x1 for buffers, 16x16 for textures
//   2 PATTERN             0 uniform, 1 linear, 2 random
//   3 WIDTH               components (or 32-bit words) one load returns: 1, 2, 3 or 4
//   4 LOADS               loop trip count: 256 loads for buffers, 16x16 for textures
layout(constant_id = 0) const uint LOCAL_X = 256;
layout(constant_id = 1) const uint LOCAL_Y = 1;
layout(constant_id = 2) const uint PATTERN = 0;
layout(constant_id = 3) const uint WIDTH = 4;
layout(constant_id = 4) const uint LOADS = 256;

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;

// Runtime data the compiler must not see (the original's constant buffer).
layout(push_constant) uniform Params {
    // OR-ed into every address; always 0, it only hides the address range from the compiler.
    uint elementsMask;
    // 0xffffffff while timing (the store never happens); else the first output slot.
    uint writeIndex;
    // Byte offset of the first raw load (4 for the "unaligned" raw cases).
    uint readStartAddress;
#ifdef FAMILY_WORDS
    // A runtime index (descriptor slot, region) chosen uniformly; 0 unless the family sets it.
    uint index;
    // The family's four words (e.g. a buffer device address: low word, high word).
    uvec4 family;
#endif
} params;

layout(set = 0, binding = 1) writeonly buffer Output {
    vec4 results[];
};

#ifndef NO_SHARED_MEMORY
shared vec4 lds[256];
#endif

uint hash1(uint x) {
    return x * 0x3504f333u;
}

// Widens a load to four lanes as the original did: xxxx, xyxy, xyzx, xyzw.
vec4 widen(vec4 v) {
    if (WIDTH == 1u) {
        return v.xxxx;
    } else if (WIDTH == 2u) {
        return v.xyxy;
    } else if (WIDTH == 3u) {
        return v.xyzx;
    }
    return v;
}

// Buffer families: the thread's starting element.
uint bufferStart() {
    uint localIndex = gl_LocalInvocationIndex;
    if (PATTERN == 1u) {
        return localIndex;
    } else if (PATTERN == 2u) {
        return hash1(localIndex) & 0xfu;
    }
    return 0u;
}

// Texture families: the thread's starting texel.
uvec2 textureStart() {
    uvec2 l = gl_LocalInvocationID.xy;
    if (PATTERN == 1u) {
        return l;
    } else if (PATTERN == 2u) {
        return uvec2(hash1(l.x) & 0x4u, hash1(l.y) & 0x4u);
    }
    return uvec2(0u);
}

#ifdef NO_SHARED_MEMORY
// Keeps the results alive without shared memory (for kernels that must declare none): each
// thread stores its own value, only when writeIndex is set (verification).
void finish(vec4 value) {
    if (params.writeIndex != 0xffffffffu) {
        uint group = gl_WorkGroupID.x +
            gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
        results[params.writeIndex + group * (LOCAL_X * LOCAL_Y) + gl_LocalInvocationIndex] = value;
    }
}
#else
// Keeps the loads alive: the sum goes through shared memory to a store that only happens when
// writeIndex is set (verification), a branch never taken while timing.
void finish(vec4 value) {
    uint localIndex = gl_LocalInvocationIndex;
    lds[localIndex] = value;
    barrier();
    if (params.writeIndex != 0xffffffffu) {
        uint group = gl_WorkGroupID.x +
            gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
        results[params.writeIndex + group * (LOCAL_X * LOCAL_Y) + localIndex] = lds[localIndex];
    }
}
#endif
