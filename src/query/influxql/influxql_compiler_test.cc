#include "src/query/influxql/influxql_compiler.h"

#include <gtest/gtest.h>

#include "src/query/influxql/influxql_parser.h"
#include "src/query/parser/parser.h"

namespace gnomon::query::influxql {
namespace {

CompileContext Context() {
  CompileContext ctx;
  ctx.database = "db";
  ctx.now_ns = 1'686'441'600'000'000'000;  // 2023-06-11T00:00:00Z
  ctx.schema = [](const std::string&, const std::string& m) -> Result<std::optional<MeasurementSchema>> {
    if (m != "cpu" && m != "disk") return std::optional<MeasurementSchema>();
    MeasurementSchema s;
    s.tags = {"hostname", "region"};
    s.fields = {{"usage_user", ValueType::kFloat64}, {"usage_system", ValueType::kFloat64}, {"n", ValueType::kInt64}};
    return std::optional<MeasurementSchema>(std::move(s));
  };
  ctx.measurements = [](const std::string&) -> Result<std::vector<std::string>> {
    return std::vector<std::string>{"cpu", "disk", "mem"};
  };
  return ctx;
}

Result<std::vector<CompiledSelect>> Compile(std::string_view q) {
  auto st = ParseQuery(q);
  if (!st.ok()) return st.status();
  return CompileSelect(*(*st)[0].select, Context());
}

TEST(InfluxqlCompiler, GroupByTimeFillsBucketsOverTheRange) {
  auto c = Compile("SELECT max(usage_user), max(usage_system) FROM cpu WHERE hostname = 'host_1' AND time >= "
                   "'2023-06-11T08:00:00Z' AND time < '2023-06-11T16:00:00Z' GROUP BY time(1h)");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].measurement, "cpu");
  EXPECT_EQ((*c)[0].columns, (std::vector<std::string>{"time", "max", "max_1"}));
  EXPECT_TRUE((*c)[0].tag_keys.empty());
  EXPECT_EQ((*c)[0].sql,
            "SELECT date_bin_gapfill(INTERVAL '1 hour', time, TIMESTAMP '1970-01-01T00:00:00Z', "
            "TIMESTAMP '2023-06-11T08:00:00Z', TIMESTAMP '2023-06-11T16:00:00Z') AS time, "
            "max(usage_user) AS max, max(usage_system) AS max_1 FROM db.cpu WHERE (hostname = 'host_1' AND "
            "time >= TIMESTAMP '2023-06-11T08:00:00Z' AND time < TIMESTAMP '2023-06-11T16:00:00Z') GROUP BY 1 "
            "ORDER BY 1");
}

TEST(InfluxqlCompiler, AFieldWithoutAVariableIsRefusedAsInfluxDbDoes) {
  // Found by influxql_parser_fuzz: SELECT 3 compiled to SQL with an empty column name.
  for (const char* q : {"SELECT 3 FROM cpu", "SELECT 3, usage_user FROM cpu", "SELECT (1 + 2) FROM cpu"}) {
    auto c = Compile(q);
    ASSERT_FALSE(c.ok()) << q;
    EXPECT_EQ(c.status().message(), "field must contain at least one variable") << q;
  }
  EXPECT_TRUE(Compile("SELECT 3 + usage_user FROM cpu").ok());
  // Found by it too: GROUP BY "" compiled to a column with an empty name.
  auto empty_tag = Compile("SELECT * FROM cpu GROUP BY \"\" ORDER BY time DESC LIMIT 0");
  ASSERT_FALSE(empty_tag.ok());
  EXPECT_EQ(empty_tag.status().message(), "GROUP BY \"\": a tag key is never empty");
  // So does a field named "" (InfluxDB answers a column of nulls named "").
  auto empty_field = Compile("SELECT \"\", usage_user FROM cpu");
  ASSERT_FALSE(empty_field.ok());
  EXPECT_EQ(empty_field.status().message(), "\"\" names no field or tag: keys are never empty");
  EXPECT_FALSE(Compile("SELECT mean(\"\") FROM cpu").ok());
}

TEST(InfluxqlCompiler, LongOrChainsCompileToFlatSql) {
  // Grafana's multi-value variables: one OR term per selected host. Found by influxql_parser_fuzz:
  // each pair parenthesised nested past the SQL parser's limit of 100 levels.
  std::string q = "SELECT max(usage_user) FROM cpu WHERE (";
  for (int i = 0; i < 500; ++i) q += (i ? " OR " : "") + std::string("hostname = 'host_") + std::to_string(i) + "'";
  q += ") AND time >= '2023-06-11T00:00:00Z' AND time < '2023-06-11T01:00:00Z' AND usage_user > 1 GROUP BY time(1m)";
  auto c = Compile(q);
  ASSERT_TRUE(c.ok()) << c.status().message();
  const std::string& sql = (*c)[0].sql;
  auto parsed = ParseSql(sql);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_NE(sql.find("(((hostname = 'host_0' OR hostname = 'host_1' OR hostname = 'host_2' OR"), std::string::npos)
      << sql.substr(0, 300);
}

TEST(InfluxqlCompiler, SeriesPerTagAndLimitPerSeries) {
  auto c = Compile("SELECT * FROM cpu GROUP BY \"hostname\" ORDER BY time DESC LIMIT 1");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ((*c)[0].tag_keys, (std::vector<std::string>{"hostname"}));
  // Fields and the other tags, sorted by name; the grouping tag names the series instead.
  EXPECT_EQ((*c)[0].columns, (std::vector<std::string>{"time", "n", "region", "usage_system", "usage_user"}));
  EXPECT_EQ((*c)[0].sql.substr(0, 31), "SELECT DISTINCT ON (1) hostname");
  c = Compile("SELECT usage_user FROM cpu GROUP BY * LIMIT 2 OFFSET 1");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_NE((*c)[0].sql.find("row_number() OVER (PARTITION BY hostname, region ORDER BY time)"), std::string::npos);
  EXPECT_NE((*c)[0].sql.find("__rn > 1 AND __rn <= 3"), std::string::npos);
  // Only points that hold a selected field.
  EXPECT_NE((*c)[0].sql.find("(usage_user IS NOT NULL)"), std::string::npos);
}

TEST(InfluxqlCompiler, TagComparisonsFollowInfluxDb) {
  auto c = Compile("SELECT n FROM cpu WHERE region = '' AND hostname != 'a' AND hostname =~ /^h/ AND missing = 'x'");
  ASSERT_TRUE(c.ok()) << c.status().message();
  const std::string& sql = (*c)[0].sql;
  EXPECT_NE(sql.find("(region IS NULL OR region = '')"), std::string::npos) << sql;
  EXPECT_NE(sql.find("(hostname IS NULL OR hostname <> 'a')"), std::string::npos) << sql;
  EXPECT_NE(sql.find("regexp_like(coalesce(hostname, ''), '^h')"), std::string::npos) << sql;
  EXPECT_NE(sql.find("AND FALSE"), std::string::npos) << sql;  // an absent tag reads as '', never 'x'
}

TEST(InfluxqlCompiler, RegexSourcesAndWildcardCalls) {
  auto c = Compile("SELECT count(*) AS c FROM /^(cpu|disk)$/ WHERE time >= now() - 1h");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 2u);
  EXPECT_EQ((*c)[0].measurement, "cpu");
  EXPECT_EQ((*c)[1].measurement, "disk");
  EXPECT_EQ((*c)[0].columns, (std::vector<std::string>{"time", "c_n", "c_usage_system", "c_usage_user"}));
  // Aggregates without GROUP BY time() carry the range start.
  EXPECT_NE((*c)[0].sql.find("TIMESTAMP '2023-06-10T23:00:00Z' AS time"), std::string::npos) << (*c)[0].sql;
}

TEST(InfluxqlCompiler, LoneSelectorCarriesItsPointsTime) {
  auto c = Compile("SELECT max(usage_user) FROM cpu");
  ASSERT_TRUE(c.ok());
  EXPECT_NE((*c)[0].sql.find("arg_max(time, usage_user) AS time"), std::string::npos);
}

TEST(InfluxqlCompiler, SubqueriesTakeTheOuterGroupTagsAndTimeRange) {
  // As InfluxDB: the outer GROUP BY region reaches the subquery, whose rows then carry region,
  // and the outer WHERE time narrows the subquery's range instead of filtering its buckets.
  auto c = Compile("SELECT count(m) FROM (SELECT mean(usage_user) AS m FROM cpu GROUP BY time(10m)) "
                   "WHERE time > '2023-06-11T00:00:00Z' AND time < '2023-06-11T01:00:00Z' GROUP BY region");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ((*c)[0].tag_keys, (std::vector<std::string>{"region"}));
  const std::string& sql = (*c)[0].sql;
  EXPECT_NE(sql.find("FROM (SELECT region AS region, date_bin_gapfill(INTERVAL '10 minutes', time, "
                     "TIMESTAMP '1970-01-01T00:00:00Z', TIMESTAMP '2023-06-11T00:00:00.000000001Z', "
                     "TIMESTAMP '2023-06-11T01:00:00Z')"),
            std::string::npos) << sql;
  EXPECT_NE(sql.find("time >= TIMESTAMP '2023-06-11T00:00:00.000000001Z' AND time <= TIMESTAMP "
                     "'2023-06-11T00:59:59.999999999Z'"),
            std::string::npos) << sql;
  EXPECT_NE(sql.find(") AS __sub WHERE (TRUE AND TRUE)"), std::string::npos) << sql;
  // A tag the subquery selects and the outer query groups by leaves its value list.
  c = Compile("SELECT max(u) FROM (SELECT region, usage_user AS u FROM cpu) GROUP BY region");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_NE((*c)[0].sql.find("SELECT region AS region, time, usage_user AS u FROM db.cpu"), std::string::npos)
      << (*c)[0].sql;
}

TEST(InfluxqlCompiler, RefusesWhatInfluxDbRefuses) {
  EXPECT_EQ(Compile("SELECT max(n), usage_user FROM cpu").status().message(),
            "mixing aggregate and non-aggregate queries is not supported");
  EXPECT_EQ(Compile("SELECT n FROM cpu GROUP BY time(1m)").status().message(),
            "GROUP BY requires at least one aggregate function");
  auto tags_only = Compile("SELECT hostname FROM cpu");  // no points, as InfluxDB 1.6 answers
  ASSERT_TRUE(tags_only.ok());
  EXPECT_NE((*tags_only)[0].sql.find("WHERE FALSE"), std::string::npos);
  EXPECT_FALSE(Compile("SELECT bogus(n) FROM cpu").ok());
  auto none = Compile("SELECT n FROM nothing");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace gnomon::query::influxql
