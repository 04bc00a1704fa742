#include "src/port/fault_injection_env.h"

#include <gtest/gtest.h>

#include "src/port/mem_env.h"

namespace gnomon::port {
namespace {

class FaultInjectionEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(env_.CreateDirs("/d").ok());
    ASSERT_TRUE(env_.SyncDir("/d").ok());
  }

  // Writes `synced` then `unsynced` to a new file whose directory entry is durable.
  void WriteFile(const std::string& path, std::string_view synced, std::string_view unsynced) {
    auto f = env_.NewWritableFile(path);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(env_.SyncDir("/d").ok());
    ASSERT_TRUE((*f)->Append(synced).ok());
    ASSERT_TRUE((*f)->Sync().ok());
    ASSERT_TRUE((*f)->Append(unsynced).ok());
    ASSERT_TRUE((*f)->Close().ok());
  }

  MemEnv base_;
  FaultInjectionEnv env_{&base_};
};

TEST_F(FaultInjectionEnvTest, CrashDropsUnsyncedBytes) {
  WriteFile("/d/a", "durable", "-lost");
  EXPECT_EQ(*ReadFileToString(&env_, "/d/a"), "durable-lost");  // readers see the page cache
  EXPECT_EQ(*env_.DurableSize("/d/a"), 7u);
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/a"), "durable");
}

TEST_F(FaultInjectionEnvTest, CrashRemovesFilesWhoseCreationWasNotSynced) {
  auto f = env_.NewWritableFile("/d/new");
  ASSERT_TRUE((*f)->Append("data").ok());
  ASSERT_TRUE((*f)->Sync().ok());  // the data is durable, the directory entry is not
  ASSERT_TRUE((*f)->Close().ok());
  EXPECT_EQ(*env_.DurableSize("/d/new"), 0u);
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_FALSE(env_.FileExists("/d/new"));
}

TEST_F(FaultInjectionEnvTest, PreexistingFilesAreDurable) {
  ASSERT_TRUE(WriteFileAtomic(&base_, "/d/old", "before").ok());
  auto f = env_.NewAppendableFile("/d/old");
  ASSERT_TRUE((*f)->Append("+after").ok());
  ASSERT_TRUE((*f)->Close().ok());
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/old"), "before");
}

TEST_F(FaultInjectionEnvTest, TornZeroAndGarbageTailsKeepTheSyncedPrefix) {
  const std::string synced(100, 's');
  const std::string unsynced(1000, 'u');
  for (auto mode :
       {FaultInjectionEnv::CrashMode::kTornTail, FaultInjectionEnv::CrashMode::kZeroTail,
        FaultInjectionEnv::CrashMode::kGarbageTail}) {
    bool saw_partial = false;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      WriteFile("/d/t", synced, unsynced);
      ASSERT_TRUE(env_.SimulateCrash(mode, seed).ok());
      std::string got = *ReadFileToString(&env_, "/d/t");
      ASSERT_GE(got.size(), synced.size());
      EXPECT_EQ(got.substr(0, synced.size()), synced);
      if (mode == FaultInjectionEnv::CrashMode::kTornTail) {
        EXPECT_LE(got.size(), synced.size() + unsynced.size());
        EXPECT_EQ(got.substr(synced.size()), unsynced.substr(0, got.size() - synced.size()));
        saw_partial |= got.size() > synced.size() && got.size() < synced.size() + unsynced.size();
      } else {
        EXPECT_EQ(got.size(), synced.size() + unsynced.size());  // the old length survives
        saw_partial |= got.back() != 'u';
      }
    }
    EXPECT_TRUE(saw_partial);
  }
}

TEST_F(FaultInjectionEnvTest, InactiveFilesystemRejectsMutations) {
  auto f = env_.NewWritableFile("/d/f");
  ASSERT_TRUE((*f)->Append("a").ok());
  env_.SetFilesystemActive(false);
  EXPECT_FALSE((*f)->Append("b").ok());
  EXPECT_FALSE((*f)->Sync().ok());
  EXPECT_FALSE((*f)->Flush().ok());
  EXPECT_FALSE(env_.NewWritableFile("/d/g").ok());
  EXPECT_FALSE(env_.RemoveFile("/d/f").ok());
  EXPECT_FALSE(env_.RenameFile("/d/f", "/d/h").ok());
  EXPECT_FALSE(env_.SyncDir("/d").ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "a");
  env_.SetFilesystemActive(true);
  EXPECT_TRUE((*f)->Append("c").ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "ac");
}

TEST_F(FaultInjectionEnvTest, WriteFailsAfterByteBudgetWithShortWrite) {
  auto f = env_.NewWritableFile("/d/f");
  env_.FailWritesAfterBytes(5);
  ASSERT_TRUE((*f)->Append("abc").ok());
  Status s = (*f)->Append("defg");
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "abcde");  // the crossing write applied in part
  EXPECT_FALSE((*f)->Append("x").ok());
  env_.ClearFaults();
  EXPECT_TRUE((*f)->Append("x").ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "abcdex");
}

TEST_F(FaultInjectionEnvTest, WriteFailsAfterCalls) {
  auto f = env_.NewWritableFile("/d/f");
  env_.FailWritesAfterCalls(2);
  EXPECT_TRUE((*f)->Append("a").ok());
  EXPECT_TRUE((*f)->Append("b").ok());
  EXPECT_FALSE((*f)->Append("c").ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "ab");
  EXPECT_EQ(env_.append_count(), 2u);
}

TEST_F(FaultInjectionEnvTest, SyncFailsAfterCountAndLeavesDataUnsynced) {
  auto f = env_.NewWritableFile("/d/f");
  ASSERT_TRUE(env_.SyncDir("/d").ok());
  env_.FailSyncsAfter(1);
  ASSERT_TRUE((*f)->Append("one").ok());
  EXPECT_TRUE((*f)->Sync().ok());
  ASSERT_TRUE((*f)->Append("two").ok());
  EXPECT_FALSE((*f)->Sync().ok());
  EXPECT_EQ(env_.sync_count(), 1u);
  ASSERT_TRUE((*f)->Close().ok());
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/f"), "one");
}

TEST_F(FaultInjectionEnvTest, CorruptByteFlipsBits) {
  ASSERT_TRUE(WriteFileAtomic(&env_, "/d/c", "abc").ok());
  ASSERT_TRUE(env_.CorruptByte("/d/c", 1, 0x01).ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/c"), "acc");
  EXPECT_TRUE(env_.CorruptByte("/d/c", 3).IsInvalidArgument());
}

TEST_F(FaultInjectionEnvTest, RenameCarriesDurabilityState) {
  WriteFile("/d/a", "keep", "drop");
  ASSERT_TRUE(env_.RenameFile("/d/a", "/d/b").ok());
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/b"), "keep");
}

TEST_F(FaultInjectionEnvTest, TruncateThenSyncIsDurable) {
  WriteFile("/d/a", "0123456789", "");
  ASSERT_TRUE(env_.TruncateFile("/d/a", 4).ok());
  ASSERT_TRUE(env_.SimulateCrash().ok());
  EXPECT_EQ(*ReadFileToString(&env_, "/d/a"), "0123");
}

}  // namespace
}  // namespace gnomon::port
