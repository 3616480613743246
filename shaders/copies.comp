#version 450
// Copies (transfer suite, perftest_cases::families::copies) and launches
// (perftest_cases::families::launches): one compute shader for both.
// xtask-variant: copies COPY=1
// xtask-variant: launch COPY=0
// COPY=1: copies `elements` 16-byte elements from the source to the destination, both named by
// device address; each workgroup copies 256 x 16 elements (64 KB), thread t of group g the
// elements g * 4096 + j * 256 + t for j in 0..16 below `elements`.
// COPY=0: the launch family's near-empty kernel: thread 0 of each workgroup writes `value` to
// word `group` of the marker buffer at the destination address (so a launch is checked).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Elements {
    uvec4 e[];
};

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Marker {
    uint words[];
};

layout(push_constant) uniform Push {
    uint64_t src;
    uint64_t dst;
    uint elements;
    uint value;
} pc;

const uint PER_THREAD = 16u;

void main() {
#if COPY
    Elements s = Elements(pc.src);
    Elements d = Elements(pc.dst);
    uint base = gl_WorkGroupID.x * 256u * PER_THREAD + gl_LocalInvocationID.x;
    for (uint j = 0u; j < PER_THREAD; ++j) {
        uint i = base + j * 256u;
        if (i < pc.elements) {
            d.e[i] = s.e[i];
        }
    }
#else
    if (gl_LocalInvocationID.x == 0u) {
        Marker m = Marker(pc.dst);
        m.words[gl_WorkGroupID.x] = pc.value;
    }
#endif
}
