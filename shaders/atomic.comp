#version 450
// Atomics on a result buffer at binding 0; LOADS (32) operations per thread. Operation i of
// thread g has the id g * LOADS + i, and everything it does is hashed from that id with mix32
// (lowbias32).
//   KIND 0 append per lane: an active operation (mix32(id) % 100 < FAMILY_A) takes a slot with
//          atomicAdd(counter, 1) and writes its id there (a ring of 2^20 slots after the
//          counter word)
//   KIND 1 append per wave: the same with one atomicAdd per subgroup (ballot, prefix count;
//          compiled for Vulkan 1.1 / SPIR-V 1.3, which subgroup operations need)
//   KIND 2 histogram, global atomics on 256 bins
//   KIND 3 histogram in shared memory, then one global atomicAdd per non-empty bin
//          (both: FAMILY_B = 0 uniform bins mix32(id) & 255, else 16 hot bins)
//   KIND 4 counters: atomicAdd(c[mix32(id) & FAMILY_A], 1)
//   KIND 5 the same with the returned values summed and kept
//   KIND 6 atomicOr(c[mix32(id) & FAMILY_A], 1 << (mix32(id + 0x5bd1e995) >> 27))
//   KIND 7 atomicMax(m[mix32(id) & FAMILY_A], mix32(id ^ 0xa5a5a5a5)) on 32-bit targets
//   KIND 8 the same on 64-bit targets with the value (depth << 32) | id
// xtask-variant: atomic_append_lane KIND=0
// xtask-variant: atomic_append_wave KIND=1 VULKAN_1_1
// xtask-variant: atomic_histogram_global KIND=2
// xtask-variant: atomic_histogram_shared KIND=3
// xtask-variant: atomic_counter_add KIND=4
// xtask-variant: atomic_counter_add_result KIND=5
// xtask-variant: atomic_counter_or KIND=6
// xtask-variant: atomic_max_u32 KIND=7
// xtask-variant: atomic_max_u64 KIND=8
#extension GL_GOOGLE_include_directive : require
#if KIND == 1
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#if KIND == 8
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#endif
#include "modern.glsl"

#if KIND <= 1
// Slots in the append ring.
const uint CAP = 1u << 20;
layout(set = 0, binding = 0) buffer Ring {
    uint counter;
    uint ids[];
};
#elif KIND == 8
layout(set = 0, binding = 0) buffer Targets {
    uint64_t targets[];
};
#else
layout(set = 0, binding = 0) buffer Targets {
    uint targets[];
};
#endif

#if KIND == 3
shared uint bins[256];
#endif

// The histogram bin of operation `id`: uniform over 256 bins, or (FAMILY_B != 0) three
// quarters of the operations on 16 hot bins and the rest uniform.
uint bin(uint id) {
    uint h = mix32(id);
    if (FAMILY_B != 0u) {
        return (h & 0x300u) != 0u ? (h >> 10u) & 15u : h & 255u;
    }
    return h & 255u;
}

void main() {
    uint g = globalIndex();
    uint local = gl_LocalInvocationIndex;
    uint mask = params.elementsMask;
#if KIND == 3
    bins[local] = 0u;
    barrier();
#endif
#if KIND == 5
    uint r = 0u;
#endif
    for (uint i = 0u; i < LOADS; ++i) {
        uint id = g * LOADS + i;
#if KIND == 0
        if (mix32(id) % 100u < FAMILY_A) {
            uint slot = atomicAdd(counter, 1u);
            ids[(slot | mask) & (CAP - 1u)] = id;
        }
#elif KIND == 1
        bool on = mix32(id) % 100u < FAMILY_A;
        uvec4 ballot = subgroupBallot(on);
        uint n = subgroupBallotBitCount(ballot);
        if (n != 0u) {
            uint base = 0u;
            if (subgroupElect()) {
                base = atomicAdd(counter, n);
            }
            base = subgroupBroadcastFirst(base);
            if (on) {
                uint slot = base + subgroupBallotExclusiveBitCount(ballot);
                ids[(slot | mask) & (CAP - 1u)] = id;
            }
        }
#elif KIND == 2
        atomicAdd(targets[bin(id) | mask], 1u);
#elif KIND == 3
        atomicAdd(bins[bin(id) | mask], 1u);
#else
        uint a = (mix32(id) & FAMILY_A) | mask;
#if KIND == 4
        atomicAdd(targets[a], 1u);
#elif KIND == 5
        r += atomicAdd(targets[a], 1u);
#elif KIND == 6
        atomicOr(targets[a], 1u << (mix32(id + 0x5bd1e995u) >> 27u));
#elif KIND == 7
        atomicMax(targets[a], mix32(id ^ 0xa5a5a5a5u));
#else
        uint depth = mix32(id ^ 0xa5a5a5a5u);
        atomicMax(targets[a], (uint64_t(depth) << 32) | uint64_t(id));
#endif
#endif
    }
#if KIND == 3
    barrier();
    uint count = bins[local];
    if (count != 0u) {
        atomicAdd(targets[local | mask], count);
    }
#endif
#if KIND == 5
    finishWords(uvec4(r));
#endif
}
