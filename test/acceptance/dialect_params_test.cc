// The parameter reading and rewriting the acceptance test relies on, on statements shaped like
// TSBS's (no data needed).
#include "test/acceptance/dialect_params.h"

#include <gtest/gtest.h>

#include "test/acceptance/tsbs_query_file.h"

namespace gnomon::acceptance {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kDayStart = 1686441600LL * kSecond;  // 2023-06-11T00:00:00Z

const char* kGreptime =
    "SELECT max(usage_user), date_trunc('minute', greptime_timestamp) from cpu where (hostname = 'host_49' or "
    "hostname = 'host_3') and greptime_timestamp >= '2023-06-11T00:00:00Z' and greptime_timestamp < "
    "'2023-06-11T08:17:09Z' group by date_trunc('minute', greptime_timestamp)";
const char* kTimescale =
    "SELECT time_bucket('60 seconds', time) AS minute,\n        max(usage_user) as max_usage_user\n        FROM "
    "cpu\n        WHERE tags_id IN (SELECT id FROM tags WHERE hostname IN ('host_49','host_3')) AND time >= "
    "'2023-06-11 00:00:00.646325 +0000' AND time < '2023-06-11 08:17:09.487617 +0000'\n        GROUP BY minute "
    "ORDER BY minute ASC";

TEST(DialectParamsTest, ReadsBothDialects) {
  auto g = GreptimeParams(RewriteGreptime(kGreptime));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->hosts, (std::vector<std::string>{"host_3", "host_49"}));
  ASSERT_TRUE(g->lower && g->upper);
  EXPECT_EQ(g->lower->ns, kDayStart);
  EXPECT_EQ(g->lower->fraction, "");
  EXPECT_EQ(g->upper->ns, kDayStart + (8 * 3600 + 17 * 60 + 9) * kSecond);

  auto t = TimescaleParams(RewriteTimescale("single-groupby-1-8-1", kTimescale));
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->hosts, g->hosts);
  ASSERT_TRUE(t->lower && t->upper);
  EXPECT_EQ(t->lower->ns, kDayStart + 646325000);
  EXPECT_EQ(t->lower->fraction, "646325");
  EXPECT_EQ(t->upper->clock, "08:17:09");
}

TEST(DialectParamsTest, SameRowsUnlessABoundIsADataStep) {
  auto g = GreptimeParams(RewriteGreptime(kGreptime));
  auto t = TimescaleParams(RewriteTimescale("single-groupby-1-8-1", kTimescale));
  ASSERT_TRUE(g.ok() && t.ok());
  // Lower bounds 00:00:00 and 00:00:00.646325: the 00:00:00 step lies between them.
  EXPECT_EQ(g->lower->FirstStepAtOrAfter(), kDayStart);
  EXPECT_EQ(t->lower->FirstStepAtOrAfter(), kDayStart + 10 * kSecond);
  EXPECT_FALSE(SelectSameRows(*g, *t));
  // Upper bounds 08:17:09 and 08:17:09.487617 fall in the same gap (08:17:00, 08:17:10].
  QueryParams g2 = *g, t2 = *t;
  g2.lower.reset();
  t2.lower.reset();
  EXPECT_TRUE(SelectSameRows(g2, t2));
  t2.hosts.pop_back();
  EXPECT_FALSE(SelectSameRows(g2, t2));
}

TEST(DialectParamsTest, PutsParametersIntoTheOtherDialect) {
  const std::string gsql = RewriteGreptime(kGreptime);
  const std::string tsql = RewriteTimescale("single-groupby-1-8-1", kTimescale);
  auto g = GreptimeParams(gsql);
  auto t = TimescaleParams(tsql);
  ASSERT_TRUE(g.ok() && t.ok());
  QueryParams other = *t;
  other.hosts = {"host_7"};

  auto t_as_g = WithTimescaleParams(tsql, *g);
  ASSERT_TRUE(t_as_g.ok()) << t_as_g.status().ToString();
  EXPECT_NE(t_as_g->find("hostname IN ('host_3','host_49') AND time >= '2023-06-11 00:00:00 +0000' AND time < "
                         "'2023-06-11 08:17:09 +0000'"),
            std::string::npos)
      << *t_as_g;
  auto g_as_t = WithGreptimeParams(gsql, other);
  ASSERT_TRUE(g_as_t.ok()) << g_as_t.status().ToString();
  EXPECT_NE(g_as_t->find("where (hostname = 'host_7') and time >= '2023-06-11T00:00:00.646325Z' and time < "
                         "'2023-06-11T08:17:09.487617Z' group by"),
            std::string::npos)
      << *g_as_t;
  // Reading back what was written gives the same parameters.
  auto again = GreptimeParams(*g_as_t);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->hosts, other.hosts);
  EXPECT_EQ(again->lower->ns, other.lower->ns);
  EXPECT_EQ(again->upper->ns, other.upper->ns);
}

TEST(DialectParamsTest, RejectsParametersWithoutAPlace) {
  const std::string all_hosts =
      "SELECT * from cpu where usage_user > 90.0  and time >= '2023-06-11T07:47:52Z' and time < "
      "'2023-06-11T19:47:52Z'";
  auto p = GreptimeParams(all_hosts);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->hosts.empty());
  QueryParams with_hosts = *p;
  with_hosts.hosts = {"host_1"};
  EXPECT_FALSE(WithGreptimeParams(all_hosts, with_hosts).ok());
  QueryParams no_lower = *p;
  no_lower.lower.reset();
  EXPECT_FALSE(WithGreptimeParams(all_hosts, no_lower).ok());
  EXPECT_FALSE(GreptimeParams("SELECT 1 FROM cpu WHERE time >= '11 June 2023'").ok());
  EXPECT_FALSE(GreptimeParams("SELECT 1 FROM cpu WHERE time < '2023-06-11T00:00:00Z' AND time < "
                              "'2023-06-11T00:00:01Z'")
                   .ok());
}

}  // namespace
}  // namespace gnomon::acceptance
