// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// LLVM's FileCheck from a GoogleTest: the expected text sits next to the
// input as `; CHECK:` lines, as in SPIRV-Tools' SinglePassRunAndMatch.

#ifndef TEST_FILE_CHECK_H_
#define TEST_FILE_CHECK_H_

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace test {

// Matches |input| against the CHECK lines of |checks| with FileCheck
// (llvm-19-tools, SPIRV_CONV_FILECHECK); each string of |implicit_check_not|
// must then appear in no line of |input| that a CHECK does not match (FileCheck
// skips these implicit CHECK-NOTs right after a CHECK-DAG group: where the
// exact set matters, use ordered CHECKs). On a mismatch the result carries
// FileCheck's report.
::testing::AssertionResult FileCheck(const std::string& checks, const std::string& input,
                                     const std::vector<std::string>& implicit_check_not = {});

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_FILE_CHECK_H_
