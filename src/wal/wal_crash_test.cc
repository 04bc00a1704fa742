// Crash simulation: every Append(sync=true) that returned OK survives a power loss at any moment,
// whatever happens to unsynced bytes, and the WAL reopens and keeps working after the repair.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/wal/wal.h"
#include "src/wal/wal_test_util.h"

namespace gnomon::wal {
namespace {

using testing::MakeRecord;
using testing::ReplayAll;
using CrashMode = port::FaultInjectionEnv::CrashMode;

std::string Tagged(int round, int thread, int i, size_t size) {
  std::string s =
      std::to_string(round) + "/" + std::to_string(thread) + "/" + std::to_string(i) + "/";
  return s + MakeRecord(static_cast<uint64_t>(round * 1000000 + thread * 10000 + i), size);
}

class WalCrashTest : public ::testing::TestWithParam<CrashMode> {};

TEST_P(WalCrashTest, AcknowledgedSyncedRecordsSurvivePowerLoss) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 6;
  port::MemEnv mem;
  port::FaultInjectionEnv env(&mem);
  std::set<std::string> acked;      // Append(sync=true) returned OK: must survive
  std::set<std::string> attempted;  // everything ever passed to Append: may survive

  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // Restart: repair, check, reopen.
    auto replayed = ReplayAll(&env, "/wal");
    ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
    std::set<std::string> seen;
    for (const auto& r : replayed.records) {
      ASSERT_TRUE(seen.insert(r).second) << "record replayed twice";
      ASSERT_TRUE(attempted.count(r)) << "record never appended";
    }
    for (const auto& r : acked) ASSERT_TRUE(seen.count(r)) << "acknowledged record lost";
    // What survived is now the log's content: later rounds must keep it (nothing half-applied).
    acked = seen;

    WalOptions options;
    options.env = &env;
    options.dir = "/wal";
    options.segment_bytes = 16 * 1024;
    auto wal = Wal::Open(options);
    ASSERT_TRUE(wal.ok()) << wal.status().ToString();

    std::mutex mu;
    std::atomic<int> appended{0};
    std::atomic<int> running{kThreads};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0;; ++i) {
          bool sync = (i + t) % 4 != 0;  // some unsynced appends ride along
          std::string record = Tagged(round, t, i, static_cast<size_t>((i * 97 + t * 31) % 3000));
          {
            std::lock_guard<std::mutex> lock(mu);
            attempted.insert(record);
          }
          auto lsn = (*wal)->Append(record, sync);
          if (!lsn.ok()) {  // the "machine" went down
            --running;
            return;
          }
          ++appended;
          if (sync) {
            std::lock_guard<std::mutex> lock(mu);
            acked.insert(record);
          }
        }
      });
    }
    // Let some work happen, then pull the plug mid-flight.
    while (appended.load() < 200 + round * 50 && running.load() == kThreads) {
      std::this_thread::yield();
    }
    ASSERT_EQ(running.load(), kThreads) << "appends failed before the crash";
    env.SetFilesystemActive(false);
    for (auto& th : threads) th.join();
    wal->reset();  // the process dies; its Close fails on the dead file system
    ASSERT_TRUE(env.SimulateCrash(GetParam(), /*seed=*/round + 1).ok());
  }
  auto final_replay = ReplayAll(&env, "/wal");
  ASSERT_TRUE(final_replay.status.ok());
  std::set<std::string> seen(final_replay.records.begin(), final_replay.records.end());
  for (const auto& r : acked) EXPECT_TRUE(seen.count(r)) << "acknowledged record lost";
}

INSTANTIATE_TEST_SUITE_P(Modes, WalCrashTest,
                         ::testing::Values(CrashMode::kDropUnsynced, CrashMode::kTornTail,
                                           CrashMode::kZeroTail, CrashMode::kGarbageTail),
                         [](const auto& info) {
                           switch (info.param) {
                             case CrashMode::kDropUnsynced:
                               return std::string("DropUnsynced");
                             case CrashMode::kTornTail:
                               return std::string("TornTail");
                             case CrashMode::kZeroTail:
                               return std::string("ZeroTail");
                             case CrashMode::kGarbageTail:
                               return std::string("GarbageTail");
                           }
                           return std::string("Unknown");
                         });

// Without the directory sync at segment creation, a synced record in a new segment could vanish
// with its file; the fault-injection env removes files whose creation was not synced.
TEST(WalCrashSingleTest, SyncedRecordInFreshSegmentSurvives) {
  port::MemEnv mem;
  port::FaultInjectionEnv env(&mem);
  {
    WalOptions options;
    options.env = &env;
    options.dir = "/wal";
    options.segment_bytes = 2048;
    auto wal = Wal::Open(options);
    ASSERT_TRUE(wal.ok());
    ASSERT_TRUE((*wal)->Append(std::string(1500, 'a'), true).ok());
    ASSERT_TRUE((*wal)->Append(std::string(1500, 'b'), true).ok());  // rotates first
    ASSERT_TRUE((*wal)->Append("unsynced", false).ok());
    env.SetFilesystemActive(false);
  }
  ASSERT_TRUE(env.SimulateCrash().ok());
  auto replayed = ReplayAll(&env, "/wal");
  ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
  EXPECT_EQ(replayed.records,
            (std::vector<std::string>{std::string(1500, 'a'), std::string(1500, 'b')}));
}

}  // namespace
}  // namespace gnomon::wal
