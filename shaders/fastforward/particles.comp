#version 450
// Shape A of loop fast-forwarding (docs/fast-forward.md), modelled on a
// particle system's update (sparks, debris, fluid particles) with collision
// response: each invocation integrates one particle over SUBSTEPS sub-steps
// in fixed point. P integrates the position; when the particle hits the
// scene (one sub-step in about RARITY, from a hash of the particle and the
// sub-step) E handles the collision: the contact normal from hashed samples,
// the reflection of the velocity about it, restitution and friction, and a
// few rounds of depenetration; otherwise C applies gravity and drag. T ages
// the particle. No exits but the loop condition: `P; if (hit) E else C; T`.
#ifndef RARITY
#define RARITY 12u
#endif
#ifndef SUBSTEPS
#define SUBSTEPS 48u
#endif
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

void main() {
  uint id = gl_GlobalInvocationID.x;
  uint px = hash(id), py = hash(id + 1u), pz = hash(id + 2u);
  uint vx = px >> 20, vy = py >> 20, vz = pz >> 20;
  uint age = 0u;
  for (uint s = 0u; s < SUBSTEPS; ++s) {
    px += vx;                                         // P: integrate
    py += vy;
    pz += vz;
    uint probe = hash(px ^ (s * 0x85ebca6bu) ^ id);
    if (probe % RARITY == 0u) {
      // E: collision response.
      uint nx = hash(probe + 1u) >> 22;               // contact normal
      uint ny = hash(probe + 2u) >> 22;
      uint nz = hash(probe + 3u) >> 22;
      uint dot = (vx * nx + vy * ny + vz * nz) >> 10;
      vx = vx - 2u * dot * nx;                        // reflect
      vy = vy - 2u * dot * ny;
      vz = vz - 2u * dot * nz;
      vx = (vx * 3u) >> 2;                            // restitution
      vy = (vy * 3u) >> 2;
      vz = (vz * 3u) >> 2;
      uint friction = hash(vx ^ vy ^ vz);
      vx ^= friction & 15u;
      vy ^= (friction >> 4) & 15u;
      vz ^= (friction >> 8) & 15u;
      uint depth = hash(friction + dot);              // depenetration rounds
      depth = hash(depth ^ px);
      depth = hash(depth ^ py);
      depth = hash(depth ^ pz);
      px += (depth & 255u) * nx;
      py += ((depth >> 8) & 255u) * ny;
      pz += ((depth >> 16) & 255u) * nz;
    } else {
      vy -= 9u;                                       // C: gravity, drag
      vx -= vx >> 6;
    }
    age += 1u + (s & 1u);                             // T
  }
  result.data[id] = px ^ (py * 3u) ^ (pz * 5u) ^ vx ^ vy ^ vz ^ age;
}
