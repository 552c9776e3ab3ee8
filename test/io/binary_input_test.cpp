// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The binary reader: every malformed word stream is one clear kBadInput
// error, and both byte orders give the same host-order words.

#include "io/input_formats.h"
#include "spirv_conv/emit.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

using test::MustAssemble;

TEST(BinaryInput, LittleAndBigEndianGiveTheSameWords) {
  const SpirvBinary module = MustAssemble(test::MinimalCompute());
  Expected<std::vector<uint32_t>> little = io::WordsFromBinary("a.spv", WordsToBytes(module.words));
  Expected<std::vector<uint32_t>> big =
      io::WordsFromBinary("a.spv", test::BigEndianBytes(module.words));
  ASSERT_TRUE(little.ok());
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*little, module.words);
  EXPECT_EQ(*big, module.words);
  EXPECT_EQ((*big)[0], io::kSpirvMagic);
}

TEST(BinaryInput, EmptyFile) {
  Expected<std::vector<uint32_t>> words = io::WordsFromBinary("e.spv", "");
  ASSERT_FALSE(words.ok());
  EXPECT_EQ(words.error().code, ExitCode::kBadInput);
  EXPECT_EQ(words.error().message, "e.spv: empty file");
}

TEST(BinaryInput, WrongMagicNamesTheNumberFound) {
  Expected<std::vector<uint32_t>> words =
      io::WordsFromBinary("m.spv", std::string("\x01\x02\x03\x04", 4));
  ASSERT_FALSE(words.ok());
  EXPECT_EQ(words.error().code, ExitCode::kBadInput);
  EXPECT_NE(words.error().message.find("wrong magic number 0x04030201"), std::string::npos)
      << words.error().message;
}

TEST(BinaryInput, TruncatedWordStream) {
  std::string bytes = WordsToBytes(MustAssemble(test::MinimalCompute()).words);
  bytes.resize(bytes.size() - 2);
  Expected<std::vector<uint32_t>> words = io::WordsFromBinary("t.spv", bytes);
  ASSERT_FALSE(words.ok());
  EXPECT_NE(words.error().message.find("not a whole number of 32-bit words"), std::string::npos);
}

TEST(BinaryInput, TruncatedHeader) {
  const std::string bytes = WordsToBytes({io::kSpirvMagic, 0x00010000u});
  Expected<std::vector<uint32_t>> words = io::WordsFromBinary("h.spv", bytes);
  ASSERT_FALSE(words.ok());
  EXPECT_NE(words.error().message.find("truncated header: 2 words"), std::string::npos);
}

TEST(BinaryInput, ShorterThanTheMagicNumber) {
  Expected<std::vector<uint32_t>> words = io::WordsFromBinary("s.spv", "ab");
  ASSERT_FALSE(words.ok());
  EXPECT_NE(words.error().message.find("2 bytes"), std::string::npos);
}

}  // namespace
}  // namespace spirv_conv
