// bindless_uniform_indices.frag -- post-process composite that picks its
// inputs from the bindless texture table by indices from push constants, a
// UBO and compile-time slots.
// Push constants, uniform-block members and constants are the same for every
// invocation of the draw: nonuniformEXT() on them is redundant (a note), and
// without it nothing is missing. A uniform index stays uniform inside a
// divergent branch (dynamically uniform = equal in every invocation that
// executes it), so the textureLod() there needs no decoration either.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

#define SLOT_BLUE_NOISE 3u

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D textureTable[];

layout(set = 1, binding = 0, std140) uniform Composite {
    uint sceneTexture;
    uint uiTexture;
    uint lutTexture;
    float uiOpacity;
} composite;

layout(push_constant) uniform Inputs {
    uint bloomTexture;
    uint overlayTexture;
    float bloomStrength;
} inputs;

void main()
{
    vec3 scene = texture(textureTable[composite.sceneTexture], inUV).rgb;                  // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    vec3 bloom = texture(textureTable[nonuniformEXT(inputs.bloomTexture)], inUV).rgb;     // EXPECT: nonuniform-redundant-decoration
    vec4 ui = texture(textureTable[nonuniformEXT(composite.uiTexture)], inUV);            // EXPECT: nonuniform-redundant-decoration
    float noise = texture(textureTable[nonuniformEXT(SLOT_BLUE_NOISE)], inUV * 8.0).r;    // EXPECT: nonuniform-redundant-decoration
    float grain = texture(textureTable[SLOT_BLUE_NOISE], inUV * 3.0).g;                 // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    vec3 color = scene + bloom * inputs.bloomStrength + (noise + grain - 1.0) / 255.0;
    if (ui.a > 0.0) {
        vec4 overlay = textureLod(textureTable[inputs.overlayTexture], inUV, 0.0);        // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
        color = mix(color, ui.rgb + overlay.rgb * overlay.a, ui.a * composite.uiOpacity);
    }
    vec3 graded = textureLod(textureTable[composite.lutTexture], vec2(dot(color, vec3(0.333)), 0.5), 0.0).rgb; // EXPECT-NOT: nonuniform-missing-decoration, nonuniform-redundant-decoration
    outColor = vec4(graded, 1.0);
}
