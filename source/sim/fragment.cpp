// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "sim/fragment.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

constexpr uint32_t kMaxFrameSide = 4096;           // vk_runner's limit
constexpr uint32_t kMaxInvocations = 1024 * 1024;  // registers of every invocation stay in memory

const Frame::Input* InputAt(const Frame& frame, uint32_t location) {
  for (const Frame::Input& in : frame.inputs) {
    if (in.location == location) return &in;
  }
  return nullptr;
}

// The default plane of component |c| at |location|: u = x / width, v = y /
// height, then (location + 1) / 4 and 1, so a vec2 input spans the frame
// from 0 to 1 and texture coordinates cover each sampled image once.
std::array<double, 3> DefaultPlane(const Frame& frame, uint32_t location, uint32_t c) {
  switch (c) {
    case 0:
      return {0, 1.0 / frame.width, 0};
    case 1:
      return {0, 0, 1.0 / frame.height};
    case 2:
      return {0.25 * (location + 1), 0, 0};
    default:
      return {1, 0, 0};
  }
}

}  // namespace

Status PlaceFragments(Machine& m) {
  const Frame& frame = m.options.frame;
  const std::string& name = m.program.name;
  if (frame.width == 0 || frame.height == 0 || frame.width > kMaxFrameSide ||
      frame.height > kMaxFrameSide) {
    return MakeError(ExitCode::kBadInput, name, "the frame must be 1..4096 pixels on each side");
  }
  const size_t pixels = static_cast<size_t>(frame.width) * frame.height;
  if (!frame.coverage.empty() && frame.coverage.size() != pixels) {
    return MakeError(ExitCode::kBadInput, name,
                     "the coverage mask has " + std::to_string(frame.coverage.size()) +
                         " entries for a " + std::to_string(frame.width) + "x" +
                         std::to_string(frame.height) + " frame (" + std::to_string(pixels) + ")");
  }
  for (const Frame::Input& in : frame.inputs) {
    for (const auto& values : in.per_pixel) {
      if (!values.empty() && values.size() != pixels) {
        return MakeError(ExitCode::kBadInput, name,
                         "input location " + std::to_string(in.location) + " gives " +
                             std::to_string(values.size()) + " values per component for " +
                             std::to_string(pixels) + " pixels");
      }
    }
  }
  const uint64_t invocations = uint64_t{(frame.width + 1) / 2} * ((frame.height + 1) / 2) * 4;
  if (invocations > kMaxInvocations) {
    return MakeError(ExitCode::kBadInput, name,
                     "a " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
                         " frame runs " + std::to_string(invocations) +
                         " invocations; the simulator runs at most " +
                         std::to_string(kMaxInvocations) + " (a 1024x1024 frame)");
  }
  auto covered = [&](uint32_t x, uint32_t y) {
    if (x >= frame.width || y >= frame.height) return false;
    return frame.coverage.empty() || frame.coverage[static_cast<size_t>(y) * frame.width + x] != 0;
  };
  for (uint32_t qy = 0; qy < (frame.height + 1) / 2; ++qy) {
    for (uint32_t qx = 0; qx < (frame.width + 1) / 2; ++qx) {
      bool any = false;
      for (uint32_t i = 0; i < 4; ++i) any = any || covered(2 * qx + (i & 1), 2 * qy + (i >> 1));
      if (!any) continue;
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t x = 2 * qx + (i & 1), y = 2 * qy + (i >> 1);
        m.pixels.push_back({x, y, covered(x, y)});
      }
    }
  }
  m.invocation_count = static_cast<uint32_t>(m.pixels.size());
  m.ended_as_helper.assign(m.pixels.size(), 0);
  m.ended_terminated.assign(m.pixels.size(), 0);
  return Ok{};
}

bool FragmentBuiltin(const Machine& m, uint32_t invocation, uint32_t builtin,
                     std::vector<uint64_t>* out) {
  const Pixel& px = m.pixels[invocation];
  switch (static_cast<spv::BuiltIn>(builtin)) {
    case spv::BuiltIn::FragCoord:
      // The pixel centre; the depth of vk_runner's full-screen triangle (0) and its 1/w.
      *out = {FromDouble(px.x + 0.5, 32), FromDouble(px.y + 0.5, 32), FromDouble(0.0, 32),
              FromDouble(1.0, 32)};
      return true;
    case spv::BuiltIn::HelperInvocation:
      *out = {px.covered ? 0u : 1u};
      return true;
    case spv::BuiltIn::FrontFacing:
      *out = {m.options.frame.front_facing ? 1u : 0u};
      return true;
    case spv::BuiltIn::FragDepth:
    case spv::BuiltIn::PrimitiveId:  // the one primitive covering the frame
    case spv::BuiltIn::Layer:
    case spv::BuiltIn::ViewportIndex:
    case spv::BuiltIn::ViewIndex:
      *out = {0};
      return true;
    default:
      return false;
  }
}

void InterpolatedInput(const Machine& m, const Global& g, uint32_t invocation, uint8_t* bytes) {
  const Frame& frame = m.options.frame;
  const Pixel& px = m.pixels[invocation];
  const Layout& l = m.program.layouts[g.layout];
  const TypeInfo& t = m.program.types[l.type];
  const Frame::Input* given = InputAt(frame, g.location);
  const size_t pixel = static_cast<size_t>(std::min(px.y, frame.height - 1)) * frame.width +
                       std::min(px.x, frame.width - 1);
  for (size_t i = 0; i < l.comp_offset.size(); ++i) {
    const uint32_t c = g.component + static_cast<uint32_t>(i);
    double value;
    if (given && !given->per_pixel[c].empty()) {
      value = given->per_pixel[c][pixel];
    } else {
      const std::array<double, 3> plane =
          given ? given->plane[c]
                : (t.scalar == ScalarKind::kFloat
                       ? DefaultPlane(frame, g.location, c)
                       : std::array<double, 3>{double(g.location * 4 + c), 0, 0});
      // Helpers outside the frame extrapolate the plane, as a rasterizer does.
      value = plane[0] + plane[1] * (px.x + 0.5) + plane[2] * (px.y + 0.5);
    }
    const uint64_t bits =
        t.scalar == ScalarKind::kFloat
            ? FromDouble(value, 32)
            : static_cast<uint64_t>(static_cast<int64_t>(
                  std::trunc(std::isnan(value) ? 0.0 : std::clamp(value, -0x1p31, 0x1p32)))) &
                  0xFFFFFFFFu;
    std::memcpy(bytes + l.comp_offset[i], &bits, l.comp_bytes[i]);
  }
}

void ReadAttachments(const Machine& m, RunResult* result) {
  const Program& p = m.program;
  const Frame& frame = m.options.frame;
  for (const Global& g : p.globals) {
    if (g.storage_class != uint32_t(spv::StorageClass::Output)) continue;
    const bool depth = g.builtin == uint32_t(spv::BuiltIn::FragDepth);
    if (g.location == kNone && !depth) continue;
    const Layout& l = p.layouts[g.layout];
    const TypeInfo& t = p.types[l.type];
    Attachment a;
    a.location = depth ? -1 : static_cast<int32_t>(g.location);
    a.width = frame.width;
    a.height = frame.height;
    a.components = static_cast<uint32_t>(l.comp_offset.size());
    const TypeInfo& scalar = t.kind == TypeInfo::kVector ? p.types[t.element] : t;
    a.kind = scalar.scalar == ScalarKind::kFloat ? Attachment::Kind::kFloat
             : scalar.is_signed                  ? Attachment::Kind::kInt
                                                 : Attachment::Kind::kUint;
    a.values.assign(static_cast<size_t>(a.width) * a.height * a.components, 0.0);
    a.written.assign(static_cast<size_t>(a.width) * a.height, 0);
    for (uint32_t i = 0; i < m.invocation_count; ++i) {
      const Pixel& px = m.pixels[i];
      if (!px.covered || m.ended_as_helper[i] || m.ended_terminated[i]) continue;
      const uint8_t* bytes = m.regions[m.invocation_region_base + i].data + g.offset;
      a.written[static_cast<size_t>(px.y) * a.width + px.x] = 1;
      for (uint32_t c = 0; c < a.components; ++c) {
        uint64_t bits = 0;
        std::memcpy(&bits, bytes + l.comp_offset[c], l.comp_bytes[c]);
        double v = a.kind == Attachment::Kind::kFloat ? ToDouble(bits, 32)
                   : a.kind == Attachment::Kind::kInt ? static_cast<double>(SignExtend(bits, 32))
                                                      : static_cast<double>(bits);
        a.values[(static_cast<size_t>(px.y) * a.width + px.x) * a.components + c] = v;
      }
    }
    result->attachments.push_back(std::move(a));
  }
  std::sort(result->attachments.begin(), result->attachments.end(),
            [](const Attachment& a, const Attachment& b) { return a.location < b.location; });
}

}  // namespace sim
}  // namespace spirv_conv
