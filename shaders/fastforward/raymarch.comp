#version 450
// Shape A of loop fast-forwarding (docs/fast-forward.md), modelled on a
// sphere-tracing ray marcher (SDF scenes, volumetric clouds): each invocation
// marches its ray for MAX_STEPS steps. P is the cheap distance estimate; when
// the ray is near a surface (one step in about RARITY, from a hash of the
// invocation and the step) E shades the hit: a normal from three more
// distance samples, then a small loop over LIGHTS lights with dependent
// rounds each; otherwise C advances the ray and accumulates fog. T fades the
// colour. The loop leaves only through its condition, and E does not break
// out: the ray keeps marching and accumulating after a hit (translucent
// surfaces), so the body is `P; if (near) E else C; T`.
#ifndef RARITY
#define RARITY 16u
#endif
#ifndef MAX_STEPS
#define MAX_STEPS 64u
#endif
#define LIGHTS 4u
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } result;

uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The scene's distance at |t| along ray |ray|, in 1/1024 units: small near
// a surface.
uint distance_at(uint ray, uint t) {
  return hash(ray * 0x9e3779b9u + t) & 1023u;
}

// E: the normal from three distance samples around the hit, then each light
// with dependent rounds (visibility, attenuation, specular).
uint shade(uint ray, uint t, uint colour) {
  uint nx = distance_at(ray, t + 1u) - distance_at(ray, t - 1u);
  uint ny = distance_at(ray + 1u, t) - distance_at(ray - 1u, t);
  uint nz = hash(nx * 31u + ny);
  uint lit = 0u;
  for (uint l = 0u; l < LIGHTS; ++l) {
    uint h = hash(nx + l * 0x68e31da4u);
    h = hash(h ^ ny);
    h = hash(h + nz);
    uint diffuse = (h >> 20) * (nz & 255u);
    uint specular = hash(diffuse ^ t) >> 24;
    lit += (diffuse >> 8) + specular * specular;
  }
  return colour + hash(lit ^ colour);
}

void main() {
  uint ray = gl_GlobalInvocationID.x;
  uint t = ray & 7u;
  uint colour = 0u;
  for (uint step = 0u; step < MAX_STEPS; ++step) {
    uint d = distance_at(ray, step);                 // P
    if (d < 1024u / RARITY) {
      colour = shade(ray, t, colour);                // E: near a surface
      t += 1u;
    } else {
      t += d >> 4;                                   // C: march on, fog
      colour += (d >> 6) ^ step;
    }
    colour = colour - (colour >> 5);                 // T: fade
  }
  result.data[ray] = colour ^ t;
}
