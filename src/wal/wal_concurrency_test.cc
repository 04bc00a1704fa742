// Concurrent appenders: every record lands exactly once, LSNs agree with replay order, and group
// commit shares syncs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/wal/wal.h"
#include "src/wal/wal_format.h"
#include "src/wal/wal_test_util.h"

namespace gnomon::wal {
namespace {

using testing::ReplayAll;

std::string Tagged(int thread, int i) {
  std::string s = "t";  // built by appends: GCC 12 warns falsely on chained operator+
  s += std::to_string(thread);
  s += ':';
  s += std::to_string(i);
  s += ':';
  s.append(static_cast<size_t>((thread * 131 + i * 17) % 900), 'p');
  return s;
}

struct Appended {
  std::string record;
  uint64_t lsn;
};

TEST(WalConcurrencyTest, ConcurrentAppendersAreGroupCommitted) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 250;
  port::MemEnv mem;
  port::FaultInjectionEnv env(&mem);
  // A slow disk: while one leader syncs, the other writers queue up behind it.
  env.SetSyncDelay(std::chrono::microseconds(500));
  WalOptions options;
  options.env = &env;
  options.dir = "/wal";
  options.segment_bytes = 64 * 1024;  // rotations happen under concurrency too
  auto wal = Wal::Open(options);
  ASSERT_TRUE(wal.ok());
  const uint64_t syncs_before = env.sync_count();

  std::vector<std::vector<Appended>> appended(kThreads);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string record = Tagged(t, i);
        auto lsn = (*wal)->Append(record, /*sync=*/true);
        if (!lsn.ok()) {
          ++failures;
          continue;
        }
        appended[t].push_back({record, *lsn});
      }
    });
  }
  // Rotations race with the appenders (the engine freezing memtables).
  std::thread rotator([&] {
    for (int i = 0; i < 20; ++i) {
      if (!(*wal)->Rotate().ok()) ++failures;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  for (auto& th : threads) th.join();
  rotator.join();
  ASSERT_EQ(failures.load(), 0);
  ASSERT_TRUE((*wal)->Close().ok());

  const uint64_t appends = kThreads * kPerThread;
  const uint64_t syncs = env.sync_count() - syncs_before;
  WalStats stats = (*wal)->Stats();
  EXPECT_EQ(stats.records, appends);
  EXPECT_LT(stats.groups, appends) << "no group held more than one record";
  EXPECT_LT(syncs, appends) << "group commit did not share fsyncs";
  EXPECT_EQ(stats.syncs, syncs);

  // Each thread's LSNs increase (its appends are ordered), and all LSNs are distinct.
  std::map<uint64_t, std::string> by_lsn;
  for (int t = 0; t < kThreads; ++t) {
    for (size_t i = 0; i < appended[t].size(); ++i) {
      if (i > 0) {
        EXPECT_GT(appended[t][i].lsn, appended[t][i - 1].lsn);
      }
      EXPECT_TRUE(by_lsn.emplace(appended[t][i].lsn, appended[t][i].record).second);
    }
  }

  // Replay yields every record exactly once, in LSN order, at the LSN Append returned.
  auto replayed = ReplayAll(&env, "/wal");
  ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
  EXPECT_FALSE(replayed.report.damaged);
  ASSERT_EQ(replayed.records.size(), appends);
  auto it = by_lsn.begin();
  for (size_t i = 0; i < replayed.records.size(); ++i, ++it) {
    ASSERT_EQ(replayed.lsns[i], it->first);
    ASSERT_EQ(replayed.records[i], it->second);
  }
  EXPECT_GT(LsnSegment(replayed.lsns.back()), 1u);
}

TEST(WalConcurrencyTest, MixedSyncAndNoSyncWritersAllLand) {
  constexpr int kThreads = 6;
  constexpr int kPerThread = 300;
  port::MemEnv env;
  WalOptions options;
  options.env = &env;
  options.dir = "/wal";
  options.max_group_bytes = 2048;  // small groups: many leaders, many hand-offs
  auto wal = Wal::Open(options);
  ASSERT_TRUE(wal.ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto lsn = (*wal)->Append(Tagged(t, i), /*sync=*/(t + i) % 3 == 0);
        ASSERT_TRUE(lsn.ok());
        if (i % 50 == 0) {
          ASSERT_TRUE((*wal)->Sync().ok());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE((*wal)->Close().ok());
  auto replayed = ReplayAll(&env, "/wal");
  std::multiset<std::string> got(replayed.records.begin(), replayed.records.end());
  std::multiset<std::string> want;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) want.insert(Tagged(t, i));
  }
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace gnomon::wal
