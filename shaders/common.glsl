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

#ifdef FRAGMENT
// The fragment-shader twin of a compute kernel: one fragment per thread. A 16x16 tile of the
// attachment is one workgroup; the fragment's place in its tile is the thread's local ID
// (x fastest, as gl_LocalInvocationIndex counts), so the twin's CPU model applies unchanged.
#define NO_SHARED_MEMORY
uvec2 localId() {
    return uvec2(gl_FragCoord.xy) & 15u;
}
uint localIndexOfFragment() {
    uvec2 l = localId();
    return l.y * 16u + l.x;
}
#define localIndex() localIndexOfFragment()
#elif defined(VERTEX)
// A vertex shader (shaders that define VERTEX first): one vertex per thread, 256 vertices an
// instance, so the vertex's index in its instance is the thread's local index.
#define NO_SHARED_MEMORY
#define localIndex() (uint(gl_VertexIndex) & 255u)
#define localId() uvec2(localIndex(), 0u)
#else
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
#define localId() gl_LocalInvocationID.xy
#define localIndex() gl_LocalInvocationIndex
#endif

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

#ifdef FRAGMENT
// Verification reads the attachment back, one 16x16 tile per workgroup.
layout(location = 0) out vec4 fragmentOut;
#else
layout(set = 0, binding = 1) writeonly buffer Output {
    vec4 results[];
};
#endif

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
    uint localIndex = localIndex();
    if (PATTERN == 1u) {
        return localIndex;
    } else if (PATTERN == 2u) {
        return hash1(localIndex) & 0xfu;
    }
    return 0u;
}

// Texture families: the thread's starting texel.
uvec2 textureStart() {
    uvec2 l = localId();
    if (PATTERN == 1u) {
        return l;
    } else if (PATTERN == 2u) {
        return uvec2(hash1(l.x) & 0x4u, hash1(l.y) & 0x4u);
    }
    return uvec2(0u);
}

#ifdef FRAGMENT
// Keeps the loads alive: the fragment writes its sum when writeIndex is set (verification)
// and is discarded while timing, so no colour is written then. The condition also reads the
// sum itself (the compute kernels' shared-memory store does this for them), so that no
// compiler can move the loop into the branch that writes, even one that folds the push
// constants into the shader (lavapipe does): the lanes' sum is never -1e30 x gl_FragCoord.w
// (1 here), but only the rasterizer knows gl_FragCoord.w.
void finish(vec4 value) {
    float never = -1.0e30 * gl_FragCoord.w;
    if (params.writeIndex != 0xffffffffu || value.x + value.y + value.z + value.w == never) {
        fragmentOut = value;
    } else {
        discard;
    }
}
#elif defined(VERTEX)
// Keeps the attributes alive: the vertex stores its sum (instance after instance, vertices in
// index order) only when writeIndex is set (verification). As for fragments, the condition
// also reads the sum, against a value only the draw knows (no vertex sum is -1e30 x (index +
// 1)); were it ever true while timing, the store would go to slot 0, harmlessly.
void finish(vec4 value) {
    float never = -1.0e30 * float(gl_VertexIndex + 1);
    if (params.writeIndex != 0xffffffffu || value.x + value.y + value.z + value.w == never) {
        uint slot = params.writeIndex == 0xffffffffu
            ? 0u
            : params.writeIndex + uint(gl_InstanceIndex) * 256u + localIndex();
        results[slot] = value;
    }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
#elif defined(NO_SHARED_MEMORY)
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
