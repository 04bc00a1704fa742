// Syntax errors: the message names the 1-based line and column and the offending text.
#include <gtest/gtest.h>

#include <string>

#include "src/query/parser/parser.h"

namespace gnomon::query {
namespace {

std::string ErrorOf(const std::string& sql) {
  auto statement = ParseSql(sql);
  if (statement.ok()) return "OK: " + (*statement)->ToString();
  EXPECT_TRUE(statement.status().IsInvalidArgument());
  return statement.status().message();
}

TEST(ParserErrorTest, MisspeltKeywordIsPointedAt) {
  EXPECT_EQ(ErrorOf("SELECT max(usage_user)\n  FROM cpu\n  WHERE a = 1\n  GROUP BY x\n"
                    "  ORDER BY x LIMT 5"),
            "syntax error at line 5, column 14 near \"LIMT\": expected LIMIT");
  EXPECT_EQ(ErrorOf("SELECT a,\n       b,\n       c FORM cpu"),
            "syntax error at line 3, column 10 near \"FORM\": expected FROM");
  EXPECT_EQ(ErrorOf("SELECT a FROM cpu WHER a = 1"),
            "syntax error at line 1, column 19 near \"WHER\": expected WHERE");
}

TEST(ParserErrorTest, PositionsAndExpectations) {
  EXPECT_EQ(ErrorOf("SELEC a"), "syntax error at line 1, column 1 near \"SELEC\": expected SELECT");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1"),
            "syntax error at line 1, column 1 near \"UPDATE\": expected SELECT, WITH, EXPLAIN, "
            "SHOW, DESCRIBE, CREATE, DROP or DELETE");
  EXPECT_EQ(ErrorOf("SELECT max(usage_user FROM cpu"),
            "syntax error at line 1, column 23 near \"FROM\": expected ')' to close max(");
  EXPECT_EQ(ErrorOf("SELECT a FROM"), "syntax error at line 1, column 14 near end of input: "
                                      "expected table name");
  EXPECT_EQ(ErrorOf("SELECT"), "syntax error at line 1, column 7 near end of input: "
                               "expected select list item");
  EXPECT_EQ(ErrorOf("SELECT a FROM t WHERE"),
            "syntax error at line 1, column 22 near end of input: expected an expression");
  EXPECT_EQ(ErrorOf("SELECT a FROM t WHERE x IN 1"),
            "syntax error at line 1, column 28 near \"1\": expected '(' after IN");
  EXPECT_EQ(ErrorOf("SELECT a FROM t x y"),
            "syntax error at line 1, column 19 near \"y\": expected end of statement");
  EXPECT_EQ(ErrorOf("SELECT CASE END"),
            "syntax error at line 1, column 13 near \"END\": expected an expression");
  EXPECT_EQ(ErrorOf("SELECT CASE WHEN a THEN b"),
            "syntax error at line 1, column 26 near end of input: expected END");
  EXPECT_EQ(ErrorOf("SELECT a FROM t LIMIT -1"),
            "syntax error at line 1, column 23 near \"-\": expected a non-negative integer "
            "after LIMIT");
  EXPECT_EQ(ErrorOf("SELECT a FROM t LIMIT 99999999999999999999"),
            "syntax error at line 1, column 23 near \"99999999999999999999\": LIMIT value out "
            "of range");
  EXPECT_EQ(ErrorOf("SELECT a < b < c"),
            "syntax error at line 1, column 14 near \"<\": comparison operators cannot be "
            "chained; use parentheses");
  EXPECT_EQ(ErrorOf("DROP INDEX x"),
            "syntax error at line 1, column 6 near \"INDEX\": expected DATABASE or TABLE");
  EXPECT_EQ(ErrorOf("SELECT a IS 1"),
            "syntax error at line 1, column 13 near \"1\": expected NULL after IS");
  EXPECT_EQ(ErrorOf(""), "syntax error at line 1, column 1 near end of input: empty statement");
  EXPECT_EQ(ErrorOf(" ; ;"), "syntax error at line 1, column 5 near end of input: empty statement");
}

TEST(ParserErrorTest, ColumnsCountCharactersNotBytes) {
  EXPECT_EQ(ErrorOf("SELECT 'é', \"ü\" FORM t"),
            "syntax error at line 1, column 17 near \"FORM\": expected FROM");
  EXPECT_EQ(ErrorOf("SELECT\n\t\ta +\n\t\t) FROM t"),
            "syntax error at line 3, column 3 near \")\": expected an expression");
}

TEST(ParserErrorTest, LexerErrors) {
  EXPECT_EQ(ErrorOf("SELECT 'abc"),
            "syntax error at line 1, column 8: unterminated string literal");
  EXPECT_EQ(ErrorOf("SELECT \"abc"),
            "syntax error at line 1, column 8: unterminated quoted identifier");
  EXPECT_EQ(ErrorOf("SELECT 1 /* x"), "syntax error at line 1, column 10: unterminated /* comment");
  EXPECT_EQ(ErrorOf("SELECT a # b"),
            "syntax error at line 1, column 10 near \"#\": unexpected character");
  EXPECT_EQ(ErrorOf("SELECT 12abc"),
            "syntax error at line 1, column 8: trailing junk after numeric literal \"12abc\"");
  EXPECT_EQ(ErrorOf("SELECT \"\""), "syntax error at line 1, column 8: zero-length quoted identifier");
}

TEST(ParserErrorTest, UnsupportedConstructsAreNamed) {
  EXPECT_EQ(ErrorOf("SELECT 1 LIMIT 1 UNION SELECT 2"),
            "syntax error at line 1, column 18 near \"UNION\": ORDER BY and LIMIT go after the last operand of a "
            "set operation; parenthesise an operand to order or limit it alone");
  EXPECT_EQ(ErrorOf("WITH RECURSIVE t AS (SELECT 1) SELECT 1"),
            "syntax error at line 1, column 6 near \"RECURSIVE\": WITH RECURSIVE is not supported");
  EXPECT_EQ(ErrorOf("WITH a AS (SELECT 1), a AS (SELECT 2) SELECT 1"),
            "syntax error at line 1, column 23 near \"a\": CTE name \"a\" specified more than once");
  EXPECT_EQ(ErrorOf("SELECT sum(x) OVER (ORDER BY t ROWS 1 FOLLOWING) FROM t"),
            "syntax error at line 1, column 48 near \")\": a window frame starting at 1 FOLLOWING cannot end at "
            "CURRENT ROW");
  EXPECT_EQ(ErrorOf("SELECT sum(x) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t"),
            "syntax error at line 1, column 61 near \")\": a window frame starting at 1 FOLLOWING cannot "
            "end at CURRENT ROW");
  EXPECT_EQ(ErrorOf("SELECT sum(x) OVER (ROWS UNBOUNDED FOLLOWING) FROM t"),
            "syntax error at line 1, column 45 near \")\": a window frame cannot start at UNBOUNDED FOLLOWING");
  EXPECT_EQ(ErrorOf("SELECT sum(x) OVER w FROM t WINDOW w AS (), w AS ()"),
            "syntax error at line 1, column 45 near \"w\": window \"w\" is defined more than once");
  EXPECT_EQ(ErrorOf("SELECT sum(x) OVER w FROM t ORDER BY 1 WINDOW w AS ()"),
            "syntax error at line 1, column 40 near \"WINDOW\": the WINDOW clause goes before ORDER BY and LIMIT");
  EXPECT_EQ(ErrorOf("SELECT a FROM t WHERE t.* IS NULL"),
            "syntax error at line 1, column 25 near \"*\": 't.*' is only allowed in a select list");
  EXPECT_EQ(ErrorOf("SELECT (1, 2)"),
            "syntax error at line 1, column 10 near \",\": row constructors are not supported");
}

TEST(ParserErrorTest, BadLiteralsInsideSqlAreSyntaxErrors) {
  EXPECT_EQ(ErrorOf("SELECT INTERVAL '5 fortnights'"),
            "syntax error at line 1, column 17 near \"'5 fortnights'\": invalid interval "
            "'5 fortnights': unknown unit 'fortnights'");
  EXPECT_EQ(ErrorOf("SELECT 1e999"),
            "syntax error at line 1, column 8 near \"1e999\": numeric literal out of range");
}

TEST(ParserErrorTest, NestingIsBounded) {
  std::string parens = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  EXPECT_NE(ErrorOf(parens).find("nesting deeper than 100 levels"), std::string::npos);
  std::string minus = "SELECT ";
  for (int i = 0; i < 5000; ++i) minus += "- ";
  minus += "1";
  EXPECT_NE(ErrorOf(minus).find("nesting deeper than"), std::string::npos);
  std::string nots = "SELECT ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(ErrorOf(nots + "x").find("nesting deeper than"), std::string::npos);
  std::string subqueries = "SELECT * FROM ";
  for (int i = 0; i < 500; ++i) subqueries += "(SELECT * FROM ";
  EXPECT_NE(ErrorOf(subqueries + "t").find("nesting deeper than"), std::string::npos);
  std::string ok = "SELECT " + std::string(50, '(') + "1" + std::string(50, ')');
  EXPECT_EQ(ErrorOf(ok), "OK: SELECT 1");
}

}  // namespace
}  // namespace gnomon::query
