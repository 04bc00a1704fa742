#include "src/port/mem_env.h"

#include <gtest/gtest.h>

namespace gnomon::port {
namespace {

TEST(NormalizePathTest, CollapsesSlashes) {
  EXPECT_EQ(NormalizePath("a//b/"), "a/b");
  EXPECT_EQ(NormalizePath("/"), "/");
  EXPECT_EQ(NormalizePath(""), ".");
  EXPECT_EQ(NormalizePath("./a"), "a");
}

class MemEnvTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(env_.CreateDirs("/db/wal").ok()); }
  MemEnv env_;
};

TEST_F(MemEnvTest, WriteAppendReadBack) {
  {
    auto f = env_.NewWritableFile("/db/a");
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Append("hello ").ok());
    ASSERT_TRUE((*f)->Sync().ok());
    ASSERT_TRUE((*f)->Close().ok());
    EXPECT_FALSE((*f)->Append("x").ok());
  }
  {
    auto f = env_.NewAppendableFile("/db/a");
    ASSERT_TRUE(f.ok());
    EXPECT_EQ((*f)->Size(), 6u);
    ASSERT_TRUE((*f)->Append(std::string(100000, 'x')).ok());
  }
  EXPECT_EQ(*env_.GetFileSize("/db/a"), 100006u);
  auto data = ReadFileToString(&env_, "/db/a");
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->substr(0, 6), "hello ");

  auto raf = env_.NewRandomAccessFile("/db/a");
  ASSERT_TRUE(raf.ok());
  std::string_view got;
  ASSERT_TRUE((*raf)->Read(2, 4, &got, nullptr).ok());
  EXPECT_EQ(got, "llo ");
  EXPECT_TRUE((*raf)->Read(100000, 10, &got, nullptr).IsCorruption());
  EXPECT_EQ((*raf)->Contents().size(), 100006u);
}

TEST_F(MemEnvTest, SequentialReadsInPiecesAndSkips) {
  ASSERT_TRUE(WriteFileAtomic(&env_, "/db/s", "0123456789").ok());
  auto f = env_.NewSequentialFile("/db/s");
  ASSERT_TRUE(f.ok());
  char scratch[4];
  std::string_view got;
  ASSERT_TRUE((*f)->Read(4, &got, scratch).ok());
  EXPECT_EQ(got, "0123");
  ASSERT_TRUE((*f)->Skip(3).ok());
  ASSERT_TRUE((*f)->Read(4, &got, scratch).ok());
  EXPECT_EQ(got, "789");
  ASSERT_TRUE((*f)->Read(4, &got, scratch).ok());
  EXPECT_TRUE(got.empty());
}

TEST_F(MemEnvTest, RandomAccessSeesSnapshotAtOpen) {
  auto w = env_.NewWritableFile("/db/r");
  ASSERT_TRUE((*w)->Append("abc").ok());
  auto raf = env_.NewRandomAccessFile("/db/r");
  ASSERT_TRUE((*w)->Append("def").ok());
  EXPECT_EQ((*raf)->Size(), 3u);
  EXPECT_EQ(*ReadFileToString(&env_, "/db/r"), "abcdef");
}

TEST_F(MemEnvTest, DirectoriesAndListing) {
  ASSERT_TRUE(WriteFileAtomic(&env_, "/db/wal/00000001.wal", "x").ok());
  ASSERT_TRUE(WriteFileAtomic(&env_, "/db/MANIFEST", "m").ok());
  auto children = env_.GetChildren("/db");
  ASSERT_TRUE(children.ok());
  EXPECT_EQ(*children, (std::vector<std::string>{"MANIFEST", "wal"}));
  EXPECT_EQ(*env_.GetChildren("/db/wal/"), std::vector<std::string>{"00000001.wal"});
  EXPECT_TRUE(env_.FileExists("/db/wal"));
  EXPECT_TRUE(env_.GetChildren("/nope").status().IsNotFound());

  // A file needs its parent directory, as on POSIX.
  EXPECT_FALSE(env_.NewWritableFile("/missing/f").ok());
  EXPECT_FALSE(env_.CreateDirs("/db/MANIFEST/x").ok());

  ASSERT_TRUE(env_.RemoveDirRecursive("/db/wal").ok());
  EXPECT_FALSE(env_.FileExists("/db/wal/00000001.wal"));
  EXPECT_FALSE(env_.FileExists("/db/wal"));
  EXPECT_TRUE(env_.FileExists("/db/MANIFEST"));
  EXPECT_TRUE(env_.RemoveDirRecursive("/not/there").ok());
}

TEST_F(MemEnvTest, RenameRemoveTruncate) {
  ASSERT_TRUE(WriteFileAtomic(&env_, "/db/a", "0123456789").ok());
  ASSERT_TRUE(env_.RenameFile("/db/a", "/db/b").ok());
  EXPECT_FALSE(env_.FileExists("/db/a"));
  EXPECT_TRUE(env_.RenameFile("/db/a", "/db/c").IsNotFound());
  ASSERT_TRUE(env_.TruncateFile("/db/b", 4).ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/db/b"), "0123");
  ASSERT_TRUE(env_.TruncateFile("/db/b", 6).ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/db/b"), std::string("0123\0\0", 6));
  ASSERT_TRUE(env_.RemoveFile("/db/b").ok());
  EXPECT_TRUE(env_.RemoveFile("/db/b").IsNotFound());
  EXPECT_TRUE(env_.GetFileSize("/db/b").status().IsNotFound());
  EXPECT_TRUE(env_.NewSequentialFile("/db/b").status().IsNotFound());
}

TEST_F(MemEnvTest, UnlinkedFileLivesOnForOpenHandles) {
  auto w = env_.NewWritableFile("/db/u");
  ASSERT_TRUE((*w)->Append("abc").ok());
  auto r = env_.NewSequentialFile("/db/u");
  ASSERT_TRUE(env_.RemoveFile("/db/u").ok());
  char scratch[8];
  std::string_view got;
  ASSERT_TRUE((*r)->Read(8, &got, scratch).ok());
  EXPECT_EQ(got, "abc");
}

}  // namespace
}  // namespace gnomon::port
