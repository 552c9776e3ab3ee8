#version 450
// Shape A of loop fast-forwarding (docs/fast-forward.md), modelled on a
// sparse work list (light or decal bins, a hash table's buckets, an
// occupancy bitmap of a sparse voxel brick): each invocation scans SLOTS
// slots of its list; one slot in about RARITY is occupied (from a hash of
// the invocation and the slot). P reads the slot's tag; E processes an
// occupied slot's item: it decodes ITEM_FIELDS fields with dependent rounds
// each and folds the result in; C does the skip bookkeeping of an empty slot.
// T advances the cursor. No exits but the loop condition:
// `P; if (occupied) E else C; T`.
#ifndef RARITY
#define RARITY 12u
#endif
#define SLOTS 64u
#define ITEM_FIELDS 3u
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
  uint sum = 0u, skipped = 0u, cursor = id;
  for (uint slot = 0u; slot < SLOTS; ++slot) {
    uint tag = hash(id * SLOTS + slot);               // P: the slot's tag
    if (tag % RARITY == 0u) {
      // E: process the item.
      uint item = hash(tag ^ cursor);
      for (uint f = 0u; f < ITEM_FIELDS; ++f) {
        uint field = hash(item + f);
        field = hash(field ^ (item >> 3));
        field = hash(field + skipped);
        item = item * 33u + field;
      }
      sum += hash(item) >> 4;
      skipped = 0u;
    } else {
      skipped += 1u;                                  // C: skip bookkeeping
      sum ^= skipped;
    }
    cursor = cursor * 5u + 1u;                        // T
  }
  result.data[id] = sum ^ cursor ^ skipped;
}
