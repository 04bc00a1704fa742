#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "src/port/env.h"

namespace gnomon::port {
namespace {

class PosixEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gnomon_env_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(env_->RemoveDirRecursive(dir_).ok());
    ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  }
  void TearDown() override { (void)env_->RemoveDirRecursive(dir_); }

  Env* env_ = Env::Default();
  std::string dir_;
};

TEST_F(PosixEnvTest, WriteAppendReadBack) {
  std::string path = JoinPath(dir_, "a");
  {
    auto f = env_->NewWritableFile(path);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Append("hello ").ok());
    ASSERT_TRUE((*f)->Sync().ok());
  }
  {
    auto f = env_->NewAppendableFile(path);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ((*f)->Size(), 6u);
    ASSERT_TRUE((*f)->Append(std::string(100000, 'x')).ok());
    ASSERT_TRUE((*f)->Close().ok());
  }
  auto data = ReadFileToString(env_, path);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->size(), 100006u);
  EXPECT_EQ(data->substr(0, 6), "hello ");

  auto raf = env_->NewRandomAccessFile(path);
  ASSERT_TRUE(raf.ok());
  std::string_view got;
  ASSERT_TRUE((*raf)->Read(2, 4, &got, nullptr).ok());
  EXPECT_EQ(got, "llo ");
  EXPECT_TRUE((*raf)->Read(100000, 10, &got, nullptr).IsCorruption());
}

// Files of many MiB, in small appends and large ones, appended to after a reopen: every byte is
// where it was written (writeback is started each MiB on the way; only Sync makes it durable).
TEST_F(PosixEnvTest, LargeFilesInSmallAndLargeAppendsReadBack) {
  const std::string path = JoinPath(dir_, "big");
  std::string expected;
  auto piece = [&](size_t n, char seed) {
    std::string p(n, '\0');
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>(seed + i * 31 + (i >> 12));
    expected += p;
    return p;
  };
  {
    auto f = env_->NewWritableFile(path);
    ASSERT_TRUE(f.ok());
    for (int i = 0; i < 80; ++i) ASSERT_TRUE((*f)->Append(piece(40000 + i, static_cast<char>(i))).ok());
    ASSERT_TRUE((*f)->Append(piece(3 << 20, 'a')).ok());
    ASSERT_TRUE((*f)->Sync().ok());
  }
  {
    auto f = env_->NewAppendableFile(path);
    ASSERT_TRUE(f.ok());
    for (int i = 0; i < 40; ++i) ASSERT_TRUE((*f)->Append(piece(70000, static_cast<char>(i))).ok());
    ASSERT_TRUE((*f)->Sync().ok());
    ASSERT_TRUE((*f)->Close().ok());
  }
  auto data = ReadFileToString(env_, path);
  ASSERT_TRUE(data.ok());
  ASSERT_EQ(data->size(), expected.size());
  EXPECT_TRUE(*data == expected);
}

TEST_F(PosixEnvTest, AtomicWriteAndListing) {
  std::string path = JoinPath(dir_, "MANIFEST");
  ASSERT_TRUE(WriteFileAtomic(env_, path, "v1").ok());
  ASSERT_TRUE(WriteFileAtomic(env_, path, "v2").ok());
  EXPECT_EQ(*ReadFileToString(env_, path), "v2");
  auto children = env_->GetChildren(dir_);
  ASSERT_TRUE(children.ok());
  EXPECT_EQ(*children, std::vector<std::string>{"MANIFEST"});
}

TEST_F(PosixEnvTest, MissingFileIsNotFound) {
  EXPECT_TRUE(env_->NewSequentialFile(JoinPath(dir_, "nope")).status().IsNotFound());
  EXPECT_TRUE(env_->NewRandomAccessFile(JoinPath(dir_, "nope")).status().IsNotFound());
}

TEST(PathTest, JoinAndDir) {
  EXPECT_EQ(JoinPath("a", "b"), "a/b");
  EXPECT_EQ(JoinPath("a/", "b"), "a/b");
  EXPECT_EQ(DirName("a/b/c"), "a/b");
  EXPECT_EQ(DirName("c"), ".");
}

}  // namespace
}  // namespace gnomon::port
