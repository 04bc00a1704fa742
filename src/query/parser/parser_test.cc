// Grammar tests: each construct parses, and ToString renders the expected normalised SQL, which
// parses back to itself.
#include "src/query/parser/parser.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::query {
namespace {

// Parses `sql`, checks that the normalised text is a fixed point, and returns it.
std::string Normalize(const std::string& sql) {
  auto statement = ParseSql(sql);
  if (!statement.ok()) return "ERROR: " + statement.status().message();
  std::string text = (*statement)->ToString();
  auto again = ParseSql(text);
  EXPECT_TRUE(again.ok()) << text << "\n" << again.status().ToString();
  if (again.ok()) {
    EXPECT_EQ((*again)->ToString(), text);
  }
  return text;
}

std::unique_ptr<Statement> MustParse(const std::string& sql) {
  auto statement = ParseSql(sql);
  EXPECT_TRUE(statement.ok()) << statement.status().ToString();
  return statement.ok() ? std::move(*statement) : nullptr;
}

const SelectNode& Select(const Statement& s) { return *s.As<SelectStatement>().node; }

TEST(ParserTest, SelectListAliasesAndStars) {
  EXPECT_EQ(Normalize("select a, b as x, c y, \"Mixed Case\" from cpu"),
            "SELECT a, b AS x, c AS y, \"Mixed Case\" FROM cpu");
  EXPECT_EQ(Normalize("SELECT * FROM cpu"), "SELECT * FROM cpu");
  EXPECT_EQ(Normalize("SELECT t.*, T.Hostname FROM cpu t"), "SELECT t.*, t.hostname FROM cpu AS t");
  EXPECT_EQ(Normalize("SELECT a AS \"hours driven\", b AS day FROM x"),
            "SELECT a AS \"hours driven\", b AS day FROM x");
  EXPECT_EQ(Normalize("SELECT \"select\" FROM \"from\""), "SELECT \"select\" FROM \"from\"");
  EXPECT_EQ(Normalize("SELECT `a` FROM `cpu`"), "SELECT a FROM cpu");
  EXPECT_EQ(Normalize("SELECT 1"), "SELECT 1");
}

TEST(ParserTest, IdentifiersFoldUnquotedToLowerCase) {
  auto s = MustParse("SELECT UsAgE_User, \"UsAgE_User\" FROM CPU");
  const SelectNode& node = Select(*s);
  EXPECT_EQ(node.select_list[0]->As<ColumnRefExpression>().column_name(), "usage_user");
  EXPECT_EQ(node.select_list[1]->As<ColumnRefExpression>().column_name(), "UsAgE_User");
  EXPECT_EQ(node.from->As<BaseTableRef>().table_name, "cpu");
}

TEST(ParserTest, WhereOperators) {
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE a = 1 AND b != 2 AND c <> 3 OR NOT d < 4"),
            "SELECT * FROM t WHERE a = 1 AND b <> 2 AND c <> 3 OR NOT d < 4");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE a <= 1 AND b >= 2 AND c > 3"),
            "SELECT * FROM t WHERE a <= 1 AND b >= 2 AND c > 3");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE (a = 1 OR b = 2) AND c = 3"),
            "SELECT * FROM t WHERE (a = 1 OR b = 2) AND c = 3");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE h IN ('a', 'b') AND g NOT IN (1,2)"),
            "SELECT * FROM t WHERE h IN ('a', 'b') AND g NOT IN (1, 2)");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE x BETWEEN 1 AND 2 AND y NOT BETWEEN 3 AND 4"),
            "SELECT * FROM t WHERE x BETWEEN 1 AND 2 AND y NOT BETWEEN 3 AND 4");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE x is null or y IS NOT NULL"),
            "SELECT * FROM t WHERE x IS NULL OR y IS NOT NULL");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE s LIKE 'host_%' AND s NOT LIKE '%9' AND s ILIKE 'H%'"),
            "SELECT * FROM t WHERE s LIKE 'host_%' AND s NOT LIKE '%9' AND s ILIKE 'H%'");
  EXPECT_EQ(Normalize("SELECT * FROM t WHERE NOT (a AND b)"), "SELECT * FROM t WHERE NOT (a AND b)");
}

TEST(ParserTest, ConjunctionsAreFlattened) {
  auto s = MustParse("SELECT * FROM t WHERE a = 1 OR b = 2 OR (c = 3 OR d = 4)");
  const auto& where = Select(*s).where->As<ConjunctionExpression>();
  EXPECT_EQ(where.op, ConjunctionOp::kOr);
  EXPECT_EQ(where.children.size(), 4u);
}

TEST(ParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(Normalize("SELECT 1 + 2 * 3, (1 + 2) * 3, 1 - (2 - 3), 1 - 2 - 3, 7 % 3, -x, - -x"),
            "SELECT 1 + 2 * 3, (1 + 2) * 3, 1 - (2 - 3), 1 - 2 - 3, 7 % 3, -x, - -x");
  EXPECT_EQ(Normalize("SELECT 2 ^ 3 ^ 2, -2 ^ 2, a || b || c, a / b / c, a / (b / c)"),
            "SELECT 2 ^ 3 ^ 2, -2 ^ 2, a || b || c, a / b / c, a / (b / c)");
  EXPECT_EQ(Normalize("SELECT a - -1, a * -(b + c)"), "SELECT a - -1, a * -(b + c)");
  auto s = MustParse("SELECT 1 + 2 * 3");
  const auto& add = Select(*s).select_list[0]->As<BinaryExpression>();
  EXPECT_EQ(add.op, BinaryOp::kAdd);
  EXPECT_EQ(add.right->As<BinaryExpression>().op, BinaryOp::kMultiply);
}

TEST(ParserTest, Literals) {
  EXPECT_EQ(Normalize("SELECT 'it''s', 42, 90.0, 1.5e3, .5, TRUE, false, NULL"),
            "SELECT 'it''s', 42, 90.0, 1500.0, 0.5, TRUE, FALSE, NULL");
  auto s = MustParse("SELECT -9223372036854775808, 9223372036854775808, 90.0");
  const SelectNode& node = Select(*s);
  const auto& min = node.select_list[0]->As<ConstantExpression>();
  EXPECT_EQ(min.kind, ConstantKind::kInteger);
  EXPECT_EQ(min.int_value, INT64_MIN);
  EXPECT_EQ(node.select_list[1]->As<ConstantExpression>().kind, ConstantKind::kFloat);
  const auto& f = node.select_list[2]->As<ConstantExpression>();
  EXPECT_EQ(f.kind, ConstantKind::kFloat);
  EXPECT_EQ(f.float_value, 90.0);
}

TEST(ParserTest, IntervalsAndTime) {
  EXPECT_EQ(Normalize("SELECT now() - INTERVAL '5 minutes', interval '60 seconds', "
                      "INTERVAL '1' HOUR, INTERVAL '1 hour 30 minutes'"),
            "SELECT now() - INTERVAL '5 minutes', INTERVAL '1 minute', INTERVAL '1 hour', "
            "INTERVAL '1 hour 30 minutes'");
  auto s = MustParse("SELECT INTERVAL '12 hours', time(10m), CURRENT_TIMESTAMP");
  const SelectNode& node = Select(*s);
  EXPECT_EQ(node.select_list[0]->As<ConstantExpression>().int_value, 12 * 3600 * 1000000000LL);
  const auto& bucket = node.select_list[1]->As<FunctionExpression>();
  EXPECT_EQ(bucket.name, "time");
  EXPECT_EQ(bucket.children[0]->As<ConstantExpression>().int_value, 600 * 1000000000LL);
  EXPECT_EQ(node.select_list[2]->As<FunctionExpression>().name, "current_timestamp");
  EXPECT_EQ(Normalize("SELECT TIMESTAMP '2023-06-11 00:00:00', DATE '2023-06-11'"),
            "SELECT CAST('2023-06-11 00:00:00' AS timestamp), CAST('2023-06-11' AS date)");
  EXPECT_EQ(Normalize("SELECT time_bucket('60 seconds', time) AS minute FROM cpu"),
            "SELECT time_bucket('60 seconds', time) AS minute FROM cpu");
}

TEST(ParserTest, FunctionCalls) {
  EXPECT_EQ(Normalize("SELECT count(*), COUNT(DISTINCT hostname), Max(usage_user), f()"),
            "SELECT count(*), count(DISTINCT hostname), max(usage_user), f()");
  EXPECT_EQ(Normalize("SELECT last_value(x order by time), first_value(x ORDER BY time DESC, y)"),
            "SELECT last_value(x ORDER BY time), first_value(x ORDER BY time DESC, y)");
  EXPECT_EQ(Normalize("SELECT lead(t) OVER (PARTITION BY id ORDER BY t), rank() OVER ()"),
            "SELECT lead(t) OVER (PARTITION BY id ORDER BY t), rank() OVER ()");
  EXPECT_EQ(Normalize("SELECT sum(x) OVER (ORDER BY t ROWS 2 PRECEDING), "
                      "avg(x) OVER (ORDER BY time RANGE BETWEEN INTERVAL '10 minutes' PRECEDING AND CURRENT ROW), "
                      "min(x) OVER (rows between unbounded preceding and 1 following)"),
            "SELECT sum(x) OVER (ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
            "avg(x) OVER (ORDER BY time RANGE BETWEEN INTERVAL '10 minutes' PRECEDING AND CURRENT ROW), "
            "min(x) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING)");
  EXPECT_EQ(Normalize("SELECT rank() OVER w, sum(x) OVER (w ORDER BY t GROUPS 1 PRECEDING) FROM m "
                      "WINDOW w AS (PARTITION BY h), v AS (w)"),
            "SELECT rank() OVER (w), sum(x) OVER (w ORDER BY t GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM m "
            "WINDOW w AS (PARTITION BY h), v AS (w)");
  auto s = MustParse("SELECT last_value(usage_user ORDER BY time DESC NULLS FIRST) FROM cpu");
  const auto& f = Select(*s).select_list[0]->As<FunctionExpression>();
  ASSERT_EQ(f.order_by.size(), 1u);
  EXPECT_TRUE(f.order_by[0].descending);
  EXPECT_EQ(f.order_by[0].nulls, NullsOrder::kFirst);
}

TEST(ParserTest, CaseAndCast) {
  EXPECT_EQ(Normalize("SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END"),
            "SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END");
  EXPECT_EQ(Normalize("SELECT case a when 1 then 2 end"), "SELECT CASE a WHEN 1 THEN 2 END");
  EXPECT_EQ(Normalize("SELECT CAST(x AS DOUBLE PRECISION), x::bigint, '1'::varchar(10)::text"),
            "SELECT CAST(x AS double precision), CAST(x AS bigint), "
            "CAST(CAST('1' AS varchar(10)) AS text)");
  EXPECT_EQ(Normalize("SELECT x::timestamp with time zone, -1::int"),
            "SELECT CAST(x AS timestamp with time zone), -CAST(1 AS int)");
}

TEST(ParserTest, Clauses) {
  EXPECT_EQ(Normalize("SELECT hostname, max(u) FROM cpu GROUP BY hostname HAVING max(u) > 90 "
                      "ORDER BY 2 DESC NULLS LAST, hostname ASC NULLS FIRST LIMIT 10 OFFSET 20"),
            "SELECT hostname, max(u) FROM cpu GROUP BY hostname HAVING max(u) > 90 "
            "ORDER BY 2 DESC NULLS LAST, hostname NULLS FIRST LIMIT 10 OFFSET 20");
  EXPECT_EQ(Normalize("SELECT a FROM t OFFSET 3 LIMIT 2"), "SELECT a FROM t LIMIT 2 OFFSET 3");
  EXPECT_EQ(Normalize("SELECT a FROM t LIMIT ALL"), "SELECT a FROM t");
  EXPECT_EQ(Normalize("SELECT DISTINCT hostname FROM cpu"), "SELECT DISTINCT hostname FROM cpu");
  EXPECT_EQ(Normalize("SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC"),
            "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC");
  EXPECT_EQ(Normalize("select date_trunc('hour', time), avg(x) from cpu "
                      "group by date_trunc('hour', time),hostname"),
            "SELECT date_trunc('hour', time), avg(x) FROM cpu "
            "GROUP BY date_trunc('hour', time), hostname");
  auto s = MustParse("SELECT a FROM t LIMIT 5 OFFSET 7");
  EXPECT_EQ(*Select(*s).limit, 5);
  EXPECT_EQ(*Select(*s).offset, 7);
}

TEST(ParserTest, GroupByAliasesAndOrdinalsStayAsWritten) {
  auto s = MustParse("SELECT time_bucket('60 seconds', time) AS minute, max(u) FROM cpu "
                     "GROUP BY minute, 2 ORDER BY minute");
  const SelectNode& node = Select(*s);
  ASSERT_EQ(node.group_by.size(), 2u);
  EXPECT_EQ(node.group_by[0]->As<ColumnRefExpression>().column_name(), "minute");
  EXPECT_EQ(node.group_by[1]->As<ConstantExpression>().int_value, 2);
  EXPECT_EQ(node.select_list[0]->alias, "minute");
}

TEST(ParserTest, SubqueriesAndCtes) {
  EXPECT_EQ(Normalize("SELECT m FROM (SELECT max(x) AS m FROM cpu) AS s"),
            "SELECT m FROM (SELECT max(x) AS m FROM cpu) AS s");
  EXPECT_EQ(Normalize("SELECT m FROM (SELECT 1 AS m) s WHERE m IN (SELECT 1)"),
            "SELECT m FROM (SELECT 1 AS m) AS s WHERE m IN (SELECT 1)");
  EXPECT_EQ(Normalize("SELECT * FROM (SELECT 1)"), "SELECT * FROM (SELECT 1)");
  EXPECT_EQ(Normalize("SELECT (SELECT max(x) FROM t), EXISTS (SELECT 1)"),
            "SELECT (SELECT max(x) FROM t), EXISTS (SELECT 1)");
  auto s = MustParse("WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) "
                     "SELECT * FROM b WHERE x IN (SELECT x FROM a)");
  const SelectNode& node = Select(*s);
  ASSERT_EQ(node.ctes.size(), 2u);
  EXPECT_EQ(node.ctes[0].name, "a");
  EXPECT_TRUE(node.ctes[1].query->from->As<BaseTableRef>().cte_reference);
  EXPECT_TRUE(node.from->As<BaseTableRef>().cte_reference);
  const auto& in = node.where->As<InExpression>();
  ASSERT_NE(in.subquery, nullptr);
  EXPECT_TRUE(in.subquery->from->As<BaseTableRef>().cte_reference);
  // A CTE is not visible to itself, nor outside its query.
  auto t = MustParse("WITH cpu AS (SELECT * FROM cpu) SELECT * FROM (SELECT * FROM cpu) s");
  EXPECT_FALSE(Select(*t).ctes[0].query->from->As<BaseTableRef>().cte_reference);
  EXPECT_TRUE(Select(*t).from->As<SubqueryRef>().subquery->from->As<BaseTableRef>().cte_reference);
  EXPECT_EQ(Normalize("SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c) AS s"),
            "SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c) AS s");
}

TEST(ParserTest, Joins) {
  EXPECT_EQ(Normalize("SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id) "
                      "CROSS JOIN d"),
            "SELECT * FROM a INNER JOIN b ON a.id = b.id LEFT JOIN c USING (id) CROSS JOIN d");
  EXPECT_EQ(Normalize("SELECT * FROM tags t INNER JOIN LATERAL (SELECT * FROM cpu c "
                      "WHERE c.tags_id = t.id ORDER BY time DESC LIMIT 1) AS b ON true"),
            "SELECT * FROM tags AS t INNER JOIN LATERAL (SELECT * FROM cpu AS c "
            "WHERE c.tags_id = t.id ORDER BY time DESC LIMIT 1) AS b ON TRUE");
  EXPECT_EQ(Normalize("SELECT * FROM t asof JOIN q ON t.s = q.s AND t.time >= q.time"),
            "SELECT * FROM t ASOF JOIN q ON t.s = q.s AND t.time >= q.time");
  EXPECT_EQ(Normalize("SELECT * FROM t ASOF LEFT OUTER JOIN q ON t.time >= q.time"),
            "SELECT * FROM t ASOF LEFT JOIN q ON t.time >= q.time");
  // `asof` is still a name where no JOIN follows.
  EXPECT_EQ(Normalize("SELECT asof FROM t asof"), "SELECT asof FROM t AS asof");
  EXPECT_EQ(Normalize("SELECT * FROM a, b WHERE a.x = b.x"), "SELECT * FROM a CROSS JOIN b WHERE a.x = b.x");
}

TEST(ParserTest, SetOperations) {
  EXPECT_EQ(Normalize("SELECT 1 UNION ALL SELECT 2 ORDER BY 1 LIMIT 3"),
            "(SELECT 1) UNION ALL (SELECT 2) ORDER BY 1 LIMIT 3");
  // INTERSECT binds tighter than UNION and EXCEPT, which go left to right.
  EXPECT_EQ(Normalize("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4"),
            "((SELECT 1) UNION ((SELECT 2) INTERSECT (SELECT 3))) EXCEPT (SELECT 4)");
  EXPECT_EQ(Normalize("(SELECT a FROM t ORDER BY a LIMIT 1) UNION DISTINCT (SELECT b FROM u)"),
            "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u)");
  // An outer ORDER BY over a parenthesised query with its own wraps it.
  EXPECT_EQ(Normalize("(SELECT a FROM t ORDER BY a LIMIT 2) ORDER BY a DESC"),
            "SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 2) ORDER BY a DESC");
  EXPECT_EQ(Normalize("WITH w AS (SELECT 1 AS a) SELECT a FROM w UNION SELECT a FROM w"),
            "WITH w AS (SELECT 1 AS a) (SELECT a FROM w) UNION (SELECT a FROM w)");
}

TEST(ParserTest, InfluxQlFlavouredPieces) {
  EXPECT_EQ(Normalize("SELECT mean(v) INTO m FROM r GROUP BY time(10m), \"name\" fill(0)"),
            "SELECT mean(v) INTO m FROM r GROUP BY time(INTERVAL '10 minutes'), name fill(0)");
}

TEST(ParserTest, OtherStatements) {
  EXPECT_EQ(Normalize("show databases"), "SHOW DATABASES");
  EXPECT_EQ(Normalize("SHOW TABLES;"), "SHOW TABLES");
  EXPECT_EQ(Normalize("SHOW TABLES FROM benchmark"), "SHOW TABLES FROM benchmark");
  EXPECT_EQ(Normalize("DESCRIBE cpu"), "SHOW COLUMNS FROM cpu");
  EXPECT_EQ(Normalize("DESC TABLE db.cpu"), "SHOW COLUMNS FROM db.cpu");
  EXPECT_EQ(Normalize("SHOW COLUMNS FROM cpu"), "SHOW COLUMNS FROM cpu");
  EXPECT_EQ(Normalize("CREATE DATABASE benchmark"), "CREATE DATABASE benchmark");
  EXPECT_EQ(Normalize("create database if not exists \"My-DB\""),
            "CREATE DATABASE IF NOT EXISTS \"My-DB\"");
  EXPECT_EQ(Normalize("DROP DATABASE IF EXISTS x"), "DROP DATABASE IF EXISTS x");
  EXPECT_EQ(Normalize("DROP TABLE cpu"), "DROP TABLE cpu");
  EXPECT_EQ(Normalize("DROP TABLE IF EXISTS db.cpu"), "DROP TABLE IF EXISTS db.cpu");
  EXPECT_EQ(Normalize("DELETE FROM cpu WHERE time < '2023-06-11T00:00:00Z'"),
            "DELETE FROM cpu WHERE time < '2023-06-11T00:00:00Z'");
  EXPECT_EQ(Normalize("DELETE FROM cpu"), "DELETE FROM cpu");
  EXPECT_EQ(Normalize("EXPLAIN SELECT 1"), "EXPLAIN SELECT 1");
  EXPECT_EQ(Normalize("explain analyze select max(x) from cpu;"),
            "EXPLAIN ANALYZE SELECT max(x) FROM cpu");
  auto s = MustParse("EXPLAIN ANALYZE SELECT 1");
  const auto& explain = s->As<ExplainStatement>();
  EXPECT_TRUE(explain.analyze);
  EXPECT_EQ(explain.statement->type, StatementType::kSelect);
}

TEST(ParserTest, CommentsWhitespaceAndSemicolons) {
  EXPECT_EQ(Normalize("  -- leading comment\n\tSELECT /* inline /* nested */ */ a   \n"
                      "  FROM   cpu  -- trailing\n  ;  "),
            "SELECT a FROM cpu");
  EXPECT_EQ(Normalize("SELECT a -- comment without newline"), "SELECT a");
}

TEST(ParserTest, SourceSpansNameOutputColumns) {
  const std::string sql =
      "SELECT max(usage_user),\n       date_trunc('hour',\n   time), hostname, x + 1 AS y,\n"
      "  (a +  b)\nFROM cpu";
  auto s = MustParse(sql);
  const SelectNode& node = Select(*s);
  EXPECT_EQ(s->SourceText(node.select_list[0]->span), "max(usage_user)");
  EXPECT_EQ(SelectItemName(*node.select_list[0], *s), "max(usage_user)");
  EXPECT_EQ(SelectItemName(*node.select_list[1], *s), "date_trunc('hour', time)");
  EXPECT_EQ(SelectItemName(*node.select_list[2], *s), "hostname");
  EXPECT_EQ(SelectItemName(*node.select_list[3], *s), "y");
  EXPECT_EQ(SelectItemName(*node.select_list[4], *s), "(a + b)");
  EXPECT_EQ(s->SourceText(s->span), sql);
  EXPECT_EQ(s->SourceText(node.from->span), "cpu");
}

TEST(ParserTest, ScriptSplitsStatements) {
  auto script = ParseSqlScript(";;SELECT 1; SELECT 2;\n;SHOW TABLES");
  ASSERT_TRUE(script.ok()) << script.status().ToString();
  ASSERT_EQ(script->size(), 3u);
  EXPECT_EQ((*script)[1]->ToString(), "SELECT 2");
  EXPECT_EQ((*script)[1]->SourceText((*script)[1]->span), "SELECT 2");
  auto one = ParseSql("SELECT 1; SELECT 2");
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.status().message(),
            "syntax error at line 1, column 11 near \"SELECT 2\": expected a single statement");
}

TEST(ParserTest, CopyIsDeepAndEqual) {
  auto s = MustParse("WITH c AS (SELECT 1 AS x) SELECT DISTINCT ON (a) a, CASE WHEN b THEN 1 END, "
                     "last_value(x ORDER BY t) OVER (PARTITION BY p), y IN (SELECT 1), "
                     "z BETWEEN 1 AND 2, CAST(w AS int), EXISTS (SELECT 1) "
                     "FROM a JOIN LATERAL (SELECT 1) s ON true WHERE q IS NULL GROUP BY 1 "
                     "HAVING count(*) > 1 ORDER BY 1 LIMIT 1");
  const SelectNode& node = Select(*s);
  auto copy = node.Copy();
  EXPECT_EQ(copy->ToString(), node.ToString());
  for (size_t i = 0; i < node.select_list.size(); ++i) {
    EXPECT_EQ(copy->select_list[i]->span.offset, node.select_list[i]->span.offset);
    EXPECT_NE(copy->select_list[i].get(), node.select_list[i].get());
  }
}

TEST(ParserTest, DepthIsRecordedAndBounded) {
  auto s = MustParse("SELECT 1 + 2 * 3");
  EXPECT_EQ(Select(*s).select_list[0]->depth, 3u);
  std::string chain = "SELECT 1";
  for (int i = 0; i < 2000; ++i) chain += " + 1";
  auto deep = ParseSql(chain);
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nested deeper than"), std::string::npos);
  std::string ors = "SELECT * FROM t WHERE a = 0";
  for (int i = 0; i < 5000; ++i) ors += " OR a = " + std::to_string(i);
  EXPECT_TRUE(ParseSql(ors).ok());
}

}  // namespace
}  // namespace gnomon::query
