// Wal basics: append/replay round trips, LSNs, rotation, truncation, limits, error stickiness.
#include "src/wal/wal.h"

#include <gtest/gtest.h>

#include "src/port/fault_injection_env.h"
#include "src/port/mem_env.h"
#include "src/wal/segment_file.h"
#include "src/wal/wal_format.h"
#include "src/wal/wal_test_util.h"

namespace gnomon::wal {
namespace {

using testing::MakeRecord;
using testing::ReplayAll;

class WalTest : public ::testing::Test {
 protected:
  std::unique_ptr<Wal> OpenWal(uint64_t segment_bytes = 64ull << 20, port::Env* env = nullptr) {
    WalOptions options;
    options.env = env != nullptr ? env : &env_;
    options.dir = dir_;
    options.segment_bytes = segment_bytes;
    auto wal = Wal::Open(options);
    EXPECT_TRUE(wal.ok()) << wal.status().ToString();
    return wal.ok() ? std::move(*wal) : nullptr;
  }
  std::vector<uint64_t> SegmentNumbers() {
    std::vector<uint64_t> out;
    auto segments = ListSegments(&env_, dir_);
    EXPECT_TRUE(segments.ok());
    for (const auto& seg : *segments) out.push_back(seg.number);
    return out;
  }

  port::MemEnv env_;
  std::string dir_ = "/db/wal";
};

TEST(SegmentFileTest, Names) {
  EXPECT_EQ(SegmentFileName(1), "00000001.wal");
  EXPECT_EQ(SegmentFileName(123456789), "123456789.wal");
  uint64_t n = 0;
  EXPECT_TRUE(ParseSegmentFileName("00000042.wal", &n));
  EXPECT_EQ(n, 42u);
  EXPECT_TRUE(ParseSegmentFileName("123456789.wal", &n));
  EXPECT_EQ(n, 123456789u);
  for (const char* bad : {"42.wal", "000000042.wal", "0000004x.wal", "00000042.wal.tmp", ".wal",
                          "00000042.log", "99999999999999999999.wal"}) {
    EXPECT_FALSE(ParseSegmentFileName(bad, &n)) << bad;
  }
}

TEST_F(WalTest, AppendAndReplayInOrderWithMatchingLsns) {
  auto wal = OpenWal();
  std::vector<std::string> expected;
  std::vector<uint64_t> lsns;
  for (int i = 0; i < 200; ++i) {
    expected.push_back(MakeRecord(i, i * 37 % 5000));
    auto lsn = wal->Append(expected.back(), /*sync=*/i % 2 == 0);
    ASSERT_TRUE(lsn.ok()) << lsn.status().ToString();
    if (!lsns.empty()) {
      EXPECT_GT(*lsn, lsns.back());
    }
    lsns.push_back(*lsn);
  }
  EXPECT_TRUE(wal->Append("", true).ok());  // empty records are records
  expected.push_back("");
  EXPECT_EQ(LsnSegment(lsns[0]), 1u);
  ASSERT_TRUE(wal->Close().ok());

  auto replayed = ReplayAll(&env_, dir_);
  ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
  EXPECT_EQ(replayed.records, expected);
  EXPECT_EQ(std::vector<uint64_t>(replayed.lsns.begin(), replayed.lsns.end() - 1), lsns);
  EXPECT_EQ(replayed.report.records, expected.size());
  EXPECT_FALSE(replayed.report.damaged);
  EXPECT_EQ(replayed.report.last_lsn, replayed.lsns.back());
}

TEST_F(WalTest, OpenStartsANewSegmentAfterExistingOnes) {
  {
    auto wal = OpenWal();
    ASSERT_TRUE(wal->Append("one", true).ok());
  }
  {
    auto wal = OpenWal();
    EXPECT_EQ(wal->current_segment(), 2u);
    ASSERT_TRUE(wal->Append("two", true).ok());
  }
  EXPECT_EQ(SegmentNumbers(), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(ReplayAll(&env_, dir_).records, (std::vector<std::string>{"one", "two"}));
}

TEST_F(WalTest, RotatesOnOverflowAndReplaysAcrossSegments) {
  auto wal = OpenWal(/*segment_bytes=*/4096);
  std::vector<std::string> expected;
  for (int i = 0; i < 300; ++i) {
    expected.push_back(MakeRecord(i, 1 + i % 700));
    ASSERT_TRUE(wal->Append(expected.back(), false).ok());
  }
  ASSERT_TRUE(wal->Close().ok());
  auto listed = ListSegments(&env_, dir_);
  ASSERT_TRUE(listed.ok());
  const auto& segments = *listed;
  EXPECT_GT(segments.size(), 10u);
  for (const auto& seg : segments) EXPECT_LE(seg.size, 4096u) << seg.path;
  auto replayed = ReplayAll(&env_, dir_);
  EXPECT_EQ(replayed.records, expected);
  EXPECT_EQ(replayed.report.segments, segments.size());
  EXPECT_EQ(wal->Stats().records, 300u);
}

TEST_F(WalTest, RecordLargerThanASegmentGetsOneToItself) {
  auto wal = OpenWal(/*segment_bytes=*/4096);
  ASSERT_TRUE(wal->Append("small", false).ok());
  std::string big = MakeRecord(1, 100000);
  auto lsn = wal->Append(big, false);
  ASSERT_TRUE(lsn.ok());
  EXPECT_EQ(LsnSegment(*lsn), 2u);
  auto after = wal->Append("after", false);
  EXPECT_EQ(LsnSegment(*after), 3u);
  ASSERT_TRUE(wal->Close().ok());
  EXPECT_EQ(ReplayAll(&env_, dir_).records, (std::vector<std::string>{"small", big, "after"}));
}

TEST_F(WalTest, RotateAndRemoveSegmentsBefore) {
  auto wal = OpenWal();
  ASSERT_TRUE(wal->Append("a", true).ok());
  auto n = wal->Rotate();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 2u);
  // Nothing appended since: rotating again keeps the empty segment.
  EXPECT_EQ(*wal->Rotate(), 2u);
  ASSERT_TRUE(wal->Append("b", true).ok());
  EXPECT_EQ(*wal->Rotate(), 3u);
  ASSERT_TRUE(wal->Append("c", true).ok());
  uint64_t total = wal->TotalBytes();
  uint64_t on_disk = 0;
  auto segments = ListSegments(&env_, dir_);
  ASSERT_TRUE(segments.ok());
  for (const auto& seg : *segments) on_disk += seg.size;
  EXPECT_EQ(total, on_disk);

  EXPECT_TRUE(wal->RemoveSegmentsBefore(4).IsInvalidArgument());  // the active segment
  ASSERT_TRUE(wal->RemoveSegmentsBefore(3).ok());
  EXPECT_EQ(SegmentNumbers(), std::vector<uint64_t>{3});
  EXPECT_LT(wal->TotalBytes(), total);
  EXPECT_EQ(wal->TotalBytes(), *env_.GetFileSize(port::JoinPath(dir_, "00000003.wal")));
  ASSERT_TRUE(wal->RemoveSegmentsBefore(3).ok());  // idempotent
  ASSERT_TRUE(wal->Close().ok());
  EXPECT_EQ(ReplayAll(&env_, dir_).records, std::vector<std::string>{"c"});
}

TEST_F(WalTest, RemovesSegmentsLeftByAnEarlierProcess) {
  {
    auto wal = OpenWal();
    ASSERT_TRUE(wal->Append("old", true).ok());
  }
  auto wal = OpenWal();
  ASSERT_TRUE(wal->Append("new", true).ok());
  ASSERT_TRUE(wal->RemoveSegmentsBefore(wal->current_segment()).ok());
  ASSERT_TRUE(wal->Close().ok());
  EXPECT_EQ(ReplayAll(&env_, dir_).records, std::vector<std::string>{"new"});
}

TEST_F(WalTest, ClosedWalRejectsWork) {
  auto wal = OpenWal();
  ASSERT_TRUE(wal->Close().ok());
  ASSERT_TRUE(wal->Close().ok());
  EXPECT_EQ(wal->Append("x", true).status().code(), Status::Code::kAborted);
  EXPECT_EQ(wal->Rotate().status().code(), Status::Code::kAborted);
  EXPECT_EQ(wal->Sync().code(), Status::Code::kAborted);
}

TEST_F(WalTest, RejectsBadOptionsAndOversizedRecords) {
  WalOptions options;
  options.env = &env_;
  EXPECT_TRUE(Wal::Open(options).status().IsInvalidArgument());  // no dir
  options.dir = dir_;
  options.segment_bytes = 10;
  EXPECT_TRUE(Wal::Open(options).status().IsInvalidArgument());
  options.segment_bytes = kMaxSegmentBytes + 1;
  EXPECT_TRUE(Wal::Open(options).status().IsInvalidArgument());

  auto wal = OpenWal();
  // Only the size is checked before any byte is read, so a fake view is enough.
  std::string_view too_big(reinterpret_cast<const char*>(&options), kMaxRecordSize + 1);
  EXPECT_TRUE(wal->Append(too_big, true).status().IsInvalidArgument());
  EXPECT_TRUE(wal->Append("still fine", true).ok());
}

TEST_F(WalTest, HugeRecordRoundTrips) {
  std::string huge = MakeRecord(7, 256u << 20);  // 256 MiB
  {
    auto wal = OpenWal();
    ASSERT_TRUE(wal->Append("before", true).ok());
    ASSERT_TRUE(wal->Append(huge, true).ok());
    ASSERT_TRUE(wal->Append("after", true).ok());
  }
  size_t index = 0;
  bool huge_ok = false;
  auto report = ReplayWal(&env_, dir_, [&](std::string_view record) {
    if (index == 1) huge_ok = record == huge;
    ++index;
    return Status::OK();
  });
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->records, 3u);
  EXPECT_TRUE(huge_ok);
}

TEST_F(WalTest, WriteErrorIsStickyAndAcknowledgedRecordsSurvive) {
  port::FaultInjectionEnv fenv(&env_);
  auto wal = OpenWal(64ull << 20, &fenv);
  ASSERT_TRUE(wal->Append("acked-1", true).ok());
  ASSERT_TRUE(wal->Append("acked-2", true).ok());
  fenv.FailWritesAfterBytes(10);  // the next group write is cut short
  EXPECT_FALSE(wal->Append(std::string(100, 'x'), true).ok());
  fenv.ClearFaults();
  // The segment now ends in a partial record: the WAL refuses to write after it.
  EXPECT_EQ(wal->Append("refused", true).status().code(), Status::Code::kIOError);
  EXPECT_EQ(wal->Rotate().status().code(), Status::Code::kIOError);
  EXPECT_FALSE(wal->Close().ok());
  wal.reset();

  auto replayed = ReplayAll(&fenv, dir_);
  ASSERT_TRUE(replayed.status.ok());
  EXPECT_EQ(replayed.records, (std::vector<std::string>{"acked-1", "acked-2"}));
  EXPECT_TRUE(replayed.report.truncated);
  // Reopening after the repair works.
  wal = OpenWal(64ull << 20, &fenv);
  ASSERT_TRUE(wal->Append("acked-3", true).ok());
  ASSERT_TRUE(wal->Close().ok());
  EXPECT_EQ(ReplayAll(&fenv, dir_).records,
            (std::vector<std::string>{"acked-1", "acked-2", "acked-3"}));
}

TEST_F(WalTest, SyncErrorIsSticky) {
  port::FaultInjectionEnv fenv(&env_);
  auto wal = OpenWal(64ull << 20, &fenv);
  fenv.FailSyncsAfter(0);
  EXPECT_FALSE(wal->Append("x", true).ok());
  fenv.ClearFaults();
  EXPECT_FALSE(wal->Append("y", false).ok());
}

TEST_F(WalTest, SyncAndCloseMakeUnsyncedAppendsDurable) {
  port::FaultInjectionEnv fenv(&env_);
  {
    auto wal = OpenWal(64ull << 20, &fenv);
    ASSERT_TRUE(wal->Append("a", false).ok());
    ASSERT_TRUE(wal->Sync().ok());
    ASSERT_TRUE(wal->Append("b", false).ok());
    ASSERT_TRUE(wal->Close().ok());
  }
  ASSERT_TRUE(fenv.SimulateCrash().ok());
  EXPECT_EQ(ReplayAll(&fenv, dir_).records, (std::vector<std::string>{"a", "b"}));
}

TEST_F(WalTest, WorksOnThePosixEnv) {
  std::string dir = ::testing::TempDir() + "gnomon_wal_test_" + std::to_string(::getpid());
  port::Env* env = port::Env::Default();
  ASSERT_TRUE(env->RemoveDirRecursive(dir).ok());
  {
    WalOptions options;
    options.dir = dir;
    options.segment_bytes = 8192;
    auto wal = Wal::Open(options);
    ASSERT_TRUE(wal.ok());
    for (int i = 0; i < 100; ++i) ASSERT_TRUE((*wal)->Append(MakeRecord(i, 300), i % 10 == 0).ok());
    ASSERT_TRUE((*wal)->Close().ok());
  }
  auto replayed = ReplayAll(env, dir);
  ASSERT_EQ(replayed.records.size(), 100u);
  EXPECT_EQ(replayed.records[99], MakeRecord(99, 300));
  EXPECT_TRUE(env->RemoveDirRecursive(dir).ok());
}

}  // namespace
}  // namespace gnomon::wal
