#version 450
// StructuredBuffer<Light|Material>[8]: two 32-byte struct views declared on one binding (eight
// descriptors over the 16 KB slots of one 128 KB buffer). 256 struct reads per thread: even i a
// Light, odd i a Material, element e of the slot; its eight words are added to a uvec4 (first
// half plus second half).
// MODE 0: slot params.index (uniform); e = ((bufferStart() + i) | elementsMask) & 511.
// MODE 1: slot g & 7 with nonuniformEXT; e = (mix32(g * 256 + i) | elementsMask) & 511.
// xtask-variant: typed_alias_uniform MODE=0
// xtask-variant: typed_alias_nonuniform MODE=1
#extension GL_GOOGLE_include_directive : require
#if MODE == 1
#extension GL_EXT_nonuniform_qualifier : require
#endif
#include "modern.glsl"

struct Light {
    uvec4 position;
    uvec4 color;
};

struct Material {
    uvec2 albedo;
    uint roughness;
    uint metalness;
    uvec4 emissive;
};

layout(set = 0, binding = 0, std430) readonly buffer Lights {
    Light l[];
} lights[8];

layout(set = 0, binding = 0, std430) readonly buffer Materials {
    Material m[];
} materials[8];

void main() {
    uvec4 sum = uvec4(0u);
#if MODE == 0
    uint slot = params.index;
    uint start = bufferStart();
#define ELEMENT(I) (((start + (I)) | params.elementsMask) & 511u)
#define SLOT slot
#else
    uint g = globalIndex();
    uint slot = g & 7u;
#define ELEMENT(I) ((mix32(g * LOADS + (I)) | params.elementsMask) & 511u)
#define SLOT nonuniformEXT(slot)
#endif
    for (uint i = 0u; i < LOADS; i += 2u) {
        Light light = lights[SLOT].l[ELEMENT(i)];
        sum += light.position + light.color;
        Material material = materials[SLOT].m[ELEMENT(i + 1u)];
        sum += uvec4(material.albedo, material.roughness, material.metalness) +
            material.emissive;
    }
    finishWords(sum);
}
