// The query layer's fast paths give the same answers as the general operators: last values from
// the last-value cache (LastValueAggregateOperator) against HashAggregate over a scan, the scan's
// filter-before-tags path against a plain Filter, and the DISTINCT ON last-point shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "src/query/query_engine.h"
#include "src/query/query_test_util.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::query {
namespace {

using storage::testing::AddRow;
using storage::testing::TempDir;
using storage::testing::TestRow;
using testing::TextSink;
using Rows = std::vector<std::vector<std::string>>;

constexpr int64_t kT0 = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
constexpr int64_t kSec = 1000000000LL;
constexpr int64_t kMilli = 1000000LL;

// The rows of `sql` on database "db" (a failure is a test failure).
Rows Execute(QueryEngine* q, const std::string& sql) {
  TextSink sink;
  QueryOptions opts;
  opts.database = "db";
  Status s = q->Execute(sql, opts, &sink);
  EXPECT_TRUE(s.ok()) << sql << "\n" << s.ToString();
  return sink.rows;
}

class FastPathTest : public ::testing::TestWithParam<bool> {
 protected:
  // Random series (times unique across series, so last values have no ties): hosts (some sharing a hostname, one without it), sparse int, float and string
  // fields (NULLs everywhere, a newest row lacking fields), strings needing escapes.
  void SetUp() override {
    engine_ = storage::testing::OpenTestEngine(dir_.path());
    ASSERT_NE(engine_, nullptr);
    query_ = QueryEngine::Create(engine_.get(), {});
    std::mt19937_64 rng(42);
    const std::vector<std::string> texts = {"plain", "with \"quote\"", "back\\slash", "new\nline",
                                            "comma,here", "ünïcödé", std::string("ctl\x01", 4)};
    for (int round = 0; round < 2; ++round) {
      storage::WriteBatch batch("db");
      for (int h = 0; h < 40; ++h) {
        storage::TagSet tags;
        if (h != 7) tags.push_back({"hostname", "host_" + std::to_string(h % 30)});
        if (h % 5 != 0) tags.push_back({"rack", std::to_string(h % 4)});
        tags.push_back({"region", h % 3 == 0 ? "eu" : "us"});
        tags.push_back({"shard", std::to_string(h)});
        const int rows = 50 + static_cast<int>(rng() % 100);
        for (int i = 0; i < rows; ++i) {
          TestRow row{tags, kT0 + (round * 1000 + i * 3) * kSec + h * kMilli, {}, {}, {}};
          if (rng() % 4 != 0) row.ints.push_back({"u", static_cast<int64_t>(rng() % 200) - 50});
          if (rng() % 3 != 0) row.floats.push_back({"f", static_cast<double>(rng() % 100000) / 7.0});
          if (rng() % 5 == 0) row.strings.push_back({"s", texts[rng() % texts.size()]});
          row.ints.push_back({"k", static_cast<int64_t>(h)});
          AddRow(&batch, "cpu", row);
        }
        // Some series end with a row that has only `k`: their newest u/f/s are further back.
        if (h % 6 == 1) AddRow(&batch, "cpu", TestRow{tags, kT0 + (round * 1000 + 900) * kSec + h * kMilli, {{"k", 1}}, {}, {}});
      }
      auto w = engine_->Write(batch, {});
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      if (GetParam() && round == 0) {
        ASSERT_TRUE(engine_->Flush().ok());
      }
    }
  }

  Rows Query(const std::string& sql) { return Execute(query_.get(), sql); }
  std::string Explain(const std::string& sql) {
    std::string text;
    for (const auto& row : Query("EXPLAIN " + sql)) text += row[0] + "\n";
    return text;
  }

  TempDir dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<QueryEngine> query_;
};

TEST_P(FastPathTest, LastValuesFromCacheMatchScan) {
  const std::string select =
      "SELECT last_value(hostname ORDER BY time), last_value(rack ORDER BY time), "
      "last_value(u ORDER BY time), last_value(f ORDER BY time), last_value(s ORDER BY time), "
      "last_value(time ORDER BY time), last(k) FROM cpu";
  // A time bound that keeps every row sends the same query through HashAggregate over a scan.
  const std::string all_rows = " WHERE time >= '2023-06-10T00:00:00Z'";
  for (const std::string group :
       {"", " GROUP BY hostname", " GROUP BY rack", " GROUP BY region, rack", " GROUP BY shard"}) {
    const std::string fast = select + group;
    const std::string slow = select + all_rows + group;
    ASSERT_NE(Explain(fast).find("LastValueAggregate"), std::string::npos) << fast;
    ASSERT_EQ(Explain(slow).find("LastValueAggregate"), std::string::npos) << slow;
    Rows a = Query(fast), b = Query(slow);
    // Group order may differ between the two operators; the set of groups may not.
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << fast;
    EXPECT_FALSE(a.empty());
  }
  // Keys are output too, NULL for series without the key tag.
  Rows keyed = Query("SELECT hostname, last_value(u ORDER BY time) FROM cpu GROUP BY hostname");
  Rows keyed_slow = Query("SELECT hostname, last_value(u ORDER BY time) FROM cpu" + all_rows + " GROUP BY hostname");
  std::sort(keyed.begin(), keyed.end());
  std::sort(keyed_slow.begin(), keyed_slow.end());
  EXPECT_EQ(keyed, keyed_slow);
  EXPECT_EQ(keyed[0][0], "NULL");
}

TEST_P(FastPathTest, LastValuesOfNothing) {
  Rows rows = Query("SELECT last_value(u ORDER BY time), last(hostname) FROM cpu WHERE hostname = 'none'");
  EXPECT_EQ(rows, (Rows{{"NULL", "NULL"}}));
  rows = Query("SELECT last_value(u ORDER BY time) FROM cpu WHERE hostname = 'none' GROUP BY hostname");
  EXPECT_TRUE(rows.empty());
}

TEST_P(FastPathTest, ScanFilterBeforeTagsMatchesFilter) {
  // "u > 10" is evaluated before tags are materialised; "u + 0 > 10 OR hostname = 'x'" cannot be.
  const std::string cols = "SELECT time, hostname, rack, u, f, s, k FROM cpu WHERE ";
  for (const std::string pred : {"u > 10", "f < 3000.5", "u > 10 AND f > 100", "s = 'plain'", "u IS NULL"}) {
    const std::string fast = cols + pred + " AND time >= '2023-06-11T00:01:00Z'";
    const std::string slow = cols + "(" + pred + " OR hostname = 'no such host') AND time >= '2023-06-11T00:01:00Z'";
    Rows a = Query(fast), b = Query(slow);
    EXPECT_EQ(a, b) << fast;
    EXPECT_FALSE(a.empty()) << fast;
  }
  // Stopping early (LIMIT) and per-series limits still give the general answers.
  EXPECT_EQ(Query(cols + "u > 0 LIMIT 17"), Query(cols + "(u > 0 OR hostname = 'none') LIMIT 17"));
  EXPECT_EQ(Query("SELECT * FROM cpu ORDER BY time DESC LIMIT 5"),
            Query("SELECT * FROM cpu WHERE k >= 0 OR hostname = 'none' ORDER BY time DESC LIMIT 5"));
}

TEST_P(FastPathTest, DistinctOnLastPoint) {
  Rows fast = Query("SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC");
  Rows slow = Query("SELECT DISTINCT ON (hostname) * FROM cpu WHERE time >= '2023-06-10T00:00:00Z' "
                    "ORDER BY hostname, time DESC");
  EXPECT_EQ(fast, slow);
  EXPECT_FALSE(fast.empty());
}

TEST_P(FastPathTest, ParallelScanMatchesSerialScan) {
  // Background scan threads deliver rows in series order, exactly as one thread does.
  QueryEngineOptions serial_options;
  serial_options.worker_threads = 1;
  auto serial = QueryEngine::Create(engine_.get(), serial_options);
  QueryEngineOptions parallel_options;
  parallel_options.worker_threads = 2;
  auto parallel = QueryEngine::Create(engine_.get(), parallel_options);
  auto run = [](QueryEngine* q, const std::string& sql) { return Execute(q, sql); };
  for (const std::string sql : {"SELECT * FROM cpu", "SELECT * FROM cpu WHERE u > 100",
                                "SELECT time, s FROM cpu WHERE s IS NOT NULL AND time > '2023-06-11T00:10:00Z'",
                                "SELECT * FROM cpu LIMIT 300", "SELECT * FROM cpu WHERE u > 0 LIMIT 5 OFFSET 400",
                                "SELECT hostname, count(*) FROM (SELECT * FROM cpu WHERE f > 10) AS t GROUP BY hostname ORDER BY hostname",
                                "SELECT * FROM cpu WHERE k = 3", "SELECT * FROM cpu WHERE u > 1000"}) {
    Rows a = run(serial.get(), sql), b = run(parallel.get(), sql);
    EXPECT_EQ(a, b) << sql;
  }
  // A client that stops reading early: the engine's sink fails, the scan threads wind down.
  class FailingSink : public TextSink {
   public:
    Status Chunk(const ResultChunk&) override { return Status::IOError("client went away"); }
  };
  FailingSink failing;
  QueryOptions opts;
  opts.database = "db";
  EXPECT_FALSE(parallel->Execute("SELECT * FROM cpu", opts, &failing).ok());
}

// `sql` on database "db" through a query engine with `threads` worker threads.
Rows RunOn(storage::Engine* engine, int threads, const std::string& sql) {
  QueryEngineOptions qo;
  qo.worker_threads = threads;
  return Execute(QueryEngine::Create(engine, qo).get(), sql);
}

// Enough series for the last-value cache to be read on two threads (blocks of series split in
// halves); the answers match one thread and the general path.
TEST(FastPathManySeriesTest, LastValuesOnTwoThreads) {
  TempDir dir;
  std::unique_ptr<storage::Engine> engine = storage::testing::OpenTestEngine(dir.path());
  ASSERT_NE(engine, nullptr);
  storage::WriteBatch batch("db");
  for (int h = 0; h < 5000; ++h) {
    storage::TagSet tags{{"hostname", "host_" + std::to_string(h % 4500)}, {"rack", std::to_string(h % 7)}};
    for (int i = 0; i < 3; ++i) {
      TestRow row{tags, kT0 + i * kSec + h * kMilli, {}, {}, {}};
      row.ints.push_back({"k", h});
      if (i < 2 || h % 3 != 0) row.ints.push_back({"u", h * 10 + i});  // some newest rows lack u
      if (h % 11 == 0) row.strings.push_back({"s", "v" + std::to_string(h) + (i ? "\"x" : "")});
      AddRow(&batch, "cpu", row);
    }
  }
  ASSERT_TRUE(engine->Write(batch, {}).ok());
  auto run = [&](int threads, const std::string& sql) { return RunOn(engine.get(), threads, sql); };
  const std::string select = "SELECT last_value(hostname ORDER BY time), last_value(u ORDER BY time), "
                             "last_value(s ORDER BY time), last(k), last_value(time ORDER BY time) FROM cpu";
  for (const std::string group : {" GROUP BY hostname", " GROUP BY rack", ""}) {
    Rows one = run(1, select + group), two = run(2, select + group);
    EXPECT_EQ(one, two) << group;
    Rows slow = run(2, select + " WHERE time >= '2023-06-10T00:00:00Z'" + group);
    std::sort(two.begin(), two.end());
    std::sort(slow.begin(), slow.end());
    EXPECT_EQ(two, slow) << group;
    EXPECT_FALSE(two.empty());
  }
}

// Many tag groups over whole and partial hours: BucketAggregate's dense table (threads owning
// disjoint tag groups) and its statistics-less-rows reading of a range's first and last hours
// give the general operators' answers, on one thread and two, with rows in segments and memtables.
TEST(FastPathManySeriesTest, BucketAggregateMatchesGeneralAggregate) {
  TempDir dir;
  std::unique_ptr<storage::Engine> engine = storage::testing::OpenTestEngine(dir.path());
  ASSERT_NE(engine, nullptr);
  std::mt19937_64 rng(7);
  for (int part = 0; part < 2; ++part) {  // hours 0-3 flushed, hour 4 left in the memtable
    storage::WriteBatch batch("db");
    for (int h = 0; h < 150; ++h) {
      storage::TagSet tags;  // sorted by key
      if (h != 11) tags.push_back({"hostname", std::string("host_").append(std::to_string(h % 140))});
      tags.push_back({"rack", std::to_string(h % 9)});
      int64_t walk = static_cast<int64_t>(rng() % 100);
      // Steps mostly 0 and ±1, as in TSBS: flushed integer blocks take the chunked Huffman form,
      // whose seek points decide which side of a partial hour is decoded.
      static constexpr int kSteps[16] = {0, 0, 0, 0, 0, 0, 1, 1, 1, -1, -1, -1, 2, -2, 3, -3};
      for (int i = part * 1440; i < (part == 0 ? 1440 : 1800); ++i) {
        walk = std::clamp<int64_t>(walk + kSteps[rng() % 16], 0, 100);
        TestRow row{tags, kT0 + i * 10 * kSec, {}, {}, {}};
        if (h % 13 != 5 || i % 10 != 0) row.ints.push_back({"u", walk});  // some series with NULLs
        row.ints.push_back({"v", walk * 3 - 100});
        if (i % 3 == 0) row.floats.push_back({"f", static_cast<double>(walk) / 8});
        AddRow(&batch, "cpu", row);
      }
    }
    auto w = engine->Write(batch, {});
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    if (part == 0) ASSERT_TRUE(engine->Flush().ok());
  }
  auto run = [&](int threads, const std::string& sql) { return RunOn(engine.get(), threads, sql); };
  const std::string ranges[] = {
      // Starts and ends mid-hour. The flushed blocks are cut at hours and half hours: the first
      // hour's rows in the range are decoded, the last hour is its statistics less the rows after.
      "time >= '2023-06-11T00:47:52Z' AND time < '2023-06-11T03:47:52Z'",
      // Both: statistics less the first 10 minutes of hour 0 and the last 10 of hour 3.
      "time >= '2023-06-11T00:10:00Z' AND time < '2023-06-11T03:50:00Z'",
      "time >= '2023-06-11T01:00:00Z' AND time < '2023-06-11T04:30:00Z'",  // into the memtable's hour
      "time > '2023-06-11T00:00:05Z'", "time >= '2023-06-11T02:59:59Z' AND time <= '2023-06-11T03:00:01Z'"};
  const std::string selects[] = {
      "SELECT date_trunc('hour', time) AS h, hostname, avg(u), count(*), count(u), sum(v), avg(v) FROM cpu WHERE ",
      "SELECT date_trunc('hour', time) AS h, hostname, rack, max(u), min(v), avg(f), count(f) FROM cpu WHERE ",
      "SELECT time_bucket('15 minutes', time) AS h, hostname, avg(u), sum(u) FROM cpu WHERE ",
      // hostname grouped but not selected (as TSBS double-groupby): it is not emitted.
      "SELECT avg(u), count(*), avg(v), date_trunc('hour', time) AS h FROM cpu WHERE "};
  for (const std::string& select : selects) {
    for (const std::string& range : ranges) {
      std::string group = " GROUP BY h, hostname";
      if (select.find("rack") != std::string::npos) group += ", rack";
      const std::string fast = select + range + group;
      // An always-true field condition keeps the same rows but takes the general operators.
      const std::string slow = select + range + " AND (v IS NULL OR v IS NOT NULL)" + group;
      std::string plan;
      for (const auto& row : run(2, std::string("EXPLAIN ").append(fast))) plan += row[0];
      ASSERT_NE(plan.find("BucketAggregate"), std::string::npos) << fast;
      Rows one = run(1, fast), two = run(2, fast), general = run(2, slow);
      EXPECT_EQ(one, two) << fast;
      std::sort(two.begin(), two.end());
      std::sort(general.begin(), general.end());
      ASSERT_EQ(two.size(), general.size()) << fast;
      for (size_t r = 0; r < two.size(); ++r) {
        for (size_t c = 0; c < two[r].size(); ++c) {
          // Averages of float columns may differ in the last bits (summation order).
          if (two[r][c] == general[r][c]) continue;
          EXPECT_NEAR(std::stod(two[r][c]), std::stod(general[r][c]), 1e-9 * std::fabs(std::stod(general[r][c])))
              << fast << " row " << r << " column " << c;
        }
      }
      EXPECT_GE(two.size(), 140u) << fast;  // 139 hostnames and NULL, per bucket
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MemtableAndSegments, FastPathTest, ::testing::Bool());

}  // namespace
}  // namespace gnomon::query
