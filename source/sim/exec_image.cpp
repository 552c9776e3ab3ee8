// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Images and samplers. A descriptor region holds an 8-byte handle into
// Machine::images (image index + 1 in the low word, sampler index + 1 in the
// high word), so loads, access chains into descriptor arrays and their bounds
// checks are the buffers' own; OpSampledImage and OpImage combine and split
// handles. Sampling follows the Vulkan spec's "Image Operations" chapter for
// 2D, 2D array, 3D and cube images: projection, cube face selection, the scale
// factor from the derivatives (implicit LOD: quad neighbours, as OpDPdx /
// OpDPdy), the level by the sampler's mipmap mode, nearest or linear texels,
// repeat or clamp-to-edge (cube faces clamp), depth comparison per texel
// before filtering.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

// Image operand bits (SPIR-V's Image Operands).
constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kConstOffset = 0x8, kOffset = 0x10,
                   kMinLod = 0x80;
// Also accepted: the memory-model bits (MakeTexel*, NonPrivateTexel, VolatileTexel),
// SignExtend / ZeroExtend, Nontemporal.
constexpr uint32_t kSupportedOperands = kBias | kLod | kGrad | kConstOffset | kOffset | kMinLod |
                                        0x100 | 0x200 | 0x400 | 0x800 | 0x1000 | 0x2000 | 0x4000;

// Where a sample is taken: normalized coordinates on one 2D level (u, v) or a
// 3D one (u, v, w), and the array layer (cube: the face, 6 per cube layer).
struct Point {
  double u = 0, v = 0, w = 0;
  uint32_t layer = 0;
};

const float* TexelPointer(const Image& image, uint32_t level, int i, int j, int k) {
  const uint32_t w = std::max(1u, image.width >> level), h = std::max(1u, image.height >> level);
  return image.levels[level].data() +
         ((static_cast<size_t>(k) * h + static_cast<size_t>(j)) * w + static_cast<size_t>(i)) * 4;
}

int Wrap(int i, int size, Sampler::Address address) {
  if (address == Sampler::Address::kClampToEdge) return std::clamp(i, 0, size - 1);
  const int r = i % size;
  return r < 0 ? r + size : r;
}

// One texel's value for the filter: its RGBA, or (depth comparison) 1 where
// the reference passes against its first component, else 0.
void Texel(const Image& image, const Sampler& s, uint32_t level, int i, int j, int k,
           const double* dref, double out[4]) {
  const Sampler::Address address =
      image.shape == Image::Shape::kCube ? Sampler::Address::kClampToEdge : s.address;
  const int w = static_cast<int>(std::max(1u, image.width >> level));
  const int h = static_cast<int>(std::max(1u, image.height >> level));
  i = Wrap(i, w, address);
  j = Wrap(j, h, address);
  if (image.shape == Image::Shape::k3D) {
    k = Wrap(k, static_cast<int>(image.LayersAt(level)), address);
  }
  const float* t = TexelPointer(image, level, i, j, k);
  if (dref) {
    const double pass = *dref <= t[0] ? 1.0 : 0.0;
    out[0] = pass;
    out[1] = out[2] = 0;
    out[3] = 1;
    return;
  }
  for (int c = 0; c < 4; ++c) out[c] = t[c];
}

// One level, nearest or (bi/tri)linear, with a texel offset.
void Filter(const Image& image, const Sampler& s, uint32_t level, Sampler::Filter filter,
            const Point& p, const int offset[3], const double* dref, double out[4]) {
  const uint32_t w = std::max(1u, image.width >> level), h = std::max(1u, image.height >> level);
  const bool volume = image.shape == Image::Shape::k3D;
  const double x = p.u * w, y = p.v * h, z = volume ? p.w * image.LayersAt(level) : 0;
  if (filter == Sampler::Filter::kNearest) {
    const int k = volume ? static_cast<int>(std::floor(z)) + offset[2] : static_cast<int>(p.layer);
    Texel(image, s, level, static_cast<int>(std::floor(x)) + offset[0],
          static_cast<int>(std::floor(y)) + offset[1], k, dref, out);
    return;
  }
  const double fx = std::floor(x - 0.5), fy = std::floor(y - 0.5);
  const double fz = volume ? std::floor(z - 0.5) : 0;
  const double a = x - 0.5 - fx, b = y - 0.5 - fy, g = volume ? z - 0.5 - fz : 0;
  const int i0 = static_cast<int>(fx) + offset[0], j0 = static_cast<int>(fy) + offset[1];
  const int k0 = volume ? static_cast<int>(fz) + offset[2] : static_cast<int>(p.layer);
  for (int c = 0; c < 4; ++c) out[c] = 0;
  for (int corner = 0; corner < (volume ? 8 : 4); ++corner) {
    const int di = corner & 1, dj = (corner >> 1) & 1, dk = corner >> 2;
    const double weight = (di ? a : 1 - a) * (dj ? b : 1 - b) * (volume ? (dk ? g : 1 - g) : 1.0);
    double t[4];
    Texel(image, s, level, i0 + di, j0 + dj, k0 + dk, dref, t);
    for (int c = 0; c < 4; ++c) out[c] += weight * t[c];
  }
}

// The sample at |lod| (biased and clamped): the magnification filter at level
// 0 when lod <= 0, else the sampler's mipmap mode between levels.
void Sample(const Image& image, const Sampler& s, const Point& p, double lod, const int offset[3],
            const double* dref, double out[4]) {
  const uint32_t q = static_cast<uint32_t>(image.levels.size()) - 1;
  if (!(lod > 0) || q == 0) {
    Filter(image, s, 0, s.filter, p, offset, dref, out);
    return;
  }
  const double d = std::min<double>(lod, q);
  if (s.mipmap == Sampler::Filter::kNearest) {
    // d = ceil(d' + 0.5) - 1: a level boundary at .5 rounds down.
    const uint32_t level = std::min(q, static_cast<uint32_t>(std::ceil(d + 0.5) - 1));
    Filter(image, s, level, s.filter, p, offset, dref, out);
    return;
  }
  const uint32_t hi = static_cast<uint32_t>(std::floor(d)), lo = std::min(hi + 1, q);
  const double delta = d - hi;
  double a[4], b[4];
  Filter(image, s, hi, s.filter, p, offset, dref, a);
  Filter(image, s, lo, s.filter, p, offset, dref, b);
  for (int c = 0; c < 4; ++c) out[c] = (1 - delta) * a[c] + delta * b[c];
}

const Image* ImageOf(const Exec& e, uint64_t handle, uint32_t lane) {
  const uint64_t index = handle & 0xFFFFFFFFu;
  if (index == 0 || index > e.m.images.size()) {
    e.Fault("image handle of lane " + std::to_string(lane) + " names no image");
    return nullptr;
  }
  return &e.m.images[index - 1];
}

const Sampler* SamplerOf(const Exec& e, uint64_t handle, uint32_t lane) {
  const uint64_t index = handle >> 32;
  if (index == 0 || index > e.m.images.size()) {
    e.Fault("sampled image of lane " + std::to_string(lane) + " has no sampler");
    return nullptr;
  }
  return &e.m.images[index - 1].sampler;
}

double Float(const Exec& e, uint32_t slot, uint32_t lane) { return ToDouble(e.R(slot)[lane], 32); }

// Writes an RGBA result to the instruction's components (integers truncated).
void WriteResult(const Exec& e, uint32_t lane, const double value[4]) {
  for (uint32_t c = 0; c < e.inst.comps && c < 4; ++c) {
    e.R(e.inst.result + c)[lane] =
        e.inst.kind == ScalarKind::kInt
            ? static_cast<uint64_t>(static_cast<int64_t>(
                  std::isnan(value[c]) ? 0.0 : std::clamp(value[c], -0x1p62, 0x1p62))) &
                  WidthMask(e.inst.width)
            : FromDouble(value[c], e.inst.width);
  }
}

// The optional operands of an image instruction, after its mask at |mask_at|.
struct Operands {
  uint32_t mask = 0;
  uint32_t bias = kNone, lod = kNone, grad_x = kNone, grad_y = kNone, offset = kNone,
           min_lod = kNone;
};

bool ParseOperands(const Exec& e, uint32_t mask_at, uint32_t fixed_end, Operands* o) {
  if (mask_at >= fixed_end) return true;
  o->mask = e.Op(mask_at);
  if (o->mask & ~kSupportedOperands) {
    char bits[16];
    std::snprintf(bits, sizeof bits, "%x", o->mask & ~kSupportedOperands);
    return e.Unsupported(std::string("image operands 0x") + bits);
  }
  uint32_t next = mask_at + 1;
  if (o->mask & kBias) o->bias = e.Op(next++);
  if (o->mask & kLod) o->lod = e.Op(next++);
  if (o->mask & kGrad) {
    o->grad_x = e.Op(next++);
    o->grad_y = e.Op(next++);
  }
  if (o->mask & kConstOffset) o->offset = e.Op(next++);
  if (o->mask & kOffset) o->offset = e.Op(next++);
  if (o->mask & kMinLod) o->min_lod = e.Op(next++);
  return true;
}

// How an instruction's coordinate reads: the image's shape and the opcode's projection.
struct Coordinates {
  Image::Shape shape = Image::Shape::k2D;
  bool arrayed = false;
  bool projective = false;
  uint32_t slot = 0;
  uint32_t comps = 0;
  uint32_t Dimensions() const { return shape == Image::Shape::k2D ? 2 : 3; }
};

// Cube face selection (Vulkan's "Cube Map Face Selection"): the major axis of
// |dir| (z, then y, then x on ties), the face and its (sc, tc, |ma|).
int CubeFace(const double dir[3]) {
  const double ax = std::fabs(dir[0]), ay = std::fabs(dir[1]), az = std::fabs(dir[2]);
  if (az >= ax && az >= ay) return dir[2] >= 0 ? 4 : 5;
  if (ay >= ax) return dir[1] >= 0 ? 2 : 3;
  return dir[0] >= 0 ? 0 : 1;
}

void OnFace(int face, const double d[3], double* s, double* t) {
  // Per face (+x, -x, +y, -y, +z, -z): sc and tc as a signed axis of the
  // direction, and the major axis ma.
  struct Axes {
    int sc;
    double sc_sign;
    int tc;
    double tc_sign;
    int ma;
  };
  static constexpr Axes kFaces[6] = {{2, -1, 1, -1, 0}, {2, 1, 1, -1, 0}, {0, 1, 2, 1, 1},
                                     {0, 1, 2, -1, 1},  {0, 1, 1, -1, 2}, {0, -1, 1, -1, 2}};
  const Axes& a = kFaces[face];
  const double m = std::fabs(d[a.ma]) > 0 ? std::fabs(d[a.ma]) : 1;
  *s = 0.5 * (a.sc_sign * d[a.sc] / m) + 0.5;
  *t = 0.5 * (a.tc_sign * d[a.tc] / m) + 0.5;
}

// Lane |lane|'s coordinate as a sample point; a cube direction is projected on
// face |*face| (chosen from it when *face < 0, so quad neighbours project on
// the face of the lane whose derivatives they give).
Point PointOf(const Exec& e, const Image& image, const Coordinates& c, uint32_t lane, int* face) {
  double x[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < c.comps && i < 4; ++i) x[i] = Float(e, c.slot + i, lane);
  if (c.projective) {
    const double q = x[c.Dimensions()];
    for (uint32_t i = 0; i < c.Dimensions(); ++i) x[i] /= q;
  }
  Point p;
  double layer = 0;
  if (c.shape == Image::Shape::kCube) {
    if (*face < 0) *face = CubeFace(x);
    OnFace(*face, x, &p.u, &p.v);
    layer = c.arrayed ? x[3] : 0;
  } else {
    p.u = x[0];
    p.v = x[1];
    p.w = c.shape == Image::Shape::k3D ? x[2] : 0;
    layer = c.arrayed ? x[2] : 0;
  }
  // Array layer: round to nearest even, clamped (Vulkan's "layer = clamp(RNE(l), 0, d - 1)").
  const uint32_t layers = c.shape == Image::Shape::kCube ? image.layers / 6 : image.layers;
  const double l = std::clamp(std::nearbyint(layer), 0.0, static_cast<double>(layers - 1));
  p.layer = static_cast<uint32_t>(l) * (c.shape == Image::Shape::kCube ? 6 : 1) +
            static_cast<uint32_t>(std::max(*face, 0));
  return p;
}

// Vulkan's λ_base from the derivatives of the normalized coordinates.
double LodFromGradients(const Image& image, const double dx[3], const double dy[3]) {
  const double size[3] = {
      static_cast<double>(image.width), static_cast<double>(image.height),
      image.shape == Image::Shape::k3D ? static_cast<double>(image.layers) : 0.0};
  double rx = 0, ry = 0;
  for (int i = 0; i < 3; ++i) {
    rx += dx[i] * size[i] * dx[i] * size[i];
    ry += dy[i] * size[i] * dy[i] * size[i];
  }
  const double rho = std::sqrt(std::max(rx, ry));
  return rho > 0 ? std::log2(rho) : -std::numeric_limits<double>::infinity();
}

// The implicit LOD's derivatives at |lane|: its own row and column of the quad
// (as OpDPdx / OpDPdy), projected as the lane's coordinate is; false when the
// quad is not complete (the LOD is then undefined).
bool ImplicitGradients(const Exec& e, const Image& image, const Coordinates& c, uint32_t lane,
                       int face, double dx[3], double dy[3]) {
  for (Axis axis : {Axis::kX, Axis::kY}) {
    const auto [from, to] = QuadPair(lane, axis, true);
    double* d = axis == Axis::kX ? dx : dy;
    if (!e.lanes.Test(from) || !e.lanes.Test(to)) {
      d[0] = d[1] = d[2] = 0;
      continue;
    }
    int f = face;
    const Point a = PointOf(e, image, c, from, &f), b = PointOf(e, image, c, to, &f);
    d[0] = b.u - a.u;
    d[1] = b.v - a.v;
    d[2] = b.w - a.w;
  }
  return QuadComplete(e.lanes, lane);
}

// The sampled image's shape, from the dimension the loader keeps in |aux|.
Image::Shape ShapeOf(const Inst& inst) {
  const auto dim = static_cast<spv::Dim>(inst.aux & 0xFF);
  return dim == spv::Dim::Dim3D  ? Image::Shape::k3D
         : dim == spv::Dim::Cube ? Image::Shape::kCube
                                 : Image::Shape::k2D;
}

bool SampleInst(const Exec& e, spv::Op op) {
  const bool dref = (e.inst.aux & kImageDref) != 0;
  Coordinates c;
  c.shape = ShapeOf(e.inst);
  c.arrayed = (e.inst.aux & kImageArrayed) != 0;
  c.projective = op == spv::Op::OpImageSampleProjImplicitLod ||
                 op == spv::Op::OpImageSampleProjExplicitLod ||
                 op == spv::Op::OpImageSampleProjDrefImplicitLod ||
                 op == spv::Op::OpImageSampleProjDrefExplicitLod;
  c.slot = e.Op(1);
  c.comps = e.Op(e.inst.num_ops);
  const bool implicit = op == spv::Op::OpImageSampleImplicitLod ||
                        op == spv::Op::OpImageSampleDrefImplicitLod ||
                        op == spv::Op::OpImageSampleProjImplicitLod ||
                        op == spv::Op::OpImageSampleProjDrefImplicitLod;
  if (implicit && !e.m.program.fragment) {
    return e.Unsupported("implicit-LOD sampling outside a Fragment entry point");
  }
  if ((e.inst.aux & 0xFF) == uint32_t(spv::Dim::SubpassData))
    return e.Unsupported("sampling of a subpass input");
  Operands o;
  if (!ParseOperands(e, dref ? 3 : 2, e.inst.num_ops, &o)) return false;
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    if (!ok) return;
    const uint64_t handle = e.R(e.Op(0))[l];
    const Image* image = ImageOf(e, handle, l);
    const Sampler* sampler = image ? SamplerOf(e, handle, l) : nullptr;
    if (!sampler) {
      ok = false;
      return;
    }
    int face = -1;
    const Point p = PointOf(e, *image, c, l, &face);
    double lod;
    if (implicit) {
      double dx[3], dy[3];
      if (!ImplicitGradients(e, *image, c, l, face, dx, dy)) CountUndefinedDerivative(e);
      lod = LodFromGradients(*image, dx, dy);
    } else if (o.grad_x != kNone) {
      double dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
      for (uint32_t i = 0; i < c.Dimensions() && i < 3; ++i) {
        dx[i] = Float(e, o.grad_x + i, l);
        dy[i] = Float(e, o.grad_y + i, l);
      }
      if (c.shape == Image::Shape::kCube) {
        // Cube gradients are of the direction: scale them onto the face.
        const double m =
            std::max({std::fabs(Float(e, c.slot, l)), std::fabs(Float(e, c.slot + 1, l)),
                      std::fabs(Float(e, c.slot + 2, l))});
        for (int i = 0; i < 3; ++i) {
          dx[i] = m > 0 ? 0.5 * dx[i] / m : 0;
          dy[i] = m > 0 ? 0.5 * dy[i] / m : 0;
        }
        dx[2] = dy[2] = 0;
      }
      lod = LodFromGradients(*image, dx, dy);
    } else {
      lod = o.lod != kNone ? Float(e, o.lod, l) : 0.0;
    }
    if (o.bias != kNone) lod += Float(e, o.bias, l);
    if (o.min_lod != kNone) lod = std::max(lod, Float(e, o.min_lod, l));
    int offset[3] = {0, 0, 0};
    for (uint32_t i = 0; o.offset != kNone && i < c.Dimensions() && c.shape != Image::Shape::kCube;
         ++i) {
      offset[i] = static_cast<int>(SignExtend(e.R(o.offset + i)[l], 32));
    }
    double reference = 0;
    if (dref) {
      reference = Float(e, e.Op(2), l);
      if (c.projective) reference /= Float(e, c.slot + c.Dimensions(), l);
    }
    double out[4];
    Sample(*image, *sampler, p, lod, offset, dref ? &reference : nullptr, out);
    if (dref) {
      e.R(e.inst.result)[l] = FromDouble(out[0], e.inst.width);
      return;
    }
    WriteResult(e, l, out);
  });
  return ok;
}

// The texel an integer coordinate names (fetch, read, write), or a fault.
// Subpass inputs are read at the fragment's own pixel plus the coordinate.
bool TexelAt(const Exec& e, const Image& image, uint32_t coord, uint32_t comps, uint32_t lane,
             uint64_t level, bool subpass, float** texel) {
  int64_t x[3] = {0, 0, 0};
  for (uint32_t i = 0; i < comps && i < 3; ++i) x[i] = SignExtend(e.R(coord + i)[lane], 32);
  if (level >= image.levels.size()) {
    return e.Fault("image level " + std::to_string(level) + " of an image with " +
                   std::to_string(image.levels.size()));
  }
  const int64_t w = std::max(1u, image.width >> level), h = std::max(1u, image.height >> level);
  const int64_t layers = image.LayersAt(static_cast<uint32_t>(level));
  if (subpass) {
    const Pixel& px = e.m.pixels[e.sg.first_invocation + lane];
    x[0] = Wrap(static_cast<int>(px.x + x[0]), static_cast<int>(w), Sampler::Address::kRepeat);
    x[1] = Wrap(static_cast<int>(px.y + x[1]), static_cast<int>(h), Sampler::Address::kRepeat);
    x[2] = 0;
  }
  if (x[0] < 0 || x[1] < 0 || x[2] < 0 || x[0] >= w || x[1] >= h || x[2] >= layers) {
    return e.Fault("out-of-bounds texel (" + std::to_string(x[0]) + ", " + std::to_string(x[1]) +
                   (layers > 1 ? ", " + std::to_string(x[2]) : std::string()) + ") of a " +
                   std::to_string(w) + "x" + std::to_string(h) +
                   (layers > 1 ? "x" + std::to_string(layers) : std::string()) + " image level");
  }
  *texel =
      const_cast<float*>(TexelPointer(image, static_cast<uint32_t>(level), static_cast<int>(x[0]),
                                      static_cast<int>(x[1]), static_cast<int>(x[2])));
  return true;
}

// A level of a default image: the checkerboard of 4-texel squares (cubes) per
// layer; array layers and cube faces tint the black squares apart.
std::vector<float> Checkerboard(uint32_t size, uint32_t depth, bool volume, bool integer) {
  std::vector<float> texels;
  for (uint32_t k = 0; k < depth; ++k) {
    for (uint32_t y = 0; y < size; ++y) {
      for (uint32_t x = 0; x < size; ++x) {
        const bool white = ((x >> 2) + (y >> 2) + (volume ? (k >> 2) : 0)) & 1;
        const float dark = volume ? 0.0f : static_cast<float>((32 * k) % 256) / 255.0f;
        const float v = integer ? (white ? 1.0f : 0.0f) : (white ? 1.0f : dark);
        texels.insert(texels.end(), {v, v, v, 1.0f});
      }
    }
  }
  return texels;
}

// The next mip level: the box average of 2x2 (3D: 2x2x2) texels, rounded to a
// byte (halves up); integer images keep the first texel of each box.
std::vector<float> Downsample(const std::vector<float>& level, uint32_t size, uint32_t depth,
                              bool volume, bool integer) {
  const uint32_t half = std::max(1u, size / 2),
                 next_depth = volume ? std::max(1u, depth / 2) : depth;
  std::vector<float> out;
  for (uint32_t k = 0; k < next_depth; ++k) {
    for (uint32_t y = 0; y < half; ++y) {
      for (uint32_t x = 0; x < half; ++x) {
        for (uint32_t c = 0; c < 4; ++c) {
          double sum = 0;
          uint32_t n = 0;
          for (uint32_t dz = 0; dz < (volume && depth > 1 ? 2u : 1u); ++dz) {
            for (uint32_t dy = 0; dy < 2; ++dy) {
              for (uint32_t dx = 0; dx < 2; ++dx) {
                const uint32_t kk = volume ? 2 * k + dz : k;
                const size_t at =
                    ((static_cast<size_t>(kk) * size + 2 * y + dy) * size + 2 * x + dx) * 4 + c;
                sum += level[at];
                ++n;
                if (integer) dx = dy = dz = 2;  // the first texel only
              }
            }
          }
          const double v = integer ? sum : std::floor(sum * 255.0 / n + 0.5) / 255.0;
          out.push_back(static_cast<float>(v));
        }
      }
    }
  }
  return out;
}

}  // namespace

uint64_t ImageHandle(uint32_t image, uint32_t sampler) {
  return (image == kNone ? 0 : uint64_t{image} + 1) |
         (sampler == kNone ? 0 : (uint64_t{sampler} + 1) << 32);
}

Image DefaultImage(uint32_t set, uint32_t binding, uint32_t element, Image::Shape shape,
                   bool arrayed, bool integer) {
  Image image;
  image.set = set;
  image.binding = binding;
  image.element = element;
  image.shape = shape;
  image.arrayed = arrayed;
  image.format = integer ? Image::Format::kRgba32i : Image::Format::kRgba8;
  const bool volume = shape == Image::Shape::k3D;
  const uint32_t size = volume ? 16 : 64;
  image.width = image.height = size;
  image.layers = volume ? 16 : (shape == Image::Shape::kCube ? 6 : 1) * (arrayed ? 4 : 1);
  std::vector<float> level = Checkerboard(size, image.layers, volume, integer);
  for (uint32_t s = size, depth = image.layers;; s /= 2) {
    image.levels.push_back(level);
    if (s == 1) break;
    level = Downsample(level, s, depth, volume, integer);
    if (volume) depth = std::max(1u, depth / 2);
  }
  return image;
}

std::vector<uint8_t> ImageDescriptor(Machine& m, const Resource& res, uint32_t element) {
  const Image* given = nullptr;
  for (const Image& image : m.options.images) {
    if (image.set == res.set && image.binding == res.binding && image.element == element) {
      given = &image;
    }
  }
  const auto shape = static_cast<Image::Shape>(res.image_shape);
  if (given && res.image && (given->shape != shape || given->arrayed != res.image_arrayed)) {
    m.Fail(ExitCode::kBadInput,
           m.program.name + ": the image given for " + std::to_string(res.set) + ":" +
               std::to_string(res.binding) + "[" + std::to_string(element) +
               "] is not of the shape the module declares (given images are 2D)");
  }
  m.images.push_back(given ? *given
                           : DefaultImage(res.set, res.binding, element, shape, res.image_arrayed,
                                          res.image_integer));
  const uint32_t index = static_cast<uint32_t>(m.images.size() - 1);
  const uint64_t handle = ImageHandle(res.image ? index : kNone, res.sampler ? index : kNone);
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &handle, 8);
  return bytes;
}

bool ExecImage(const Exec& e) {
  const auto op = static_cast<spv::Op>(e.inst.opcode);
  uint64_t* d = e.R(e.inst.result);
  const bool subpass = (e.inst.aux & 0xFF) == uint32_t(spv::Dim::SubpassData);
  switch (op) {
    case spv::Op::OpSampledImage: {
      const uint64_t* image = e.R(e.Op(0));
      const uint64_t* sampler = e.R(e.Op(1));
      ForEachLane(e.lanes, [&](uint32_t l) {
        d[l] = (image[l] & 0xFFFFFFFFu) | (sampler[l] & ~uint64_t{0xFFFFFFFFu});
      });
      return true;
    }
    case spv::Op::OpImage: {
      const uint64_t* sampled = e.R(e.Op(0));
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = sampled[l] & 0xFFFFFFFFu; });
      return true;
    }
    case spv::Op::OpImageQueryLod: {
      if (!e.m.program.fragment)
        return e.Unsupported("OpImageQueryLod outside a Fragment entry point");
      Coordinates c;
      c.shape = ShapeOf(e.inst);
      c.slot = e.Op(1);
      c.comps = e.Op(e.inst.num_ops);
      bool ok = true;
      ForEachLane(e.lanes, [&](uint32_t l) {
        const Image* image = ok ? ImageOf(e, e.R(e.Op(0))[l], l) : nullptr;
        if (!image) {
          ok = false;
          return;
        }
        int face = -1;
        PointOf(e, *image, c, l, &face);
        double dx[3], dy[3];
        if (!ImplicitGradients(e, *image, c, l, face, dx, dy)) CountUndefinedDerivative(e);
        const double lambda = LodFromGradients(*image, dx, dy);
        const double q = static_cast<double>(image->levels.size() - 1);
        const double out[4] = {std::clamp(lambda, 0.0, q), std::clamp(lambda, -1e30, 1e30), 0, 0};
        WriteResult(e, l, out);
      });
      return ok;
    }
    case spv::Op::OpImageFetch:
    case spv::Op::OpImageRead: {
      Operands o;
      if (!ParseOperands(e, 2, e.inst.num_ops, &o)) return false;
      const uint32_t comps = e.Op(e.inst.num_ops);
      bool ok = true;
      ForEachLane(e.lanes, [&](uint32_t l) {
        const Image* image = ok ? ImageOf(e, e.R(e.Op(0))[l], l) : nullptr;
        float* texel = nullptr;
        const uint64_t level = o.lod != kNone ? e.R(o.lod)[l] & 0xFFFFFFFFu : 0;
        if (!image || !TexelAt(e, *image, e.Op(1), comps, l, level, subpass, &texel)) {
          ok = false;
          return;
        }
        const double out[4] = {texel[0], texel[1], texel[2], texel[3]};
        WriteResult(e, l, out);
      });
      return ok;
    }
    case spv::Op::OpImageWrite: {
      Operands o;
      if (!ParseOperands(e, 3, e.inst.num_ops, &o)) return false;
      const uint32_t texel_comps = e.Op(e.inst.num_ops), coord_comps = e.Op(e.inst.num_ops + 1);
      bool ok = true;
      ForEachLane(e.lanes, [&](uint32_t l) {
        if (!ok) return;
        const Image* image = ImageOf(e, e.R(e.Op(0))[l], l);
        float* texel = nullptr;
        if (!image || !TexelAt(e, *image, e.Op(1), coord_comps, l, 0, false, &texel)) {
          ok = false;
          return;
        }
        if (e.sg.helpers.Test(l)) return;  // a helper's stores have no effect
        for (uint32_t c = 0; c < 4; ++c) {
          const uint64_t bits = c < texel_comps ? e.R(e.Op(2) + c)[l] : 0;
          double v = e.inst.op_kind == ScalarKind::kInt
                         ? static_cast<double>(SignExtend(bits, 32))
                         : (c < texel_comps ? ToDouble(bits, 32) : (c == 3 ? 1.0 : 0.0));
          if (image->format == Image::Format::kRgba8) {
            v = std::round(std::clamp(v, 0.0, 1.0) * 255.0) / 255.0;
          } else if (image->format == Image::Format::kR32f && c > 0) {
            v = c == 3 ? 1.0 : 0.0;
          }
          texel[c] = static_cast<float>(v);
        }
      });
      return ok;
    }
    case spv::Op::OpImageQuerySizeLod:
    case spv::Op::OpImageQuerySize:
    case spv::Op::OpImageQueryLevels: {
      bool ok = true;
      ForEachLane(e.lanes, [&](uint32_t l) {
        const Image* image = ok ? ImageOf(e, e.R(e.Op(0))[l], l) : nullptr;
        if (!image) {
          ok = false;
          return;
        }
        if (op == spv::Op::OpImageQueryLevels) {
          d[l] = image->levels.size();
          return;
        }
        const uint64_t level = op == spv::Op::OpImageQuerySizeLod ? e.R(e.Op(1))[l] : 0;
        const uint32_t shift = level < 32 ? static_cast<uint32_t>(level) : 31;
        const uint64_t size[3] = {
            std::max(1u, image->width >> shift), std::max(1u, image->height >> shift),
            image->shape == Image::Shape::kCube ? image->layers / 6 : image->LayersAt(shift)};
        for (uint32_t c = 0; c < e.inst.comps && c < 3; ++c) e.R(e.inst.result + c)[l] = size[c];
      });
      return ok;
    }
    default:
      return SampleInst(e, op);
  }
}

}  // namespace sim
}  // namespace spirv_conv
