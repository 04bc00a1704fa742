#include "src/query/query_engine.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "src/query/query_test_util.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::query {
namespace {

using storage::testing::AddRow;
using storage::testing::TempDir;
using testing::TextSink;
using Rows = std::vector<std::vector<std::string>>;

constexpr int64_t kT0 = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
constexpr int64_t kSec = 1000000000LL;

class QueryEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = storage::testing::OpenTestEngine(dir_.path());
    ASSERT_NE(engine_, nullptr);
    query_ = QueryEngine::Create(engine_.get(), {});
    // 3 hosts x 120 rows every 10 s (20 minutes); u = host * 100 + minute, v = i.
    storage::WriteBatch batch("db");
    for (int i = 0; i < 120; ++i) {
      for (int h = 0; h < 3; ++h) {
        storage::TagSet tags{{"hostname", "host_" + std::to_string(h)},
                             {"region", h == 2 ? "us" : "eu"}};
        AddRow(&batch, "cpu", {tags, kT0 + i * 10 * kSec, {{"u", h * 100 + i / 6}, {"v", i}}});
      }
    }
    ASSERT_TRUE(engine_->Write(batch, {}).ok());
  }

  Rows Query(const std::string& sql, std::vector<ResultColumn>* columns = nullptr) {
    TextSink sink;
    QueryOptions opts;
    opts.database = "db";
    Status s = query_->Execute(sql, opts, &sink);
    EXPECT_TRUE(s.ok()) << sql << "\n" << s.ToString();
    if (columns) *columns = sink.columns;
    return sink.rows;
  }

  Status QueryStatus(const std::string& sql) {
    TextSink sink;
    QueryOptions opts;
    opts.database = "db";
    return query_->Execute(sql, opts, &sink);
  }

  // The plan (or the analyzed plan) of `sql` as one text, a line per EXPLAIN row.
  std::string Explain(const std::string& sql) {
    std::string text;
    for (const auto& row : Query("EXPLAIN " + sql)) text += row[0] + "\n";
    return text;
  }

  void Flush() { ASSERT_TRUE(engine_->Flush().ok()); }

  TempDir dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<QueryEngine> query_;
};

TEST_F(QueryEngineTest, SelectStarWithTagFilterAndLimit) {
  std::vector<ResultColumn> cols;
  Rows rows = Query("SELECT * FROM cpu WHERE hostname = 'host_1' ORDER BY time LIMIT 2", &cols);
  ASSERT_EQ(cols.size(), 5u);
  EXPECT_EQ(cols[0].name, "time");
  EXPECT_EQ(cols[1].name, "hostname");
  EXPECT_EQ(cols[3].name, "u");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"2023-06-11T00:00:00Z", "host_1", "eu", "100", "0"}));
  EXPECT_EQ(rows[1][0], "2023-06-11T00:00:10Z");
}

TEST_F(QueryEngineTest, TimeBucketAggregateFastAndGeneralAgree) {
  const std::string where = "time >= '2023-06-11T00:00:00Z' AND time < '2023-06-11T00:10:00Z'";
  for (bool flushed : {false, true}) {
    if (flushed) Flush();
    Rows fast = Query("SELECT time_bucket('5 minutes', time) AS b, hostname, max(u), avg(v), count(*) "
                      "FROM cpu WHERE " + where + " GROUP BY b, hostname ORDER BY hostname, b");
    // `v >= 0` is always true but is not pushed down, forcing the general hash aggregate.
    Rows general = Query("SELECT time_bucket('5 minutes', time) AS b, hostname, max(u), avg(v), count(*) "
                         "FROM cpu WHERE " + where + " AND v >= 0 GROUP BY b, hostname ORDER BY hostname, b");
    ASSERT_EQ(fast.size(), 6u);
    EXPECT_EQ(fast, general);
    EXPECT_EQ(fast[0], (std::vector<std::string>{"2023-06-11T00:00:00Z", "host_0", "4", "14.5", "30"}));
    EXPECT_EQ(fast[5], (std::vector<std::string>{"2023-06-11T00:05:00Z", "host_2", "209", "44.5", "30"}));
  }
}

TEST_F(QueryEngineTest, BlockStatisticsAnswerWholeBuckets) {
  Flush();
  std::string text = Explain("ANALYZE SELECT date_trunc('hour', time), max(u) FROM cpu "
                              "GROUP BY date_trunc('hour', time)");
  EXPECT_NE(text.find("BucketAggregate"), std::string::npos) << text;
  EXPECT_NE(text.find("blocks answered from statistics: 3"), std::string::npos) << text;
  Rows rows = Query("SELECT date_trunc('hour', time), max(u) FROM cpu GROUP BY date_trunc('hour', time)");
  EXPECT_EQ(rows, (Rows{{"2023-06-11T00:00:00Z", "219"}}));
}

TEST_F(QueryEngineTest, HourSlicesAnswerHourlyBuckets) {
  // 2 hosts x 6 hours every 10 s: one row group per host spanning six hour slices.
  storage::WriteBatch batch("db");
  for (int i = 0; i < 6 * 360; ++i) {
    for (int h = 0; h < 2; ++h) {
      storage::TagSet tags{{"hostname", "long_" + std::to_string(h)}, {"region", "ap"}};
      AddRow(&batch, "mem", {tags, kT0 + i * 10 * kSec, {{"used", (i * 7 + h * 13) % 101}}});
    }
  }
  ASSERT_TRUE(engine_->Write(batch, {}).ok());
  Flush();
  const std::string range = "time >= '2023-06-11T00:30:00Z' AND time < '2023-06-11T05:00:00Z'";
  const std::string fast = "SELECT date_trunc('hour', time) AS h, hostname, max(used), avg(used), count(*) FROM mem "
                           "WHERE " + range + " GROUP BY h, hostname ORDER BY hostname, h";
  const std::string general = "SELECT date_trunc('hour', time) AS h, hostname, max(used), avg(used), count(*) FROM mem "
                              "WHERE " + range + " AND used >= 0 GROUP BY h, hostname ORDER BY hostname, h";
  Rows a = Query(fast);
  ASSERT_EQ(a.size(), 10u);
  EXPECT_EQ(a, Query(general));
  EXPECT_EQ(a[0][4], "180");  // 00:30..00:59:50 is decoded (half a slice)
  EXPECT_EQ(a[1][4], "360");  // whole hours come from slice statistics
  std::string text = Explain("ANALYZE " + fast);
  // Each host's group is decoded once (for the partial first hour), never whole.
  EXPECT_NE(text.find("blocks decoded: 2,"), std::string::npos) << text;
  // Minute buckets cannot use hour slices: same answers as the general path.
  EXPECT_EQ(Query("SELECT date_trunc('minute', time) AS m, max(used) FROM mem WHERE " + range +
                  " GROUP BY m ORDER BY m"),
            Query("SELECT date_trunc('minute', time) AS m, max(used) FROM mem WHERE " + range +
                  " AND used >= 0 GROUP BY m ORDER BY m"));
}

TEST_F(QueryEngineTest, LastPointUsesCache) {
  Rows rows = Query("SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2], (std::vector<std::string>{"2023-06-11T00:19:50Z", "host_2", "us", "219", "119"}));
  std::string text = Explain("SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC");
  EXPECT_NE(text.find("LastPoint"), std::string::npos) << text;
}

TEST_F(QueryEngineTest, NewestFirstLimit) {
  Flush();
  Rows rows = Query("SELECT time, hostname, v FROM cpu ORDER BY time DESC, hostname LIMIT 4");
  EXPECT_EQ(rows, (Rows{{"2023-06-11T00:19:50Z", "host_0", "119"},
                        {"2023-06-11T00:19:50Z", "host_1", "119"},
                        {"2023-06-11T00:19:50Z", "host_2", "119"},
                        {"2023-06-11T00:19:40Z", "host_0", "118"}}));
}

TEST_F(QueryEngineTest, GroupByAliasOrdinalHavingAndOrder) {
  Rows rows = Query("SELECT region AS r, count(*) AS n, sum(v) FROM cpu GROUP BY r HAVING count(*) > 150 "
                    "ORDER BY 1");
  EXPECT_EQ(rows, (Rows{{"eu", "240", "14280"}}));
  rows = Query("SELECT hostname, max(u) FROM cpu GROUP BY 1 ORDER BY max(u) DESC LIMIT 1");
  EXPECT_EQ(rows, (Rows{{"host_2", "219"}}));
  rows = Query("select date_trunc('minute', time) as minute, max(u) from cpu where time < '2023-06-11 00:03:00' "
               "group by minute order by minute desc limit 2");
  EXPECT_EQ(rows, (Rows{{"2023-06-11T00:02:00Z", "202"}, {"2023-06-11T00:01:00Z", "201"}}));
  // The TSBS groupby-orderby-limit shape, with gaps in the data the window must widen over.
  storage::WriteBatch b("db");
  AddRow(&b, "cpu", {storage::TagSet{{"hostname", "host_9"}, {"region", "eu"}}, kT0 + 7200 * kSec, {{"u", 999}}});
  ASSERT_TRUE(engine_->Write(b, {}).ok());
  rows = Query("SELECT max(u), date_trunc('minute', time) from cpu WHERE time < '2023-06-11T03:00:00Z' "
               "group by date_trunc('minute', time) order by date_trunc('minute', time) desc limit 3");
  EXPECT_EQ(rows, (Rows{{"999", "2023-06-11T02:00:00Z"}, {"219", "2023-06-11T00:19:00Z"},
                        {"218", "2023-06-11T00:18:00Z"}}));
}

TEST_F(QueryEngineTest, ExpressionsAndPredicates) {
  Rows rows = Query("SELECT hostname, v * 2 + 1, CASE WHEN v > 100 THEN 'hi' ELSE 'lo' END FROM cpu "
                    "WHERE hostname IN ('host_0') AND v BETWEEN 101 AND 102 ORDER BY v");
  EXPECT_EQ(rows, (Rows{{"host_0", "203", "hi"}, {"host_0", "205", "hi"}}));
  rows = Query("SELECT count(*) FROM cpu WHERE hostname LIKE 'host_%' AND NOT (u > 90.0)");
  EXPECT_EQ(rows, (Rows{{"120"}}));
  rows = Query("SELECT count(*) FROM cpu WHERE time > now() - INTERVAL '1 hour'");
  EXPECT_EQ(rows, (Rows{{"0"}}));
  rows = Query("SELECT 1 + 2 AS three");
  EXPECT_EQ(rows, (Rows{{"3"}}));
}

TEST_F(QueryEngineTest, SubqueryCteAndDistinct) {
  Rows rows = Query("WITH m AS (SELECT hostname, max(v) AS mv FROM cpu GROUP BY hostname) "
                    "SELECT count(*), max(mv) FROM m");
  EXPECT_EQ(rows, (Rows{{"3", "119"}}));
  rows = Query("SELECT DISTINCT region FROM cpu ORDER BY region");
  EXPECT_EQ(rows, (Rows{{"eu"}, {"us"}}));
  rows = Query("SELECT r FROM (SELECT region AS r FROM cpu WHERE v = 0) AS t ORDER BY r");
  EXPECT_EQ(rows, (Rows{{"eu"}, {"eu"}, {"us"}}));
}

TEST_F(QueryEngineTest, LastValuePerHostUsesCache) {
  // The greptime lastpoint shape.
  const std::string sql = "select last_value(hostname order by time), last_value(region order by time), "
                          "last_value(u order by time), last_value(time order by time) from cpu group by hostname";
  Rows rows = Query(sql + " order by 1");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2], (std::vector<std::string>{"host_2", "us", "219", "2023-06-11T00:19:50Z"}));
  // A newer row without u: last_value(u) still finds the previous value.
  storage::WriteBatch b("db");
  AddRow(&b, "cpu", {storage::TagSet{{"hostname", "host_2"}, {"region", "us"}}, kT0 + 3600 * kSec, {{"v", 7}}});
  ASSERT_TRUE(engine_->Write(b, {}).ok());
  rows = Query(sql + " order by 1");
  EXPECT_EQ(rows[2], (std::vector<std::string>{"host_2", "us", "219", "2023-06-11T01:00:00Z"}));
  std::string text = Explain(sql);
  EXPECT_NE(text.find("LastValueAggregate"), std::string::npos) << text;
}

TEST_F(QueryEngineTest, LastValueHandsTagsAsViewsToASinkThatTakesThem) {
  // A sink that reads strings through StrAt gets the registry's bytes, not copies; the answer is
  // the same either way.
  class ViewSink : public TextSink {
   public:
    bool AcceptsStringViews() const override { return true; }
    Status Chunk(const ResultChunk& chunk) override {
      for (const auto& col : chunk.columns) views += col.views ? 1 : 0;
      return TextSink::Chunk(chunk);
    }
    int views = 0;
  };
  const std::string sql = "select last_value(hostname order by time), last_value(region order by time), "
                          "last_value(u order by time) from cpu group by hostname";
  ViewSink sink;
  QueryOptions opts;
  opts.database = "db";
  ASSERT_TRUE(query_->Execute(sql, opts, &sink).ok());
  EXPECT_EQ(sink.views, 2);  // the two tag columns
  Rows copied = Query(sql);
  EXPECT_EQ(sink.rows, copied);
  ASSERT_EQ(copied.size(), 3u);
  // Not through an expression: a projection that computes (here a concatenation) gets copies.
  ViewSink computed;
  ASSERT_TRUE(query_->Execute("select concat(last_value(hostname order by time), '!') from cpu group by hostname",
                              opts, &computed).ok());
  EXPECT_EQ(computed.views, 0);
  EXPECT_EQ(computed.rows.size(), 3u);
}

TEST_F(QueryEngineTest, FirstLastAndLastValue) {
  Rows rows = Query("SELECT hostname, first(v), last(v), last_value(u ORDER BY time) FROM cpu "
                    "GROUP BY hostname ORDER BY hostname");
  EXPECT_EQ(rows[0], (std::vector<std::string>{"host_0", "0", "119", "19"}));
  rows = Query("SELECT last_value(hostname ORDER BY time) FROM cpu WHERE region = 'us'");
  EXPECT_EQ(rows, (Rows{{"host_2"}}));
}

TEST_F(QueryEngineTest, EmptyResultListsColumns) {
  std::vector<ResultColumn> cols;
  Rows rows = Query("SELECT hostname, u FROM cpu WHERE hostname = 'nope'", &cols);
  EXPECT_TRUE(rows.empty());
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[1].name, "u");
  rows = Query("SELECT max(u) FROM cpu WHERE hostname = 'nope'");
  EXPECT_EQ(rows, (Rows{{"NULL"}}));
}

TEST_F(QueryEngineTest, Errors) {
  EXPECT_TRUE(QueryStatus("SELECT * FORM cpu").IsInvalidArgument());
  Status s = QueryStatus("SELECT nope FROM cpu");
  EXPECT_NE(s.message().find("nope"), std::string::npos);
  EXPECT_TRUE(QueryStatus("SELECT * FROM missing").IsNotFound());
  s = QueryStatus("SELECT frobnicate(u) FROM cpu");
  EXPECT_NE(s.message().find("frobnicate"), std::string::npos);
  TextSink sink;
  QueryOptions opts;
  opts.database = "nodb";
  EXPECT_TRUE(query_->Execute("SELECT * FROM cpu", opts, &sink).IsNotFound());
}

TEST_F(QueryEngineTest, GuardRailsEndRunawayQueriesAndTheEngineGoesOn) {
  // 200,000 more rows: answers of many chunks, and aggregates of many groups.
  storage::WriteBatch batch("db");
  for (int h = 0; h < 50; ++h) {
    storage::TagSet tags{{"hostname", "big_" + std::to_string(h)}, {"region", "eu"}};
    for (int i = 0; i < 4000; ++i) {
      AddRow(&batch, "cpu", {tags, kT0 + 3600 * kSec + i * kSec, {{"u", (i * 7 + h) % 1000}, {"v", i}}});
    }
  }
  ASSERT_TRUE(engine_->Write(batch, {}).ok());
  auto run = [&](const std::string& sql, int64_t timeout_ms, int64_t memory_limit) {
    TextSink sink;
    QueryOptions opts;
    opts.database = "db";
    opts.timeout_ms = timeout_ms;
    opts.memory_limit_bytes = memory_limit;
    return query_->Execute(sql, opts, &sink);
  };
  // The time limit: a client that takes 5 ms per chunk outlasts a 1 ms budget before the second
  // chunk whatever the machine's speed (the limit is checked between chunks).
  class SlowSink : public TextSink {
   public:
    Status Chunk(const ResultChunk& chunk) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return TextSink::Chunk(chunk);
    }
  };
  SlowSink slow;
  QueryOptions slow_opts;
  slow_opts.database = "db";
  slow_opts.timeout_ms = 1;
  Status s = query_->Execute("SELECT * FROM cpu", slow_opts, &slow);
  EXPECT_EQ(s.code(), Status::Code::kTimeout) << s.ToString();
  EXPECT_NE(s.message().find("time limit"), std::string::npos) << s.ToString();
  const std::string heavy = "SELECT hostname, u, count(*), max(v) FROM cpu GROUP BY hostname, u ORDER BY 4 DESC, 1";
  s = run(heavy, -1, 64 << 10);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find("memory limit"), std::string::npos) << s.ToString();
  // So is a time-bucket aggregate with few tag groups and many buckets (per-thread hash tables).
  const std::string buckets = "SELECT time_bucket('1 second', time) AS b, region, count(*) FROM cpu GROUP BY b, region";
  ASSERT_NE(Explain(buckets).find("BucketAggregate"), std::string::npos);
  s = run(buckets, -1, 64 << 10);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  EXPECT_TRUE(run(buckets, -1, -1).ok());
  // A scan that materialises its answer (ORDER BY) is held to the memory limit too.
  s = run("SELECT * FROM cpu ORDER BY v DESC", -1, 64 << 10);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  // So is a join's build side, and a set operation's distinct rows.
  const std::string join = "SELECT count(*) FROM cpu a JOIN cpu b ON a.hostname = b.hostname AND a.time = b.time";
  s = run(join, -1, 64 << 10);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find("memory limit"), std::string::npos) << s.ToString();
  s = run("SELECT v, u FROM cpu UNION SELECT u, v FROM cpu", -1, 64 << 10);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  EXPECT_EQ(Query(join), (Rows{{std::to_string(200000 + 360)}}));
  // The engine goes on answering, with the defaults.
  EXPECT_TRUE(run(heavy, -1, -1).ok());
  EXPECT_EQ(Query("SELECT count(*) FROM cpu WHERE hostname = 'host_1'"), (Rows{{"120"}}));
}

TEST_F(QueryEngineTest, AResultPastMaxResultRowsEndsTheQuery) {
  auto run = [&](const std::string& sql, int64_t max_rows, TextSink* sink) {
    QueryOptions opts;
    opts.database = "db";
    opts.max_result_rows = max_rows;
    return query_->Execute(sql, opts, sink);
  };
  TextSink all;
  ASSERT_TRUE(run("SELECT * FROM cpu", 0, &all).ok());
  const int64_t rows = static_cast<int64_t>(all.rows.size());
  ASSERT_GT(rows, 10);
  TextSink at_limit;
  EXPECT_TRUE(run("SELECT * FROM cpu", rows, &at_limit).ok());
  EXPECT_EQ(static_cast<int64_t>(at_limit.rows.size()), rows);
  TextSink past;
  Status s = run("SELECT * FROM cpu", rows - 1, &past);
  EXPECT_EQ(s.code(), Status::Code::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find("max-result-rows"), std::string::npos) << s.ToString();
  EXPECT_LT(static_cast<int64_t>(past.rows.size()), rows);  // no chunk past the limit reached the sink
  // A LIMIT under it answers; so does an aggregate of many rows into a few.
  TextSink limited;
  EXPECT_TRUE(run("SELECT * FROM cpu LIMIT 5", 5, &limited).ok());
  TextSink count;
  EXPECT_TRUE(run("SELECT count(*) FROM cpu", 1, &count).ok());
  // The engine's default applies when the query names none.
  auto limited_engine = QueryEngine::Create(engine_.get(), QueryEngineOptions{.max_result_rows = 3});
  TextSink def;
  QueryOptions opts;
  opts.database = "db";
  EXPECT_EQ(limited_engine->Execute("SELECT * FROM cpu", opts, &def).code(), Status::Code::kResourceExhausted);
}

TEST_F(QueryEngineTest, ShowDescribeCreateDropDelete) {
  EXPECT_EQ(Query("SHOW DATABASES"), (Rows{{"db"}}));
  EXPECT_EQ(Query("SHOW TABLES"), (Rows{{"cpu"}}));
  Rows cols = Query("DESCRIBE cpu");
  ASSERT_EQ(cols.size(), 5u);
  EXPECT_EQ(cols[0], (std::vector<std::string>{"time", "timestamp", "TIMESTAMP"}));
  EXPECT_EQ(cols[3], (std::vector<std::string>{"u", "int64", "FIELD"}));
  Query("CREATE DATABASE other");
  EXPECT_FALSE(QueryStatus("CREATE DATABASE other").ok());
  Query("CREATE DATABASE IF NOT EXISTS other");
  Query("DROP DATABASE other");
  Query("DROP DATABASE IF EXISTS other");
  Query("DELETE FROM cpu WHERE hostname = 'host_0' AND time < '2023-06-11T00:10:00Z'");
  EXPECT_EQ(Query("SELECT count(*) FROM cpu WHERE hostname = 'host_0'"), (Rows{{"60"}}));
  EXPECT_FALSE(QueryStatus("DELETE FROM cpu WHERE v > 3").ok());
}

}  // namespace
}  // namespace gnomon::query
