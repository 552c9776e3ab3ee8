// ssao_hemisphere.frag -- CLEAN: screen-space ambient occlusion with a
// uniform kernel size.
// The sample loop's trip count is a UBO value; range checks inside the loop
// only select weights (no branch around any sampling), and all depth reads
// are textureLod (explicit LOD). The noise texture() and the normal
// reconstruction derivatives are at the top level. No finding.
#version 450

#define MAX_KERNEL 64

layout(location = 0) in vec2 inUV;

layout(location = 0) out float outOcclusion;

layout(set = 0, binding = 0) uniform sampler2D depthTex;
layout(set = 0, binding = 1) uniform sampler2D noiseTex;

layout(set = 1, binding = 0, std140) uniform SSAO {
    mat4  projection;
    mat4  invProjection;
    vec4  kernel[MAX_KERNEL];
    vec4  noiseScale;   // xy
    int   kernelSize;
    float radius;
    float bias;
} ssao;

vec3 viewPosition(vec2 uv)
{
    float depth = textureLod(depthTex, uv, 0.0).r;
    vec4 p = ssao.invProjection * vec4(uv * 2.0 - 1.0, depth, 1.0);
    return p.xyz / p.w;
}

void main()
{
    vec3 P = viewPosition(inUV);
    vec3 N = normalize(cross(dFdx(P), dFdy(P)));
    vec3 randomVec = vec3(texture(noiseTex, inUV * ssao.noiseScale.xy).xy * 2.0 - 1.0, 0.0);
    vec3 T = normalize(randomVec - N * dot(randomVec, N));
    mat3 TBN = mat3(T, cross(N, T), N);

    float occlusion = 0.0;
    int count = min(ssao.kernelSize, MAX_KERNEL);
    for (int i = 0; i < count; ++i) {
        vec3 samplePos = P + TBN * ssao.kernel[i].xyz * ssao.radius;
        vec4 offset = ssao.projection * vec4(samplePos, 1.0);
        vec2 sampleUV = offset.xy / offset.w * 0.5 + 0.5;
        float sampleDepth = viewPosition(sampleUV).z;
        float rangeCheck = smoothstep(0.0, 1.0, ssao.radius / max(abs(P.z - sampleDepth), 1e-4));
        occlusion += (sampleDepth >= samplePos.z + ssao.bias ? 1.0 : 0.0) * rangeCheck;
    }
    outOcclusion = 1.0 - occlusion / float(max(count, 1));
}
