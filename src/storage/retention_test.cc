// Retention through Engine::ApplyRetention: whole partitions older than the retention period are
// dropped (rows, segment files, last values) durably; a database's own retention overrides the
// server default.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "src/base/time_util.h"
#include "src/storage/engine.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;
using testing::TempDir;

class RetentionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Times anchored to partition starts, so the rows of each age share one partition whatever
    // the wall clock says: today's partition and those starting 3 and 5 days before it.
    today_ = FloorDiv(NowNanos(), kNanosPerDay) * kNanosPerDay;
    Reopen();
  }
  void TearDown() override {
    if (engine_) EXPECT_TRUE(engine_->Close().ok());
  }

  void Reopen() {
    if (engine_) ASSERT_TRUE(engine_->Close().ok());
    engine_.reset();  // releases the directory lock
    engine_ = testing::OpenTestEngine(dir_.path(), [&](EngineOptions* o) {
      o->partition_duration_ns = kNanosPerDay;
      o->retention_ns = server_retention_;
    });
    ASSERT_NE(engine_, nullptr);
  }

  // Host "old" has rows only 5 days back; "h" has rows in all three partitions.
  void WriteThreePartitions(const std::string& db) {
    WriteBatch batch(db);
    for (int i = 0; i < 4; ++i) {
      AddRow(&batch, "cpu", {Host("h"), today_ - 5 * kNanosPerDay + i, {{"v", 500 + i}}});
      AddRow(&batch, "cpu", {Host("old"), today_ - 5 * kNanosPerDay + i, {{"v", 900 + i}}});
      AddRow(&batch, "cpu", {Host("h"), today_ - 3 * kNanosPerDay + i, {{"v", 300 + i}}});
      AddRow(&batch, "cpu", {Host("h"), today_ + i, {{"v", i}}});
    }
    auto r = engine_->Write(batch, WriteOptions{});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->rows_written, 16u);
  }

  // Rows per series name: host -> times.
  std::map<std::string, std::set<int64_t>> Rows(const std::string& db) {
    std::map<std::string, std::set<int64_t>> out;
    auto reader = engine_->OpenTable(db, "cpu");
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return out;
    CollectingConsumer c;
    Status s = (*reader)->Scan(AllSeries(**reader, {"v"}), &c, nullptr);
    EXPECT_TRUE(s.ok()) << s.ToString();
    for (const auto& [id, rows] : c.rows) {
      for (const auto& [time, values] : rows) {
        out[std::string((*reader)->SeriesTag(id, "hostname"))].insert(time);
      }
    }
    return out;
  }

  std::set<int64_t> Times(int64_t start, int n = 4) {
    std::set<int64_t> t;
    for (int i = 0; i < n; ++i) t.insert(start + i);
    return t;
  }

  // Segment files on disk under the data directory (not through the engine).
  std::set<std::string> SegmentFiles() { return testing::SegmentFilesUnder(dir_.path()); }

  TempDir dir_;
  int64_t today_ = 0;
  int64_t server_retention_ = 2 * kNanosPerDay;
  std::unique_ptr<Engine> engine_;
};

TEST_F(RetentionTest, DropsPartitionsOlderThanRetentionAndTheirFiles) {
  WriteThreePartitions("db");
  ASSERT_TRUE(engine_->Flush().ok());
  const std::set<std::string> before = SegmentFiles();
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(engine_->Stats().segment_files, 3u);
  EXPECT_EQ(Rows("db")["h"].size(), 12u);

  ASSERT_TRUE(engine_->ApplyRetention().ok());
  auto rows = Rows("db");
  EXPECT_EQ(rows["h"], Times(today_));
  EXPECT_EQ(rows.count("old"), 0u);
  EXPECT_EQ(engine_->Stats().segment_files, 1u);
  const std::set<std::string> after = SegmentFiles();
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(before.count(*after.begin()), 1u);

  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  int64_t lo, hi;
  (*reader)->TimeRange(&lo, &hi);
  EXPECT_EQ(lo, today_);
  EXPECT_EQ(hi, today_ + 3);

  // A second pass finds nothing more to drop.
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(SegmentFiles(), after);

  Reopen();
  EXPECT_EQ(SegmentFiles(), after);
  rows = Rows("db");
  EXPECT_EQ(rows["h"], Times(today_));
  EXPECT_EQ(rows.count("old"), 0u);
  EXPECT_EQ(engine_->Stats().segment_files, 1u);
}

TEST_F(RetentionTest, LastValuesForgetDroppedRows) {
  WriteThreePartitions("db");
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  for (SeriesId id = 0; id < (*reader)->SeriesCount(); ++id) {
    LastRow last;
    const bool has = (*reader)->LastRowOf(id, &last);
    if ((*reader)->SeriesTag(id, "hostname") == "old") {
      EXPECT_FALSE(has) << "the last row of a series whose rows were all dropped";
    } else {
      ASSERT_TRUE(has);
      EXPECT_EQ(last.time, today_ + 3);
    }
  }
}

TEST_F(RetentionTest, UnflushedRowsAreDroppedOnceFlushed) {
  WriteThreePartitions("db");
  // Retention works on segments: rows still in the memtable stay until they are flushed.
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("db")["h"].size(), 12u);
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("db")["h"], Times(today_));
  EXPECT_EQ(SegmentFiles().size(), 1u);
}

TEST_F(RetentionTest, OnlyPartitionsEndingBeforeTheCutoffAreDropped) {
  // now is in [today, today + 1d), so the cutoff now - 2d is in [today - 2d, today - 1d).
  // [today - 2d, today - 1d) ends after the cutoff and holds rows that may be younger: kept.
  // [today - 3d, today - 2d) ends at or before it: dropped, its last nanosecond included.
  WriteBatch batch("db");
  AddRow(&batch, "cpu", {Host("h"), today_ - kNanosPerDay, {{"v", 1}}});
  AddRow(&batch, "cpu", {Host("h"), today_ - 2 * kNanosPerDay, {{"v", 2}}});
  AddRow(&batch, "cpu", {Host("h"), today_ - 2 * kNanosPerDay - 1, {{"v", 3}}});
  ASSERT_TRUE(engine_->Write(batch, WriteOptions{}).ok());
  ASSERT_TRUE(engine_->Flush().ok());
  EXPECT_EQ(SegmentFiles().size(), 3u);
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("db")["h"],
            (std::set<int64_t>{today_ - 2 * kNanosPerDay, today_ - kNanosPerDay}));
  EXPECT_EQ(SegmentFiles().size(), 2u);
}

TEST_F(RetentionTest, DatabaseRetentionOverridesServerDefault) {
  server_retention_ = 0;  // the server keeps everything...
  Reopen();
  DatabaseOptions short_lived;
  short_lived.retention_ns = 2 * kNanosPerDay;  // ...but this database keeps two days
  ASSERT_TRUE(engine_->CreateDatabase("short", short_lived).ok());
  WriteThreePartitions("short");
  WriteThreePartitions("forever");
  // The database's setting is durable: it still applies after a restart.
  Reopen();
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("short")["h"], Times(today_));
  EXPECT_EQ(Rows("forever")["h"].size(), 12u);
  EXPECT_EQ(Rows("forever")["old"].size(), 4u);
  EXPECT_EQ(SegmentFiles().size(), 1u + 3u);
}

TEST_F(RetentionTest, DatabaseRetentionCanBeLongerThanTheDefault) {
  DatabaseOptions long_lived;
  long_lived.retention_ns = 10 * kNanosPerDay;
  ASSERT_TRUE(engine_->CreateDatabase("long", long_lived).ok());
  WriteThreePartitions("long");
  WriteThreePartitions("default");
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("long")["h"].size(), 12u);
  EXPECT_EQ(Rows("default")["h"], Times(today_));
  EXPECT_EQ(Rows("default").count("old"), 0u);
}

TEST_F(RetentionTest, NoRetentionKeepsEverything) {
  server_retention_ = 0;
  Reopen();
  WriteThreePartitions("db");
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("db")["h"].size(), 12u);
  EXPECT_EQ(SegmentFiles().size(), 3u);
}

TEST_F(RetentionTest, AlteredRetentionIsDurableAndApplies) {
  server_retention_ = 0;
  Reopen();
  ASSERT_TRUE(engine_->CreateDatabase("db", {}).ok());
  WriteThreePartitions("db");
  auto before = engine_->DescribeDatabase("db");
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->options.retention_ns, 0);
  EXPECT_EQ(before->effective_retention_ns, 0);
  DatabaseOptions two_days;
  two_days.retention_ns = 2 * kNanosPerDay;
  ASSERT_TRUE(engine_->AlterDatabase("db", two_days).ok());
  Reopen();
  auto after = engine_->DescribeDatabase("db");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->options.retention_ns, 2 * kNanosPerDay);
  ASSERT_TRUE(engine_->Flush().ok());
  ASSERT_TRUE(engine_->ApplyRetention().ok());
  EXPECT_EQ(Rows("db")["h"], Times(today_));
  EXPECT_TRUE(engine_->AlterDatabase("missing", two_days).IsNotFound());
  EXPECT_TRUE(engine_->DescribeDatabase("missing").status().IsNotFound());
}

TEST_F(RetentionTest, ADatabaseWithoutItsOwnRetentionShowsTheServers) {
  ASSERT_TRUE(engine_->CreateDatabase("db", {}).ok());
  auto info = engine_->DescribeDatabase("db");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->options.retention_ns, 0);
  EXPECT_EQ(info->effective_retention_ns, server_retention_);
  EXPECT_GT(server_retention_, 0);
}

}  // namespace
}  // namespace gnomon::storage
