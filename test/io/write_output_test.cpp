// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Never lose data: atomic replacement, the input is never overwritten,
// failures leave the old file and no temporary behind.

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "spirv_conv/emit.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

class WriteOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/spirv_conv_write_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::system(("rm -rf " + dir_ + " && mkdir -p " + dir_).c_str());
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  // Names in the directory other than "." and "..".
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    DIR* d = opendir(dir_.c_str());
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
    return names;
  }

  std::string dir_;
};

TEST_F(WriteOutputTest, WritesAndReplaces) {
  ASSERT_TRUE(WriteOutput(Path("out.spv"), "first", {}).ok());
  EXPECT_EQ(Read(Path("out.spv")), "first");
  ASSERT_TRUE(WriteOutput(Path("out.spv"), "second", {}).ok());
  EXPECT_EQ(Read(Path("out.spv")), "second");
  EXPECT_EQ(Entries(), std::vector<std::string>{"out.spv"});  // no temporary left
}

TEST_F(WriteOutputTest, KeepsTheModeOfAnExistingFile) {
  ASSERT_TRUE(WriteOutput(Path("m.spv"), "a", {}).ok());
  ASSERT_EQ(chmod(Path("m.spv").c_str(), 0640), 0);
  ASSERT_TRUE(WriteOutput(Path("m.spv"), "b", {}).ok());
  struct stat info;
  ASSERT_EQ(stat(Path("m.spv").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
}

TEST_F(WriteOutputTest, RefusesToOverwriteTheInputUnderAnyName) {
  std::ofstream(Path("in.spv")) << "input";
  ASSERT_EQ(link(Path("in.spv").c_str(), Path("alias.spv").c_str()), 0);
  for (const std::string& target : {Path("in.spv"), dir_ + "/./in.spv", Path("alias.spv")}) {
    Status status = WriteOutput(target, "output", {Path("in.spv")});
    ASSERT_FALSE(status.ok()) << target;
    EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  }
  EXPECT_EQ(Read(Path("in.spv")), "input");
}

TEST_F(WriteOutputTest, MissingDirectoryIsAnOutputError) {
  Status status = WriteOutput(Path("no/such/dir/out.spv"), "x", {});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kOutputError);
  EXPECT_NE(status.error().message.find("no/such/dir/out.spv"), std::string::npos);
}

TEST_F(WriteOutputTest, UnwritableDirectoryLeavesTheOldFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  ASSERT_TRUE(WriteOutput(Path("keep.spv"), "old", {}).ok());
  ASSERT_EQ(chmod(dir_.c_str(), 0555), 0);
  Status status = WriteOutput(Path("keep.spv"), "new", {});
  chmod(dir_.c_str(), 0755);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(Read(Path("keep.spv")), "old");
}

TEST(WordsToBytes, IsLittleEndian) {
  EXPECT_EQ(WordsToBytes({0x07230203u}), std::string("\x03\x02\x23\x07", 4));
}

}  // namespace
}  // namespace spirv_conv
