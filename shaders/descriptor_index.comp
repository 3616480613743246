#version 450
// ByteAddressBuffer[8].Load/Load4: eight storage-buffer descriptors over the 16 KB slots of one
// 128 KB buffer, indexed at runtime. WIDTH = words per load (1 or 4); 256 loads per thread.
// MODE 0: slot params.index (uniform); element e = ((bufferStart() + i) | elementsMask) &
//   (4096 / WIDTH - 1), WIDTH words at e * WIDTH (one word is widened to all four lanes).
// MODE 1: slot g & 7 with nonuniformEXT; e = (mix32(g * 256 + i) | elementsMask) & 1023, four
//   words at e * 4.
// xtask-variant: descriptor_index_uniform MODE=0
// xtask-variant: descriptor_index_nonuniform MODE=1
#extension GL_GOOGLE_include_directive : require
#if MODE == 1
#extension GL_EXT_nonuniform_qualifier : require
#endif
#include "modern.glsl"

layout(set = 0, binding = 0) readonly buffer Slot {
    uint words[];
} slots[8];

void main() {
    uvec4 sum = uvec4(0u);
#if MODE == 0
    uint slot = params.index;
    uint start = bufferStart();
    const uint elements = 4096u / WIDTH;
    for (uint i = 0u; i < LOADS; ++i) {
        uint w = (((start + i) | params.elementsMask) & (elements - 1u)) * WIDTH;
        if (WIDTH == 1u) {
            sum += uvec4(slots[slot].words[w]);
        } else {
            sum += uvec4(slots[slot].words[w], slots[slot].words[w + 1u],
                         slots[slot].words[w + 2u], slots[slot].words[w + 3u]);
        }
    }
#else
    uint g = globalIndex();
    uint slot = g & 7u;
    for (uint i = 0u; i < LOADS; ++i) {
        uint w = ((mix32(g * LOADS + i) | params.elementsMask) & 1023u) * 4u;
        sum += uvec4(slots[nonuniformEXT(slot)].words[w],
                     slots[nonuniformEXT(slot)].words[w + 1u],
                     slots[nonuniformEXT(slot)].words[w + 2u],
                     slots[nonuniformEXT(slot)].words[w + 3u]);
    }
#endif
    finishWords(sum);
}
