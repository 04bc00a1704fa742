// The optimizer's rules: each fires on its shape however the query is written (directly, through
// a CTE, a subquery or SELECT *), leaves alone what it must not touch, and every rewritten plan
// answers exactly what the unoptimized shapes answer.
#include "src/query/optimizer/optimizer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/query/binder/select_binder.h"
#include "src/query/parser/parser.h"
#include "src/query/query_engine.h"
#include "src/query/query_test_util.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::query {
namespace {

using storage::testing::AddRow;
using storage::testing::TempDir;
using storage::testing::TestRow;
using Rows = std::vector<std::vector<std::string>>;

constexpr int64_t kT0 = 1686441600000000000LL;  // 2023-06-11T00:00:00Z
constexpr int64_t kSec = 1000000000LL;

struct Optimized {
  std::string plan;                // the logical plan after the rules
  std::vector<std::string> rules;  // those that fired
  bool Fired(const std::string& rule) const { return std::find(rules.begin(), rules.end(), rule) != rules.end(); }
};

class OptimizerTest : public ::testing::Test {
 protected:
  // Six hosts in two regions, a row every 10 s for ten minutes, u = host index * 100 + minute.
  void SetUp() override {
    engine_ = storage::testing::OpenTestEngine(dir_.path());
    ASSERT_NE(engine_, nullptr);
    query_ = QueryEngine::Create(engine_.get(), {});
    storage::WriteBatch batch("db");
    for (int h = 0; h < 6; ++h) {
      storage::TagSet tags = {{"hostname", "host_" + std::to_string(h)}, {"region", h % 2 ? "us" : "eu"}};
      for (int i = 0; i < 60; ++i) {
        TestRow row{tags, kT0 + i * 10 * kSec, {{"u", h * 100 + i / 6}}, {{"f", h + i * 0.5}}, {}};
        AddRow(&batch, "cpu", row);
      }
    }
    ASSERT_TRUE(engine_->Write(batch, {}).ok());
  }

  Optimized Optimize(const std::string& sql) {
    auto parsed = ParseSql(sql);
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    if (!parsed.ok()) return {};
    SelectBinderOptions options;
    options.database = "db";
    options.now_ns = kT0;
    SelectBinder binder(engine_.get(), options);
    auto plan = binder.Bind(*(*parsed)->As<SelectStatement>().node, **parsed);
    EXPECT_TRUE(plan.ok()) << sql << "\n" << plan.status().ToString();
    if (!plan.ok()) return {};
    Optimized out;
    query::Optimize(&*plan, &out.rules);
    out.plan = ExplainLogical(**plan);
    return out;
  }

  Rows Query(const std::string& sql) {
    testing::TextSink sink;
    QueryOptions opts;
    opts.database = "db";
    Status s = query_->Execute(sql, opts, &sink);
    EXPECT_TRUE(s.ok()) << sql << "\n" << s.ToString();
    return sink.rows;
  }

  TempDir dir_;
  std::unique_ptr<storage::Engine> engine_;
  std::unique_ptr<QueryEngine> query_;
};

TEST_F(OptimizerTest, FiltersReachTheTableThroughCtesSubqueriesAndSorts) {
  const std::string direct = "SELECT time, u FROM cpu WHERE hostname = 'host_2' AND time >= '2023-06-11T00:09:00Z' ORDER BY time";
  const std::vector<std::string> forms = {
      direct,
      "WITH t AS (SELECT * FROM cpu) SELECT time, u FROM t WHERE hostname = 'host_2' AND time >= '2023-06-11T00:09:00Z' ORDER BY time",
      "SELECT time, u FROM (SELECT time, hostname, u FROM cpu) AS s WHERE s.hostname = 'host_2' AND time >= '2023-06-11T00:09:00Z' ORDER BY time",
      "SELECT time, u FROM (SELECT * FROM (SELECT * FROM cpu WHERE time >= '2023-06-11T00:09:00Z') a) b WHERE hostname = 'host_2' ORDER BY time",
  };
  const Rows expected = Query(direct);
  ASSERT_EQ(expected.size(), 6u);
  EXPECT_EQ(expected[0][1], "209");
  for (const std::string& sql : forms) {
    Optimized o = Optimize(sql);
    EXPECT_TRUE(o.Fired("storage_pushdown")) << sql;
    EXPECT_NE(o.plan.find("pushed down: time in [2023-06-11T00:09:00Z, +inf], hostname in 1 values"), std::string::npos)
        << sql << "\n" << o.plan;
    EXPECT_EQ(o.plan.find("Filter"), std::string::npos) << o.plan;
    EXPECT_EQ(Query(sql), expected) << sql;
  }
}

TEST_F(OptimizerTest, AFilterStaysAboveALimit) {
  // The newest 3 rows (hosts 5, 4, 3 at the last timestamp), then those with u > 400: filtering
  // first would answer host_5 and host_4 at an earlier timestamp too.
  const std::string sql =
      "SELECT hostname, u FROM (SELECT time, hostname, u FROM cpu ORDER BY time DESC, hostname DESC LIMIT 3) s "
      "WHERE u > 400 ORDER BY hostname";
  Optimized o = Optimize(sql);
  EXPECT_NE(o.plan.find("Filter: u > 400"), std::string::npos) << o.plan;
  EXPECT_EQ(Query(sql), (Rows{{"host_4", "409"}, {"host_5", "509"}}));
}

TEST_F(OptimizerTest, ColumnsNothingReadsAreNotScanned) {
  Optimized o = Optimize("WITH t AS (SELECT * FROM cpu) SELECT max(f) FROM t WHERE u > 100");
  EXPECT_TRUE(o.Fired("prune_columns"));
  EXPECT_NE(o.plan.find("Get cpu [u, f], filter: u > 100"), std::string::npos) << o.plan;
  EXPECT_EQ(Query("WITH t AS (SELECT * FROM cpu) SELECT max(f) FROM t WHERE u > 100"), (Rows{{"34.5"}}));
}

TEST_F(OptimizerTest, BucketAggregateFiresForEveryFormOfTheQuery) {
  const std::vector<std::string> forms = {
      "SELECT time_bucket('1 minute', time) AS m, region, max(u), count(*) FROM cpu GROUP BY m, region ORDER BY m, region",
      "WITH t AS (SELECT * FROM cpu) SELECT time_bucket('1 minute', time) AS m, region, max(u), count(*) FROM t "
      "GROUP BY m, region ORDER BY m, region",
      "SELECT time_bucket('1 minute', time) AS m, region, max(u), count(*) FROM (SELECT time, region, u FROM cpu) x "
      "GROUP BY 1, 2 ORDER BY 1, 2",
  };
  // The same aggregate over a computed column defeats the rule: the general hash aggregate.
  const std::string general =
      "SELECT time_bucket('1 minute', time) AS m, region, max(u + 0), count(*) FROM cpu GROUP BY m, region ORDER BY m, region";
  EXPECT_FALSE(Optimize(general).Fired("bucket_aggregate"));
  const Rows expected = Query(general);
  ASSERT_EQ(expected.size(), 20u);
  for (const std::string& sql : forms) {
    Optimized o = Optimize(sql);
    EXPECT_TRUE(o.Fired("bucket_aggregate")) << sql << "\n" << o.plan;
    EXPECT_EQ(Query(sql), expected) << sql;
  }
}

TEST_F(OptimizerTest, NewestBucketsAndTopNTakeTheLimit) {
  const std::string sql =
      "SELECT time_bucket('1 minute', time) AS m, max(u) FROM cpu WHERE hostname = 'host_1' GROUP BY m ORDER BY m DESC LIMIT 2";
  Optimized o = Optimize(sql);
  EXPECT_TRUE(o.Fired("newest_buckets"));
  EXPECT_NE(o.plan.find("newest 2 buckets"), std::string::npos) << o.plan;
  EXPECT_NE(o.plan.find("TopN 2"), std::string::npos) << o.plan;
  EXPECT_EQ(Query(sql), (Rows{{"2023-06-11T00:09:00Z", "109"}, {"2023-06-11T00:08:00Z", "108"}}));
}

TEST_F(OptimizerTest, TimeOrderedScanThroughASubqueryAndPastAFieldFilter) {
  const std::string direct = "SELECT time, hostname FROM cpu ORDER BY time DESC, hostname LIMIT 2";
  const std::string nested = "SELECT * FROM (SELECT time, hostname FROM cpu) s ORDER BY time DESC, hostname LIMIT 2";
  for (const std::string& sql : {direct, nested}) {
    Optimized o = Optimize(sql);
    EXPECT_TRUE(o.Fired("time_ordered_scan")) << sql;
    EXPECT_EQ(Query(sql), (Rows{{"2023-06-11T00:09:50Z", "host_0"}, {"2023-06-11T00:09:50Z", "host_1"}}));
  }
  EXPECT_NE(Optimize(direct).plan.find("newest 2 rows per series"), std::string::npos) << Optimize(direct).plan;
  // A field filter: each series stops at its newest (oldest) rows that pass it.
  const std::string filtered = "SELECT time, u FROM cpu WHERE u < 5 ORDER BY time DESC LIMIT 1";
  EXPECT_TRUE(Optimize(filtered).Fired("time_ordered_scan"));
  EXPECT_EQ(Query(filtered), (Rows{{"2023-06-11T00:04:50Z", "4"}}));
  const std::string oldest = "SELECT time, u FROM cpu WHERE u >= 105 ORDER BY time, u LIMIT 2";
  EXPECT_NE(Optimize(oldest).plan.find("oldest 2 rows per series"), std::string::npos) << Optimize(oldest).plan;
  EXPECT_EQ(Query(oldest), (Rows{{"2023-06-11T00:00:00Z", "200"}, {"2023-06-11T00:00:00Z", "300"}}));
  // A filter on a tag runs above the scan: the scan cannot count what passes it.
  EXPECT_FALSE(Optimize("SELECT time, u FROM cpu WHERE u < 5 OR hostname = 'host_3' ORDER BY time DESC LIMIT 1")
                   .Fired("time_ordered_scan"));
}

TEST_F(OptimizerTest, LastPointAndLastValuesFromTheCache) {
  const std::string last_point = "SELECT DISTINCT ON (hostname) hostname, time, u FROM cpu ORDER BY hostname, time DESC";
  const std::string nested =
      "SELECT DISTINCT ON (hostname) hostname, time, u FROM (SELECT * FROM cpu) c ORDER BY hostname, time DESC";
  const Rows expected = Query(last_point + " LIMIT 1");
  EXPECT_EQ(expected, (Rows{{"host_0", "2023-06-11T00:09:50Z", "9"}}));
  for (const std::string& sql : {last_point, nested}) {
    Optimized o = Optimize(sql);
    EXPECT_TRUE(o.Fired("last_point_from_cache")) << sql << "\n" << o.plan;
    EXPECT_EQ(Query(sql).size(), 6u);
  }
  // With a time bound the cache cannot answer: the scan does.
  EXPECT_FALSE(Optimize("SELECT DISTINCT ON (hostname) hostname, time, u FROM cpu "
                        "WHERE time < '2023-06-11T00:05:00Z' ORDER BY hostname, time DESC")
                   .Fired("last_point_from_cache"));

  // Every host's newest u is host * 100 + 9 (all hosts share timestamps, so group by host: a
  // region's last() would be a tie).
  const std::string last_values = "SELECT hostname, last(u) FROM cpu GROUP BY hostname ORDER BY hostname";
  Optimized lv = Optimize(last_values);
  EXPECT_TRUE(lv.Fired("last_value_cache")) << lv.plan;
  Rows expected_last;
  for (int h = 0; h < 6; ++h) expected_last.push_back({"host_" + std::to_string(h), std::to_string(h * 100 + 9)});
  EXPECT_EQ(Query(last_values), expected_last);
}

// tag IS NOT NULL becomes a series set, so the newest-row-per-series shape still comes from the
// cache; every series here has the tag.
TEST_F(OptimizerTest, TagPresenceIsASeriesSet) {
  const std::string sql =
      "SELECT DISTINCT ON (hostname) hostname, time, u FROM cpu WHERE region IS NOT NULL ORDER BY hostname, time DESC";
  Optimized o = Optimize(sql);
  EXPECT_NE(o.plan.find("region IS NOT NULL"), std::string::npos) << o.plan;
  EXPECT_TRUE(o.Fired("last_point_from_cache")) << o.plan;
  EXPECT_EQ(Query(sql).size(), 6u);
  EXPECT_TRUE(Query("SELECT hostname FROM cpu WHERE region IS NULL").empty());
}

// WHERE over an inner join: one-sided predicates reach each side's Get (and storage), the
// predicate over both becomes the join's condition; only the columns read are scanned.
TEST_F(OptimizerTest, JoinFiltersReachEachSide) {
  Optimized o = Optimize("SELECT a.u, b.f FROM cpu a, cpu b WHERE a.hostname = b.hostname AND a.time = b.time "
                         "AND a.hostname = 'host_1' AND b.u > 150");
  EXPECT_TRUE(o.Fired("filter_pushdown"));
  EXPECT_NE(o.plan.find("Join Inner: a.hostname = b.hostname AND a.time = b.time"), std::string::npos)
      << o.plan;
  EXPECT_NE(o.plan.find("hostname in 1 values"), std::string::npos) << o.plan;
  EXPECT_NE(o.plan.find("filter: b.u > 150"), std::string::npos) << o.plan;
  EXPECT_EQ(o.plan.find("Filter:"), std::string::npos) << o.plan;  // nothing left above the join
  EXPECT_EQ(Query("SELECT count(*) FROM cpu a, cpu b WHERE a.hostname = b.hostname AND a.time = b.time "
                  "AND a.hostname = 'host_1' AND b.u > 105"),
            (Rows{{"24"}}));
}

// Over a LEFT JOIN a predicate on the right side stays above (it drops the unmatched rows), and
// one in ON on the left side stays in the join (it only decides matches).
TEST_F(OptimizerTest, OuterJoinsKeepTheirPreservedSide) {
  Optimized o = Optimize("SELECT a.u FROM cpu a LEFT JOIN cpu b ON a.hostname = b.hostname AND a.u > 100 "
                         "AND b.u > 300 WHERE b.f IS NULL AND a.region = 'eu'");
  EXPECT_NE(o.plan.find("Filter: b.f IS NULL"), std::string::npos) << o.plan;
  EXPECT_NE(o.plan.find("Join Left: a.hostname = b.hostname AND a.u > 100"), std::string::npos) << o.plan;
  EXPECT_NE(o.plan.find("filter: b.u > 300"), std::string::npos) << o.plan;
  EXPECT_NE(o.plan.find("region in 1 values"), std::string::npos) << o.plan;
}

// A long uncorrelated IN list is a hash semi join against the subquery's rows (a short one a
// constant list, which storage can take); NOT IN is its null-aware anti join.
TEST_F(OptimizerTest, LongInListsBecomeSemiJoins) {
  const std::string in = "SELECT count(*) FROM cpu WHERE u IN (SELECT a.u + b.u FROM cpu a CROSS JOIN cpu b)";
  Rows plan = Query("EXPLAIN " + in);
  std::string text;
  for (const auto& r : plan) text += r[0] + "\n";
  EXPECT_NE(text.find("Join Semi"), std::string::npos) << text;
  EXPECT_NE(text.find("Subquery result (129600 rows)"), std::string::npos) << text;
  EXPECT_EQ(Query(in), (Rows{{"360"}}));
  EXPECT_EQ(Query("SELECT count(*) FROM cpu WHERE u NOT IN (SELECT a.u + b.u FROM cpu a CROSS JOIN cpu b)"),
            (Rows{{"0"}}));
  EXPECT_EQ(Query("SELECT count(*) FROM cpu WHERE u NOT IN (SELECT a.u + b.u + 1 FROM cpu a CROSS JOIN cpu b "
                  "WHERE a.hostname = 'host_5')"),
            (Rows{{"306"}}));  // host_5's rows but u = 500 (six of them) are sums + 1
  text.clear();
  for (const auto& r : Query("EXPLAIN SELECT u FROM cpu WHERE hostname IN (SELECT hostname FROM cpu WHERE u > 500)")) {
    text += r[0] + "\n";
  }
  EXPECT_NE(text.find("hostname in 1 values"), std::string::npos) << text;
}

// Gap filling sits over the aggregate, which storage statistics still answer.
TEST_F(OptimizerTest, GapFillKeepsTheBucketAggregate) {
  const std::string sql =
      "SELECT date_bin_gapfill(INTERVAL '1 minute', time) AS m, hostname, locf(max(u)) AS u FROM cpu "
      "WHERE time >= '2023-06-11T00:00:00Z' AND time < '2023-06-11T00:12:00Z' GROUP BY 1, 2 ORDER BY hostname, m";
  Optimized o = Optimize(sql);
  EXPECT_TRUE(o.Fired("bucket_aggregate")) << o.plan;
  EXPECT_NE(o.plan.find("GapFill: date_bin_gapfill"), std::string::npos) << o.plan;
  Rows rows = Query(sql);
  ASSERT_EQ(rows.size(), 6u * 12);
  EXPECT_EQ(rows[11], (std::vector<std::string>{"2023-06-11T00:11:00Z", "host_0", "9"}));  // carried from minute 9
  EXPECT_EQ(rows[12 + 10], (std::vector<std::string>{"2023-06-11T00:10:00Z", "host_1", "109"}));
}

// A sort by the gap fill's groups and then its bucket is the gap fill's own order, in whatever
// direction the groups are asked for; by the bucket first it is not, and the sort stays.
TEST_F(OptimizerTest, GapFillOrderTakesTheSortsPlace) {
  const std::string head =
      "SELECT date_bin_gapfill(INTERVAL '1 minute', time) AS m, hostname, max(u) AS u FROM cpu "
      "WHERE time >= '2023-06-11T00:00:00Z' AND time < '2023-06-11T00:12:00Z' AND hostname <> 'host_5' GROUP BY 1, 2 ";
  Optimized o = Optimize(head + "ORDER BY hostname DESC, m");
  EXPECT_TRUE(o.Fired("gap_fill_order")) << o.plan;
  EXPECT_EQ(o.plan.find("Sort"), std::string::npos) << o.plan;
  Rows rows = Query(head + "ORDER BY hostname DESC, m");
  ASSERT_EQ(rows.size(), 5u * 12);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"2023-06-11T00:00:00Z", "host_4", "400"}));
  EXPECT_EQ(rows[11], (std::vector<std::string>{"2023-06-11T00:11:00Z", "host_4", "NULL"}));
  EXPECT_EQ(rows[59], (std::vector<std::string>{"2023-06-11T00:11:00Z", "host_0", "NULL"}));

  Optimized by_bucket = Optimize(head + "ORDER BY m, hostname");
  EXPECT_FALSE(by_bucket.Fired("gap_fill_order")) << by_bucket.plan;
  rows = Query(head + "ORDER BY m, hostname");
  ASSERT_EQ(rows.size(), 5u * 12);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"2023-06-11T00:00:00Z", "host_1", "100"}));
  // Descending buckets are not the gap fill's order either.
  EXPECT_FALSE(Optimize(head + "ORDER BY hostname, m DESC").Fired("gap_fill_order"));
}

// A subquery's ORDER BY under an aggregate that ignores order is dropped, and the answer is the
// same; under first() (ties by arrival) or with a LIMIT it stays.
TEST_F(OptimizerTest, SortUnderAnOrderInsensitiveAggregateGoes) {
  const std::string avg =
      "SELECT region, avg(u) AS a, count(*) AS n, max(f) AS m FROM (SELECT region, hostname, time, u, f FROM cpu "
      "ORDER BY region, hostname, time) GROUP BY region ORDER BY region";
  Optimized o = Optimize(avg);
  EXPECT_TRUE(o.Fired("sort_under_aggregate")) << o.plan;
  EXPECT_EQ(Query(avg), (Rows{{"eu", "204.5", "180", "33.5"}, {"us", "304.5", "180", "34.5"}}));
  EXPECT_FALSE(Optimize("SELECT region, first(u) FROM (SELECT region, time, u FROM cpu ORDER BY region, time) "
                        "GROUP BY region")
                   .Fired("sort_under_aggregate"));
  EXPECT_FALSE(Optimize("SELECT avg(u) FROM (SELECT u FROM cpu ORDER BY u LIMIT 10)").Fired("sort_under_aggregate"));
}

// DISTINCT ON (tags) ... ORDER BY tags, time [DESC] with a field filter reads each series only up
// to its first passing row in that order (InfluxQL's GROUP BY tags ORDER BY time LIMIT 1); the
// passing rows lie past the scan's first slices of a series. A filter on a tag leaves it alone.
TEST_F(OptimizerTest, OneRowPerSeriesStopsAtTheFirstPassingRow) {
  storage::WriteBatch batch("db");
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 1000; ++i) {
      AddRow(&batch, "mem", TestRow{{{"host", "h" + std::to_string(h)}}, kT0 + i * kSec, {{"u", h * 10000 + i}}, {}, {}});
    }
  }
  ASSERT_TRUE(engine_->Write(batch, {}).ok());
  const std::string oldest =
      "SELECT DISTINCT ON (host) host, time, u FROM mem WHERE u % 10000 >= 700 ORDER BY host, time";
  Optimized o = Optimize(oldest);
  EXPECT_TRUE(o.Fired("one_row_per_series")) << o.plan;
  EXPECT_EQ(Query(oldest), (Rows{{"h0", "2023-06-11T00:11:40Z", "700"}, {"h1", "2023-06-11T00:11:40Z", "10700"}}));
  const std::string newest =
      "SELECT DISTINCT ON (host) host, time, u FROM mem WHERE u % 10000 < 300 ORDER BY host, time DESC";
  EXPECT_TRUE(Optimize(newest).Fired("one_row_per_series"));
  EXPECT_EQ(Query(newest), (Rows{{"h0", "2023-06-11T00:04:59Z", "299"}, {"h1", "2023-06-11T00:04:59Z", "10299"}}));
  const std::string by_tag =
      "SELECT DISTINCT ON (host) host, time, u FROM mem WHERE u > 5 OR host = 'h1' ORDER BY host, time";
  EXPECT_FALSE(Optimize(by_tag).Fired("one_row_per_series"));
  EXPECT_EQ(Query(by_tag), (Rows{{"h0", "2023-06-11T00:00:06Z", "6"}, {"h1", "2023-06-11T00:00:00Z", "10000"}}));
}

// Constant subexpressions are computed once; one that cannot be (1 / 0) fails only if it runs.
TEST_F(OptimizerTest, ConstantsFoldOnce) {
  Optimized o = Optimize("SELECT u FROM cpu WHERE u > 2 * 250 AND time > '2023-06-11T00:09:00Z'::timestamp - INTERVAL '30 seconds'");
  EXPECT_TRUE(o.Fired("constant_folding"));
  EXPECT_NE(o.plan.find("time in [2023-06-11T00:08:30.000000001Z"), std::string::npos) << o.plan;
  EXPECT_EQ(Query("SELECT count(*) FROM cpu WHERE u > 2 * 250 AND time > '2023-06-11T00:09:00Z'::timestamp - "
                  "INTERVAL '30 seconds'"),
            (Rows{{"8"}}));
  // 1 / 0 stays as it is through the rules and fails as it runs.
  EXPECT_FALSE(Optimize("SELECT u FROM cpu WHERE u > 1 / 0").Fired("constant_folding"));
}

// A join of two inputs sorted by the key merges them; the same join unsorted hashes.
TEST_F(OptimizerTest, SortedInputsMergeJoin) {
  const std::string sorted =
      "SELECT count(*) FROM (SELECT time, u FROM cpu WHERE hostname = 'host_1' ORDER BY time) a "
      "JOIN (SELECT time, f FROM cpu WHERE hostname = 'host_2' ORDER BY time) b ON a.time = b.time";
  std::string text;
  for (const auto& r : Query("EXPLAIN " + sorted)) text += r[0] + "\n";
  EXPECT_NE(text.find("MergeJoin Inner"), std::string::npos) << text;
  EXPECT_EQ(Query(sorted), (Rows{{"60"}}));
  text.clear();
  for (const auto& r : Query("EXPLAIN SELECT count(*) FROM cpu a JOIN cpu b ON a.time = b.time")) text += r[0] + "\n";
  EXPECT_NE(text.find("HashJoin Inner"), std::string::npos) << text;
  EXPECT_EQ(Query("SELECT count(*) FROM cpu a JOIN cpu b ON a.time = b.time"), (Rows{{std::to_string(60 * 36)}}));
}

TEST_F(OptimizerTest, TheRuleListIsNamedAndOrdered) {
  std::vector<std::string> names;
  for (const OptimizerRule& r : OptimizerRules()) names.push_back(r.name);
  ASSERT_GE(names.size(), 10u);
  EXPECT_EQ(names.front(), "constant_folding");
  EXPECT_EQ(names.back(), "top_n");
  // Without a FROM only constants fold.
  EXPECT_EQ(Optimize("SELECT 1 + 1").rules, (std::vector<std::string>{"constant_folding"}));
  EXPECT_TRUE(Optimize("SELECT 1").rules.empty());
}

}  // namespace
}  // namespace gnomon::query
