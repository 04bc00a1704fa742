#include "src/storage/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <thread>

#include "src/storage/storage_test_util.h"

namespace gnomon::storage {
namespace {

using testing::AddRow;
using testing::AllSeries;
using testing::CollectingConsumer;
using testing::Host;
using testing::TempDir;

class EngineTest : public ::testing::Test {
 protected:
  void Reopen() {
    if (engine_) ASSERT_TRUE(engine_->Close().ok());
    engine_.reset();
    EngineOptions options;
    options.data_dir = dir_.path();
    options.background_work = false;
    auto e = Engine::Open(options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }
  void SetUp() override { Reopen(); }
  void TearDown() override {
    if (engine_) EXPECT_TRUE(engine_->Close().ok());
  }

  void Write(const WriteBatch& batch, WriteOptions options = {}) {
    auto r = engine_->Write(batch, options);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  CollectingConsumer ScanAll(const std::string& table, std::vector<std::string> columns,
                             int64_t min_time = INT64_MIN, int64_t max_time = INT64_MAX) {
    CollectingConsumer c;
    auto reader = engine_->OpenTable("db", table);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return c;
    ScanSpec spec = AllSeries(**reader, std::move(columns));
    spec.min_time = min_time;
    spec.max_time = max_time;
    Status s = (*reader)->Scan(spec, &c, nullptr);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return c;
  }

  // 3 hosts x n rows every 10 s, field u = host*1000 + i.
  void WriteGrid(int n, int64_t start = 0) {
    WriteBatch batch("db");
    for (int i = 0; i < n; ++i) {
      for (int h = 0; h < 3; ++h) {
        AddRow(&batch, "cpu", {Host("h" + std::to_string(h)), start + i * 10, {{"u", h * 1000 + i}}});
      }
    }
    Write(batch);
  }

  // Flushes, then scans column u of every series of cpu offering block statistics, which `c`
  // accepts.
  void FlushAndScanOfferingStats(CollectingConsumer* c, ScanMetrics* metrics) {
    ASSERT_TRUE(engine_->Flush().ok());
    auto reader = engine_->OpenTable("db", "cpu");
    ASSERT_TRUE(reader.ok());
    c->accept_stats = true;
    ScanSpec spec = AllSeries(**reader, {"u"});
    spec.offer_stats = true;
    ASSERT_TRUE((*reader)->Scan(spec, c, metrics).ok());
  }

  TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineTest, WriteThenScanFromMemtable) {
  WriteGrid(5);
  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0][40], std::vector<std::string>{"4"});
  EXPECT_EQ(c.rows[2][0], std::vector<std::string>{"2000"});
  EXPECT_EQ(engine_->ListDatabases(), std::vector<std::string>{"db"});
  auto tables = engine_->ListTables("db");
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(*tables, std::vector<std::string>{"cpu"});
}

TEST_F(EngineTest, SurvivesRestartThroughWal) {
  WriteGrid(100);
  Reopen();
  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[1].size(), 100u);
  EXPECT_EQ(c.rows[1][990], std::vector<std::string>{"1099"});
}

TEST_F(EngineTest, SurvivesRestartThroughSegments) {
  WriteGrid(100);
  ASSERT_TRUE(engine_->Flush().ok());
  EXPECT_GE(engine_->Stats().segment_files, 1u);
  Reopen();
  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[2].size(), 100u);
  EXPECT_EQ(c.rows[2][500], std::vector<std::string>{"2050"});
}

TEST_F(EngineTest, DuplicatesKeepLastValuePerField) {
  WriteBatch a("db");
  AddRow(&a, "cpu", {Host("h"), 10, {{"u", 1}, {"v", 1}}});
  Write(a);
  ASSERT_TRUE(engine_->Flush().ok());
  WriteBatch b("db");
  AddRow(&b, "cpu", {Host("h"), 10, {{"u", 2}}});  // v not mentioned: keeps 1
  AddRow(&b, "cpu", {Host("h"), 5, {{"u", 0}}});   // out of order
  Write(b);
  auto c = ScanAll("cpu", {"u", "v"});
  ASSERT_EQ(c.rows[0].size(), 2u);
  EXPECT_EQ(c.rows[0][10], (std::vector<std::string>{"2", "1"}));
  EXPECT_EQ(c.rows[0][5], (std::vector<std::string>{"0", "NULL"}));
  ASSERT_TRUE(engine_->Compact().ok());
  auto d = ScanAll("cpu", {"u", "v"});
  EXPECT_EQ(d.rows, c.rows);
  Reopen();
  EXPECT_EQ(ScanAll("cpu", {"u", "v"}).rows, c.rows);
}

// Background compaction merges the newest run of similar-sized segments and leaves a much larger
// older one alone until as much has been flushed after it; newest values still win, and an
// explicit Compact merges everything.
TEST_F(EngineTest, BackgroundCompactionMergesTheNewestRunOfSmallSegments) {
  ASSERT_TRUE(engine_->Close().ok());
  engine_.reset();
  EngineOptions options;
  options.data_dir = dir_.path();
  options.background_work = true;
  options.compaction_trigger_segments = 4;
  options.memtable_budget_bytes = 1;  // every write is flushed in the background, then compaction runs
  auto e = Engine::Open(options);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  engine_ = std::move(e).value();

  auto segment_files = [&] { return testing::SegmentFilesUnder(dir_.path()); };
  WriteGrid(1000);  // 3,000 rows: the big segment
  ASSERT_TRUE(engine_->Flush().ok());
  const std::set<std::string> big = segment_files();
  ASSERT_EQ(big.size(), 1u);
  for (int f = 0; f < 4; ++f) {  // four segments of 3 rows, one of them overwriting a big row
    WriteBatch batch("db");
    for (int h = 0; h < 3; ++h) {
      AddRow(&batch, "cpu", {Host("h" + std::to_string(h)), f == 0 ? 50 : 20000 + f * 10, {{"u", -(h + 1)}}});
    }
    Write(batch);
    ASSERT_TRUE(engine_->Flush().ok());
  }
  // Five segments: the four small ones merge into one, the big one stays. (A write to another
  // table makes sure a background flush, and so a compaction pass, comes after the last flush.)
  WriteBatch other("db");
  AddRow(&other, "mem", {Host("h0"), 0, {{"u", 1}}});
  Write(other);
  for (int i = 0; i < 3000 && engine_->Stats().segment_files != 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(engine_->Stats().segment_files, 3u);  // cpu: the big one and the merged one; mem: one
  EXPECT_TRUE(segment_files().count(*big.begin())) << "the big segment was rewritten";
  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[1].size(), 1003u);
  EXPECT_EQ(c.rows[1][50], std::vector<std::string>{"-2"});  // the newer write of time 50
  EXPECT_EQ(c.rows[1][40], std::vector<std::string>{"1004"});
  ASSERT_TRUE(engine_->Compact().ok());
  EXPECT_EQ(engine_->Stats().segment_files, 2u);
  EXPECT_FALSE(segment_files().count(*big.begin()));
  EXPECT_EQ(ScanAll("cpu", {"u"}).rows, c.rows);
}

TEST_F(EngineTest, TypeConflictRejectsWholeBatch) {
  WriteBatch a("db");
  AddRow(&a, "cpu", {Host("h"), 10, {{"u", 1}}});
  Write(a);
  WriteBatch b("db");
  AddRow(&b, "cpu", {Host("h"), 20, {{"v", 7}}});
  AddRow(&b, "cpu", {Host("h"), 30, {}, {{"u", 1.5}}});
  auto r = engine_->Write(b, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kTypeConflict);
  auto c = ScanAll("cpu", {"u"});
  EXPECT_EQ(c.rows[0].size(), 1u);  // nothing of b was applied

  WriteOptions partial;
  partial.accept_partial = true;
  auto p = engine_->Write(b, partial);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->rows_written, 1u);
  ASSERT_EQ(p->rejected.size(), 1u);
  Reopen();
  auto d = ScanAll("cpu", {"u", "v"});
  EXPECT_EQ(d.rows[0].size(), 2u);
  EXPECT_EQ(d.rows[0][20], (std::vector<std::string>{"NULL", "7"}));
}

TEST_F(EngineTest, TimeRangeAndNewestFirst) {
  WriteGrid(50);
  ASSERT_TRUE(engine_->Flush().ok());
  WriteGrid(50, 500);  // a second source after the first
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  CollectingConsumer c;
  ScanSpec spec = AllSeries(**reader, {"u"});
  spec.series = {0};
  spec.min_time = 100;
  spec.max_time = 600;
  spec.newest_first = true;
  c.limit_rows = 3;
  ASSERT_TRUE((*reader)->Scan(spec, &c, nullptr).ok());
  ASSERT_GE(c.order.size(), 3u);
  EXPECT_EQ(c.order[0].second, 600);
  EXPECT_EQ(c.order[1].second, 590);
  EXPECT_EQ(c.order[2].second, 580);

  auto all = ScanAll("cpu", {"u"}, 100, 600);
  EXPECT_EQ(all.rows[0].size(), 51u);
}

TEST_F(EngineTest, OverlappingSegmentsMergeOnlyWhereTheyOverlap) {
  // Segment 1: times 0..4990; segment 2 rewrites 3000..6990 (u + 1 for the shared times). A scan
  // reads the part before 3000 from segment 1 alone and merges the rest; every range, with and
  // without statistics, newest first or not, sees each time once with the newest value.
  WriteBatch first("db"), second("db");
  for (int i = 0; i < 500; ++i) AddRow(&first, "cpu", {Host("h0"), i * 10, {{"u", i}}});
  Write(first);
  ASSERT_TRUE(engine_->Flush().ok());
  for (int i = 300; i < 700; ++i) AddRow(&second, "cpu", {Host("h0"), i * 10, {{"u", i + 1}}});
  Write(second);
  ASSERT_TRUE(engine_->Flush().ok());
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  for (auto [lo, hi] : {std::pair<int64_t, int64_t>{0, 6990}, {1500, 3500}, {2990, 3010}, {3500, 4000}, {0, 2990}}) {
    for (bool newest_first : {false, true}) {
      SCOPED_TRACE(std::to_string(lo) + ".." + std::to_string(hi) + (newest_first ? " newest first" : ""));
      CollectingConsumer c;
      ScanSpec spec = AllSeries(**reader, {"u"});
      spec.min_time = lo;
      spec.max_time = hi;
      spec.newest_first = newest_first;
      ScanMetrics metrics;
      ASSERT_TRUE((*reader)->Scan(spec, &c, &metrics).ok());
      EXPECT_EQ(metrics.series_scanned, 1u);
      ASSERT_EQ(c.order.size(), static_cast<size_t>((hi - lo) / 10 + 1));
      for (size_t k = 0; k < c.order.size(); ++k) {
        const int64_t t = c.order[k].second;
        EXPECT_EQ(t, newest_first ? hi - static_cast<int64_t>(k) * 10 : lo + static_cast<int64_t>(k) * 10);
        const int i = static_cast<int>(t / 10);
        EXPECT_EQ(c.rows[0][t], std::vector<std::string>{std::to_string(i >= 300 ? i + 1 : i)});
      }
    }
  }
}

TEST_F(EngineTest, ASecondEngineCannotOpenTheSameDirectory) {
  EngineOptions options;
  options.data_dir = dir_.path();
  options.background_work = false;
  auto second = Engine::Open(options);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("in use by another gnomon process"), std::string::npos)
      << second.status().ToString();
  // Once the first closes, the directory opens again.
  ASSERT_TRUE(engine_->Close().ok());
  engine_.reset();
  auto third = Engine::Open(options);
  ASSERT_TRUE(third.ok()) << third.status().ToString();
}

TEST_F(EngineTest, PredicateScanKeepsEveryPassingRowAndSkipsMostOthers) {
  // A bounded random walk per host, flushed: the predicate column is decoded first and the rest
  // only around passing rows; NaNs of a float column always pass (they are never skipped).
  WriteBatch batch("db");
  uint64_t x = 88172645463325252ull;
  for (int h = 0; h < 3; ++h) {
    int64_t walk = 50;
    for (int i = 0; i < 3000; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      walk = std::clamp<int64_t>(walk + static_cast<int64_t>(x % 7) - 3, 0, 100);
      const double f = i % 97 == 0 ? std::nan("") : static_cast<double>(walk) / 2;
      AddRow(&batch, "cpu", {Host("h" + std::to_string(h)), 1686441600000000000 + i * 10000000000LL,
                             {{"w", walk}}, {{"f", f}}, {}});
    }
  }
  Write(batch);
  ASSERT_TRUE(engine_->Flush().ok());
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  for (int column : {0, 1}) {
    for (ScanPredicate::Op op : {ScanPredicate::Op::kGt, ScanPredicate::Op::kLe}) {
      SCOPED_TRACE("column " + std::to_string(column) + " op " + std::to_string(static_cast<int>(op)));
      ScanSpec spec = AllSeries(**reader, {"w", "f"});
      spec.min_time = 1686441600000000000 + 100 * 10000000000LL;
      CollectingConsumer all;
      ASSERT_TRUE((*reader)->Scan(spec, &all, nullptr).ok());
      spec.predicate.column = column;
      spec.predicate.op = op;
      spec.predicate.value = column == 0 ? 80.5 : 40.25;
      CollectingConsumer some;
      ASSERT_TRUE((*reader)->Scan(spec, &some, nullptr).ok());
      size_t total = 0, passing = 0, delivered = 0;
      for (const auto& [series, rows] : all.rows) {
        for (const auto& [t, row] : rows) {
          ++total;
          const double v = std::stod(row[column]);
          const bool pass = std::isnan(v) || (op == ScanPredicate::Op::kGt ? v > spec.predicate.value
                                                                          : v <= spec.predicate.value);
          auto it = some.rows[series].find(t);
          if (pass) {
            ++passing;
            ASSERT_NE(it, some.rows[series].end()) << "passing row missing at " << t;
          }
          if (it != some.rows[series].end()) EXPECT_EQ(it->second, row);
        }
      }
      for (const auto& [series, rows] : some.rows) {
        for (const auto& [t, row] : rows) {
          EXPECT_TRUE(all.rows[series].count(t)) << "invented row at " << t;
          ++delivered;
        }
      }
      EXPECT_GE(delivered, passing);
      if (op == ScanPredicate::Op::kGt && column == 0) EXPECT_LT(delivered, total);  // something was skipped
    }
  }
}

TEST_F(EngineTest, PredicateScanSkipsHoursTheirStatisticsRuleOut) {
  // Five hours of one host; `w` passes `w > 90` in a single row of hour 2 only, and `f` is NaN in
  // one row of hour 4. The hour statistics rule out every other hour of `w`; for `f` the hour
  // holding a NaN is kept (its sum is NaN), the others are skipped.
  WriteBatch batch("db");
  const int64_t t0 = 1686441600000000000;
  for (int i = 0; i < 1800; ++i) {
    const int64_t w = i == 2 * 360 + 17 ? 95 : 10 + i % 7;
    const double f = i == 4 * 360 + 5 ? std::nan("") : 1.5;
    AddRow(&batch, "cpu", {Host("h0"), t0 + i * 10000000000LL, {{"w", w}}, {{"f", f}}, {}});
  }
  Write(batch);
  ASSERT_TRUE(engine_->Flush().ok());
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  ScanMetrics metrics;
  auto hours_delivered = [&](int column, double value, size_t* rows) {
    ScanSpec spec = AllSeries(**reader, {"w", "f"});
    spec.predicate.column = column;
    spec.predicate.op = ScanPredicate::Op::kGt;
    spec.predicate.value = value;
    CollectingConsumer c;
    metrics = ScanMetrics{};
    EXPECT_TRUE((*reader)->Scan(spec, &c, &metrics).ok());
    std::set<int64_t> hours;
    *rows = 0;
    for (const auto& [series, rows_of] : c.rows) {
      for (const auto& [t, row] : rows_of) {
        hours.insert((t - t0) / 3600000000000LL);
        ++*rows;
      }
    }
    return hours;
  };
  size_t rows = 0;
  EXPECT_EQ(hours_delivered(0, 90, &rows), std::set<int64_t>{2});
  EXPECT_GE(rows, 1u);
  EXPECT_EQ(metrics.blocks_pruned, 4u);  // hours 0, 1, 3 and 4, unread
  EXPECT_EQ(metrics.blocks_decoded, 1u);
  EXPECT_EQ(hours_delivered(1, 90, &rows), std::set<int64_t>{4});  // only the NaN hour may pass
  EXPECT_EQ(metrics.blocks_pruned, 4u);
  EXPECT_EQ(hours_delivered(0, 95, &rows), std::set<int64_t>{});  // nothing passes anywhere
  EXPECT_EQ(metrics.blocks_pruned, 1u);                            // the whole group, by its statistics
  EXPECT_EQ(metrics.blocks_decoded, 0u);
}

TEST_F(EngineTest, BlockStatsOfferedForWholeBlocks) {
  WriteGrid(100);  // series long enough to have row groups of their own (not packed)
  CollectingConsumer c;
  ScanMetrics metrics;
  FlushAndScanOfferingStats(&c, &metrics);
  ASSERT_EQ(c.stats_blocks.size(), 3u);
  EXPECT_EQ(metrics.blocks_from_stats, 3u);
  const BlockStatsView& s = c.stats_blocks[1];
  EXPECT_EQ(s.rows, 100u);
  EXPECT_EQ(s.columns[0].count, 100u);
  EXPECT_EQ(s.columns[0].imin, 1000);
  EXPECT_EQ(s.columns[0].imax, 1099);
  EXPECT_DOUBLE_EQ(s.columns[0].sum, 100 * 1000 + 99 * 100 / 2);
}

// Short series are packed: their pack's statistics are not theirs, so a scan offers none and
// delivers their rows, and every aggregate over them comes out exact.
TEST_F(EngineTest, PackedSeriesOfferRowsNotStatistics) {
  WriteGrid(20);
  CollectingConsumer c;
  ScanMetrics metrics;
  FlushAndScanOfferingStats(&c, &metrics);
  EXPECT_TRUE(c.stats_blocks.empty());
  EXPECT_EQ(metrics.blocks_from_stats, 0u);
  ASSERT_EQ(c.rows.size(), 3u);
  for (const auto& [series, rows] : c.rows) {
    ASSERT_EQ(rows.size(), 20u) << series;
    int i = 0;
    for (const auto& [t, row] : rows) {
      EXPECT_EQ(t, i * 10);
      ++i;
    }
  }
}

TEST_F(EngineTest, LastValueCacheFollowsWritesAndRestarts) {
  WriteGrid(10);
  ASSERT_TRUE(engine_->Flush().ok());
  WriteBatch b("db");
  AddRow(&b, "cpu", {Host("h0"), 5, {{"u", -1}}});  // older: ignored by the cache
  Write(b);
  auto check = [&] {
    auto reader = engine_->OpenTable("db", "cpu");
    ASSERT_TRUE(reader.ok());
    LastRow last;
    ASSERT_TRUE((*reader)->LastRowOf(0, &last));
    EXPECT_EQ(last.time, 90);
    ASSERT_EQ(last.values.size(), 1u);
    EXPECT_EQ(last.values[0].i64, 9);
  };
  check();
  Reopen();
  check();
}

// Within one batch only a series' newest rows reach the cache; the outcome must equal offering
// every row in order: the newest time wins wherever it sits in the batch, rows sharing it merge
// field by field (the later row's value wins), and a series' older rows leave no trace.
TEST_F(EngineTest, LastValueCacheWithinOneBatch) {
  WriteBatch b("db");
  AddRow(&b, "cpu", {Host("h0"), 30, {{"u", 1}, {"v", 1}}});
  AddRow(&b, "cpu", {Host("h1"), 10, {{"u", 100}}});
  AddRow(&b, "cpu", {Host("h0"), 50, {{"u", 2}}});
  AddRow(&b, "cpu", {Host("h0"), 40, {{"u", 3}, {"v", 3}, {"w", 3}}});
  AddRow(&b, "cpu", {Host("h0"), 50, {{"v", 4}}});
  AddRow(&b, "cpu", {Host("h0"), 50, {{"u", 5}}});
  Write(b);
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  LastRow last;
  ASSERT_TRUE((*reader)->LastRowOf(0, &last));
  EXPECT_EQ(last.time, 50);
  ASSERT_EQ(last.values.size(), 2u);  // u and v; w only at time 40
  EXPECT_EQ(last.values[0].i64, 5);
  EXPECT_EQ(last.values[1].i64, 4);
  ASSERT_TRUE((*reader)->LastRowOf(1, &last));
  EXPECT_EQ(last.time, 10);
  ASSERT_EQ(last.values.size(), 1u);
  EXPECT_EQ(last.values[0].i64, 100);
}

TEST_F(EngineTest, TagIndexAndSeriesTags) {
  WriteBatch b("db");
  AddRow(&b, "cpu", {TagSet{{"hostname", "a"}, {"region", "eu"}}, 1, {{"u", 1}}});
  AddRow(&b, "cpu", {TagSet{{"hostname", "b"}, {"region", "us"}}, 1, {{"u", 1}}});
  AddRow(&b, "cpu", {TagSet{{"hostname", "c"}, {"region", "eu"}}, 1, {{"u", 1}}});
  Write(b);
  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->SeriesWithTag("region", "eu"), (std::vector<SeriesId>{0, 2}));
  EXPECT_EQ((*reader)->SeriesTag(1, "region"), "us");
  EXPECT_EQ((*reader)->TagValues("region"), (std::vector<std::string>{"eu", "us"}));
  auto info = engine_->DescribeTable("db", "cpu");
  ASSERT_TRUE(info.ok());
  ASSERT_EQ(info->columns.size(), 4u);
  EXPECT_EQ(info->columns[0].name, "time");
  EXPECT_EQ(info->columns[1].name, "hostname");
  EXPECT_EQ(info->columns[3].name, "u");
}

TEST_F(EngineTest, DeleteRowsFromMemtableAndSegments) {
  WriteGrid(20);
  ASSERT_TRUE(engine_->Flush().ok());
  WriteGrid(20, 1000);
  ASSERT_TRUE(engine_->DeleteRows("db", "cpu", std::vector<SeriesId>{1}, 50, 1050).ok());
  auto c = ScanAll("cpu", {"u"});
  EXPECT_EQ(c.rows[0].size(), 40u);
  EXPECT_EQ(c.rows[1].size(), 40u - 15u - 6u);
  Reopen();
  EXPECT_EQ(ScanAll("cpu", {"u"}).rows, c.rows);
}

TEST_F(EngineTest, DropTableAndDatabaseSurviveRestart) {
  WriteGrid(5);
  WriteBatch b("db");
  AddRow(&b, "mem", {Host("h"), 1, {{"free", 1}}});
  Write(b);
  ASSERT_TRUE(engine_->DropTable("db", "cpu").ok());
  EXPECT_TRUE(engine_->OpenTable("db", "cpu").status().IsNotFound());
  Reopen();
  EXPECT_TRUE(engine_->OpenTable("db", "cpu").status().IsNotFound());
  EXPECT_TRUE(engine_->OpenTable("db", "mem").ok());
  ASSERT_TRUE(engine_->DropDatabase("db").ok());
  Reopen();
  EXPECT_TRUE(engine_->ListDatabases().empty());
}

TEST_F(EngineTest, CreateDatabaseIsIdempotentAndPersistent) {
  DatabaseOptions opts;
  opts.retention_ns = 3600;
  ASSERT_TRUE(engine_->CreateDatabase("x", opts).ok());
  ASSERT_TRUE(engine_->CreateDatabase("x", {}).ok());
  Reopen();
  EXPECT_TRUE(engine_->DatabaseExists("x"));
  EXPECT_TRUE(engine_->ListTables("x").ok());
  EXPECT_TRUE(engine_->ListTables("nope").status().IsNotFound());
}

TEST_F(EngineTest, ConcurrentWritersAllLand) {
  constexpr int kThreads = 8, kBatches = 20, kRows = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int b = 0; b < kBatches; ++b) {
        WriteBatch batch("db");
        for (int r = 0; r < kRows; ++r) {
          AddRow(&batch, "cpu", {Host("t" + std::to_string(t)), (b * kRows + r) * 10, {{"u", r}}});
        }
        auto res = engine_->Write(batch, {});
        EXPECT_TRUE(res.ok());
        if (b == kBatches / 2 && t == 0) EXPECT_TRUE(engine_->Flush().ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), static_cast<size_t>(kThreads));
  for (auto& [id, rows] : c.rows) EXPECT_EQ(rows.size(), static_cast<size_t>(kBatches * kRows));
  Reopen();
  auto d = ScanAll("cpu", {"u"});
  EXPECT_EQ(d.rows, c.rows);
}

TEST_F(EngineTest, PartitionsSplitAndRetentionDrops) {
  const int64_t day = 24LL * 3600 * 1000000000;
  WriteBatch b("db");
  AddRow(&b, "cpu", {Host("h"), 1, {{"u", 1}}});
  AddRow(&b, "cpu", {Host("h"), day + 1, {{"u", 2}}});
  AddRow(&b, "cpu", {Host("h"), 2 * day + 1, {{"u", 3}}});
  Write(b);
  ASSERT_TRUE(engine_->Flush().ok());
  EXPECT_EQ(engine_->Stats().segment_files, 3u);
  auto c = ScanAll("cpu", {"u"});
  EXPECT_EQ(c.rows[0].size(), 3u);
}

// A partition that takes no flush for cold_compaction_ns is merged into one segment by the
// background compaction, below the segment-count trigger; rows are unchanged.
TEST(EngineColdCompactionTest, ColdPartitionBecomesOneSegment) {
  TempDir dir;
  EngineOptions options;
  options.data_dir = dir.path();
  options.cold_compaction_ns = 1000000;  // 1 ms: cold at the compaction thread's next look (~1 s)
  auto opened = Engine::Open(options);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<Engine> engine = std::move(opened).value();
  for (int part = 0; part < 2; ++part) {
    WriteBatch b("db");
    for (int i = 0; i < 100; ++i) AddRow(&b, "cpu", {Host("h"), (part * 100 + i) * 10LL, {{"u", part * 100 + i}}});
    ASSERT_TRUE(engine->Write(b, {}).ok());
    ASSERT_TRUE(engine->Flush().ok());
  }
  for (int wait = 0; wait < 300 && engine->Stats().segment_files != 1; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(engine->Stats().segment_files, 1u);
  auto reader = engine->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  CollectingConsumer c;
  ASSERT_TRUE((*reader)->Scan(AllSeries(**reader, {"u"}), &c, nullptr).ok());
  ASSERT_EQ(c.rows.size(), 1u);
  const auto& rows = c.rows.begin()->second;
  ASSERT_EQ(rows.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(rows.at(i * 10LL), std::vector<std::string>{std::to_string(i)});
  EXPECT_TRUE(engine->Close().ok());
}

TEST_F(EngineTest, MixedTypesAndNulls) {
  WriteBatch b("db");
  AddRow(&b, "t", {Host("h"), 1, {{"i", 1}}, {{"f", 1.5}}, {{"s", "x"}}});
  AddRow(&b, "t", {Host("h"), 2, {}, {{"f", -0.25}}, {}});
  AddRow(&b, "t", {Host("h"), 3, {{"i", 3}}, {}, {{"s", "zz"}}});
  Write(b);
  auto before = ScanAll("t", {"i", "f", "s", "missing"});
  EXPECT_EQ(before.rows[0][2], (std::vector<std::string>{"NULL", "-0.250000", "NULL", "NULL"}));
  ASSERT_TRUE(engine_->Flush().ok());
  auto after = ScanAll("t", {"i", "f", "s", "missing"});
  EXPECT_EQ(after.rows, before.rows);
}

TEST_F(EngineTest, OverwriteKeepsOtherRowsNulls) {
  WriteBatch a("db");
  AddRow(&a, "m", {Host("a"), 0, {}, {{"y", 5.5}}});
  AddRow(&a, "m", {Host("a"), 10, {{"x", 2}}});
  Write(a);
  ASSERT_TRUE(engine_->Flush().ok());
  WriteBatch b("db");
  AddRow(&b, "m", {Host("a"), 10, {{"x", 20}}});
  Write(b);
  auto c = ScanAll("m", {"x", "y"});
  EXPECT_EQ(c.rows[0][0], (std::vector<std::string>{"NULL", "5.500000"}));
  EXPECT_EQ(c.rows[0][10], (std::vector<std::string>{"20", "NULL"}));
}
// A reader opened before a write does not see it, even though the write lands in the memtable the
// reader holds: each series is read up to its length when the reader was opened. Without this a
// scan running beside a writer saw some series of a batch and not others.
TEST_F(EngineTest, ReaderIsAPointInTimeViewOfTheActiveMemtable) {
  WriteGrid(5);
  auto before = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(before.ok());
  WriteGrid(5, 1000);
  WriteBatch late("db");
  AddRow(&late, "cpu", {Host("h1"), 5, {{"u", 7}}});  // out of order: h1's buffer is unsorted now
  Write(late);

  CollectingConsumer old_view;
  ASSERT_TRUE((*before)->Scan(AllSeries(**before, {"u"}), &old_view, nullptr).ok());
  ASSERT_EQ(old_view.rows.size(), 3u);
  for (const auto& [id, rows] : old_view.rows) EXPECT_EQ(rows.size(), 5u) << id;
  CollectingConsumer old_late;
  ScanSpec late_range = AllSeries(**before, {"u"});
  late_range.min_time = 1000;
  ASSERT_TRUE((*before)->Scan(late_range, &old_late, nullptr).ok());
  EXPECT_TRUE(old_late.rows.empty());

  auto c = ScanAll("cpu", {"u"});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].size(), 10u);
  EXPECT_EQ(c.rows[1].size(), 11u);
  EXPECT_EQ(c.rows[1][5], std::vector<std::string>{"7"});
}

}  // namespace
}  // namespace gnomon::storage
