#version 450
// The tiles fragment-shader cases draw: instance i covers tile i mod 4096 of the 1024x1024
// attachment (64 tiles of 16x16 pixels per row), as two triangles (vertices 0-5). Tile edges
// lie on pixel edges, so every fragment of a tile runs exactly once.

const vec2 CORNERS[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
    uint tile = uint(gl_InstanceIndex) & 4095u;
    vec2 pixel = (vec2(tile & 63u, tile >> 6u) + CORNERS[gl_VertexIndex]) * 16.0;
    gl_Position = vec4(pixel / 512.0 - 1.0, 0.0, 1.0);
}
