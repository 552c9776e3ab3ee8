// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Workgroup memory between barriers. A workgroup barrier (OpControlBarrier
// at Workgroup execution scope whose semantics acquire and release
// WorkgroupMemory) splits an entry point's execution into intervals that
// every invocation of the workgroup passes together: valid modules execute
// it in workgroup-uniform control flow (barrier-divergent-cf checks that).
// A load from a Workgroup variable that no instruction can write within the
// interval around it reads memory nobody changes there, written before the
// barrier and made visible by it: the same value in every invocation,
// whatever was stored and by how many writers (the "last workgroup" idiom,
// shaders/lint/workgroup_last_group_flag.comp).
//
// The interval around a load is found on the CFGs: back from the load to the
// nearest barriers on every path (or the entry point's start), then forward
// from those to the next barriers, through calls and returns; a write to the
// variable anywhere on the way (a store, an atomic, a pointer handed on, a
// call that may write it) means another invocation may write it while this
// one reads.

#ifndef SOURCE_ANALYSIS_BARRIER_INTERVALS_H_
#define SOURCE_ANALYSIS_BARRIER_INTERVALS_H_

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "analysis/module_writes.h"
#include "analysis/uniformity_model.h"

namespace spirv_conv {
namespace analysis {

// Whether |inst| is a workgroup barrier that makes Workgroup memory written
// before it visible to every invocation of the workgroup after it.
bool IsWorkgroupMemoryBarrier(const ModuleIndex& index, const spvtools::opt::Instruction& inst);

// The nodes of the loads from Workgroup variables that no write can race
// with (see above), per function id. |entry_points|: the functions whose
// start begins an interval. An interval crosses calls: a call of a function
// that executes a barrier on every path and does not write the variable
// ends it, and at a function's start or return it goes on at each call of
// the function.
std::unordered_map<uint32_t, std::unordered_set<uint32_t>> BarrierSeparatedLoads(
    const ModuleWrites::Models& models, const ModuleWrites& writes,
    const std::unordered_set<uint32_t>& entry_points);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_BARRIER_INTERVALS_H_
