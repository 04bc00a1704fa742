#include "src/query/influxql/influxql_parser.h"

#include <gtest/gtest.h>

namespace gnomon::query::influxql {
namespace {

Statement ParseOne(std::string_view q) {
  auto r = ParseQuery(q);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok() || r->size() != 1) return Statement{};
  return std::move((*r)[0]);
}

TEST(InfluxqlParser, SelectClauses) {
  Statement st = ParseOne(
      "SELECT max(usage_user) AS m, \"usage system\"::field FROM \"db\".\"rp\".cpu WHERE host = 'a' AND time >= "
      "'2023-06-11T00:00:00Z' GROUP BY time(1h, 5m), host, /^re/ fill(-1.5) ORDER BY time DESC LIMIT 5 OFFSET 2 "
      "SLIMIT 3 SOFFSET 1 tz('UTC')");
  ASSERT_EQ(st.kind, Statement::Kind::kSelect);
  const SelectStatement& s = *st.select;
  ASSERT_EQ(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[0].expr->ToString(), "max(usage_user)");
  EXPECT_EQ(s.fields[0].alias, "m");
  EXPECT_EQ(s.fields[1].expr->ToString(), "usage system::field");
  ASSERT_EQ(s.sources.size(), 1u);
  EXPECT_EQ(s.sources[0].database, "db");
  EXPECT_EQ(s.sources[0].retention_policy, "rp");
  EXPECT_EQ(s.sources[0].measurement, "cpu");
  EXPECT_EQ(s.condition->ToString(), "host = 'a' AND time >= '2023-06-11T00:00:00Z'");
  ASSERT_EQ(s.dimensions.size(), 3u);
  EXPECT_EQ(s.dimensions[0].kind, Dimension::Kind::kTime);
  EXPECT_EQ(s.dimensions[0].interval, 3'600'000'000'000);
  EXPECT_EQ(s.dimensions[0].offset, 300'000'000'000);
  EXPECT_EQ(s.dimensions[2].kind, Dimension::Kind::kRegex);
  EXPECT_EQ(s.fill, FillMode::kValue);
  EXPECT_EQ(s.fill_value->number_value, -1.5);
  EXPECT_TRUE(s.order_desc);
  EXPECT_EQ(s.limit, 5);
  EXPECT_EQ(s.offset, 2);
  EXPECT_EQ(s.slimit, 3);
  EXPECT_EQ(s.soffset, 1);
  EXPECT_EQ(s.tz, "UTC");
}

TEST(InfluxqlParser, PrecedenceAndRegex) {
  Statement st = ParseOne("SELECT a + b * 2 FROM m WHERE host =~ /web\\/[0-9]+/ OR x > 1 AND y < 2");
  const SelectStatement& s = *st.select;
  const Expr& add = *s.fields[0].expr;
  ASSERT_EQ(add.kind, Expr::Kind::kBinary);
  EXPECT_EQ(add.text, "+");
  EXPECT_EQ(add.args[1]->text, "*");
  const Expr& cond = *s.condition;
  EXPECT_EQ(cond.text, "OR");
  EXPECT_EQ(cond.args[0]->args[1]->kind, Expr::Kind::kRegex);
  EXPECT_EQ(cond.args[0]->args[1]->text, "web/[0-9]+");
  EXPECT_EQ(cond.args[1]->text, "AND");
}

TEST(InfluxqlParser, Subqueries) {
  Statement st = ParseOne(
      "SELECT count(\"mv\")/6 AS \"hours driven\" FROM (SELECT mean(\"velocity\") AS \"mv\" FROM \"readings\" "
      "GROUP BY time(10m),\"fleet\") GROUP BY time(1d)");
  const SelectStatement& s = *st.select;
  EXPECT_EQ(s.fields[0].alias, "hours driven");
  ASSERT_TRUE(s.sources[0].subquery != nullptr);
  EXPECT_EQ(s.sources[0].subquery->fields[0].alias, "mv");
  EXPECT_EQ(s.sources[0].subquery->dimensions.size(), 2u);
}

TEST(InfluxqlParser, SeveralStatementsAndTheirText) {
  auto r = ParseQuery("CREATE DATABASE \"b\" WITH DURATION 7d; SHOW DATABASES ;SHOW MEASUREMENTS ON b WITH MEASUREMENT =~ /c.*/");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind, Statement::Kind::kCreateDatabase);
  EXPECT_EQ((*r)[0].database, "b");
  EXPECT_EQ((*r)[0].duration_ns, 7 * 86'400'000'000'000);
  EXPECT_EQ((*r)[0].text, "CREATE DATABASE \"b\" WITH DURATION 7d");
  EXPECT_EQ((*r)[1].kind, Statement::Kind::kShowDatabases);
  EXPECT_EQ((*r)[2].with_op, "=~");
  EXPECT_EQ((*r)[2].with_values[0], "c.*");
}

TEST(InfluxqlParser, MetaQueries) {
  Statement st = ParseOne("SHOW TAG VALUES FROM cpu WITH KEY IN (\"host\", region) WHERE region != 'x' LIMIT 3");
  EXPECT_EQ(st.kind, Statement::Kind::kShowTagValues);
  EXPECT_EQ(st.with_op, "IN");
  EXPECT_EQ(st.with_values, (std::vector<std::string>{"host", "region"}));
  EXPECT_EQ(st.limit, 3);
  EXPECT_EQ(ParseOne("SHOW SERIES CARDINALITY ON db").kind, Statement::Kind::kShowSeriesCardinality);
  EXPECT_EQ(ParseOne("show field keys from cpu").kind, Statement::Kind::kShowFieldKeys);
  Statement rp = ParseOne("ALTER RETENTION POLICY autogen ON db DURATION 30d SHARD DURATION 1d DEFAULT");
  EXPECT_EQ(rp.kind, Statement::Kind::kAlterRetentionPolicy);
  EXPECT_EQ(rp.duration_ns, 30 * 86'400'000'000'000);
  EXPECT_TRUE(rp.make_default);
  EXPECT_EQ(ParseOne("DELETE FROM cpu WHERE time < '2020-01-01T00:00:00Z'").kind, Statement::Kind::kDelete);
}

TEST(InfluxqlParser, ErrorsInInfluxDbWords) {
  auto r = ParseQuery("SELECT FROM cpu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "found FROM, expected identifier, string, number, bool at line 1, char 8");
  r = ParseQuery("CREATE DATABASE");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "found EOF, expected identifier at line 1, char 16");
  EXPECT_FALSE(ParseQuery("SELECT a FROM m WHERE x = 'unterminated").ok());
  EXPECT_FALSE(ParseQuery("SELECT a FROM m GROUP BY time(0s)").ok());
  EXPECT_FALSE(ParseQuery(std::string(5000, '(')).ok());  // nesting is bounded, not a stack overflow
  EXPECT_FALSE(ParseQuery("").ok());
}

TEST(InfluxqlParser, MeasurementBackreferenceOnlyInInto) {
  Statement st = ParseOne("SELECT v INTO db..:measurement FROM cpu, mem");
  ASSERT_TRUE(st.select && st.select->into);
  EXPECT_TRUE(st.select->into->measurement_backref);
  EXPECT_EQ(st.select->into->database, "db");
  Statement quoted = ParseOne("SELECT v INTO db..\":MEASUREMENT\" FROM cpu");  // a name, not the backreference
  ASSERT_TRUE(quoted.select && quoted.select->into);
  EXPECT_FALSE(quoted.select->into->measurement_backref);
  auto from = ParseQuery("SELECT v FROM :MEASUREMENT");
  ASSERT_FALSE(from.ok());
  EXPECT_EQ(from.status().message(), ":MEASUREMENT names a measurement only in INTO");
}

}  // namespace
}  // namespace gnomon::query::influxql
