#version 450
// Structs, nested structs and arrays in std430 storage buffers: a vec3
// followed by a float packs into 16 bytes, an array of vec2 has stride 8, a
// struct array element is aligned to its largest member; loads of whole
// structs, stores of whole structs and of single members through access
// chains. Model-independent: per invocation.
layout(local_size_x = 8) in;
struct Inner { uvec2 pair; uint tag; };
struct Item {
    vec3 position;
    float weight;
    Inner inner[2];
    uint flags;
    vec2 uv[3];
};
layout(set = 0, binding = 0, std430) readonly buffer In { uint count; Item items[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { Item items[]; } outp;
layout(set = 0, binding = 2, std430) buffer Sums { uint words[]; } sums;

void main() {
    uint g = gl_GlobalInvocationID.x;
    Item it = inp.items[g];
    Item copy = it;
    copy.position = it.position.zxy * 2.0;
    copy.weight = it.weight + float(inp.count);
    copy.inner[0] = it.inner[1];
    copy.inner[1].pair = it.inner[0].pair.yx;
    copy.inner[1].tag = it.inner[0].tag ^ it.flags;
    copy.uv[g % 3u] = vec2(-1.0, 0.5);
    outp.items[g] = copy;
    outp.items[g].flags = it.flags + g;
    sums.words[g] = it.inner[0].pair.x + it.inner[1].pair.y + it.inner[1].tag
                  + uint(it.uv[2].y) + uint(it.position.y);
}
