// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The statistics of a run as JSON (docs/simulator.md, "Statistics") and text.

#include <cstdio>
#include <nlohmann/json.hpp>

#include "spirv_conv/sim.h"

namespace spirv_conv {
namespace sim {
namespace {

double Efficiency(uint64_t lanes, uint64_t issued, uint32_t subgroup_size) {
  return issued ? static_cast<double>(lanes) / (static_cast<double>(issued) * subgroup_size) : 0;
}

}  // namespace

std::string StatsJson(const Stats& s) {
  nlohmann::json histogram = nlohmann::json::object();
  for (size_t n = 1; n < s.tangle_sizes.size(); ++n) {
    if (s.tangle_sizes[n]) histogram[std::to_string(n)] = s.tangle_sizes[n];
  }
  nlohmann::json blocks = nlohmann::json::array();
  for (const BlockStats& b : s.blocks) {
    blocks.push_back({{"function", b.function},
                      {"block", b.block},
                      {"issued", b.issued},
                      {"active_lanes", b.active_lanes},
                      {"entries", b.entries},
                      {"visits", b.visits},
                      {"simt_efficiency", Efficiency(b.active_lanes, b.issued, s.subgroup_size)}});
  }
  nlohmann::json out = {{"model", s.model},
                        {"subgroup_size", s.subgroup_size},
                        {"workgroups", s.workgroups},
                        {"workgroup_size", s.workgroup_size},
                        {"invocations", s.invocations},
                        {"subgroups", s.subgroups},
                        {"issued", s.issued},
                        {"active_lanes", s.active_lanes},
                        {"simt_efficiency", s.SimtEfficiency()},
                        {"barriers", s.barriers},
                        {"tangle_sizes", histogram},
                        {"blocks", blocks}};
  if (s.fragment) {
    nlohmann::json undefined = nlohmann::json::array();
    for (const Stats::UndefinedDerivative& u : s.undefined_derivatives) {
      undefined.push_back({{"function", u.function},
                           {"block", u.block},
                           {"result", u.result},
                           {"opcode", u.opcode},
                           {"invocations", u.count}});
    }
    out["helper_invocations"] = s.helper_invocations;
    out["terminated"] = s.terminated;
    out["demoted"] = s.demoted;
    out["undefined_derivatives"] = undefined;
  }
  return out.dump(2) + "\n";
}

std::string StatsText(const Stats& s) {
  char line[256];
  std::string out;
  std::snprintf(
      line, sizeof(line),
      "model %s, subgroup size %u, %llu invocations in %llu subgroups\n"
      "issued %llu instructions, %llu active lanes, SIMT efficiency %.4f, %llu barriers\n",
      s.model.c_str(), s.subgroup_size, static_cast<unsigned long long>(s.invocations),
      static_cast<unsigned long long>(s.subgroups), static_cast<unsigned long long>(s.issued),
      static_cast<unsigned long long>(s.active_lanes), s.SimtEfficiency(),
      static_cast<unsigned long long>(s.barriers));
  out += line;
  if (s.fragment) {
    std::snprintf(line, sizeof(line), "%llu helper invocations, %llu terminated, %llu demoted\n",
                  static_cast<unsigned long long>(s.helper_invocations),
                  static_cast<unsigned long long>(s.terminated),
                  static_cast<unsigned long long>(s.demoted));
    out += line;
    for (const Stats::UndefinedDerivative& u : s.undefined_derivatives) {
      std::snprintf(line, sizeof(line),
                    "  undefined derivative: Op%s %%%u in %s, block %%%u: %llu invocations\n",
                    u.opcode.c_str(), u.result, u.function.c_str(), u.block,
                    static_cast<unsigned long long>(u.count));
      out += line;
    }
  }
  for (const BlockStats& b : s.blocks) {
    std::snprintf(line, sizeof(line), "  %s %%%u: issued %llu, efficiency %.4f\n",
                  b.function.c_str(), b.block, static_cast<unsigned long long>(b.issued),
                  Efficiency(b.active_lanes, b.issued, s.subgroup_size));
    out += line;
  }
  return out;
}

}  // namespace sim
}  // namespace spirv_conv
