// Every query TSBS generates for the SQL targets (test/testdata/tsbs, see its README) parses:
// greptime's after renaming greptime_timestamp to time, TimescaleDB's raw (JOINs, LATERAL and
// window functions produce AST nodes) and after the tags-in-table rewrite that Gnomon runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "src/query/parser/parser.h"

namespace gnomon::query {
namespace {

namespace fs = std::filesystem;

struct TsbsQuery {
  std::string file;
  int number = 0;
  std::string sql;
};

// The decoded query files: "-- query: n" and "-- key: value" header lines, then the SQL, then a
// blank line.
std::vector<TsbsQuery> ReadQueries(const std::string& folder) {
  const fs::path dir = fs::path(GNOMON_TESTDATA_DIR) / "tsbs" / folder;
  std::vector<TsbsQuery> out;
  EXPECT_TRUE(fs::is_directory(dir)) << dir;
  if (!fs::is_directory(dir)) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::ifstream in(path);
    std::string line;
    TsbsQuery* current = nullptr;
    bool in_header = false;
    while (std::getline(in, line)) {
      if (line.rfind("-- query: ", 0) == 0) {
        out.push_back(TsbsQuery{path.filename().string(), std::stoi(line.substr(10)), ""});
        current = &out.back();
        in_header = true;
        continue;
      }
      if (current == nullptr) continue;
      if (in_header && line.rfind("-- ", 0) == 0) continue;
      in_header = false;
      current->sql += line + "\n";
    }
  }
  for (TsbsQuery& q : out) {
    while (!q.sql.empty() && (q.sql.back() == '\n' || q.sql.back() == ' ')) q.sql.pop_back();
  }
  return out;
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// Parses every statement of `sql` and checks that the normalised text parses back to itself.
::testing::AssertionResult ParsesAndRoundTrips(const TsbsQuery& q, const std::string& sql,
                                               size_t expected_statements = 1) {
  auto script = ParseSqlScript(sql);
  if (!script.ok()) {
    return ::testing::AssertionFailure()
           << q.file << " #" << q.number << ": " << script.status().message() << "\n" << sql;
  }
  if (script->size() != expected_statements) {
    return ::testing::AssertionFailure() << q.file << " #" << q.number << ": "
                                         << script->size() << " statements";
  }
  for (const auto& statement : *script) {
    const std::string text = statement->ToString();
    auto again = ParseSql(text);
    if (!again.ok() || (*again)->ToString() != text) {
      return ::testing::AssertionFailure() << q.file << " #" << q.number
                                           << ": normalised text does not round-trip: " << text;
    }
  }
  return ::testing::AssertionSuccess();
}

// True if the SELECT tree uses anything beyond one table per query level: joins, or subqueries
// inside expressions.
bool UsesJoinOrExpressionSubquery(const SelectNode& node);

bool ExpressionHasSubquery(const ParsedExpression& e) {
  if (e.expression_class == ExpressionClass::kSubquery) return true;
  if (e.expression_class == ExpressionClass::kIn && e.As<InExpression>().subquery) return true;
  bool found = false;
  e.ForEachChild([&](const ParsedExpression& child) { found = found || ExpressionHasSubquery(child); });
  return found;
}

bool TableRefUsesJoin(const TableRef& ref) {
  if (ref.type == TableRefType::kJoin) return true;
  if (ref.type == TableRefType::kSubquery) {
    return UsesJoinOrExpressionSubquery(*ref.As<SubqueryRef>().subquery);
  }
  return false;
}

bool UsesJoinOrExpressionSubquery(const SelectNode& node) {
  for (const CommonTableExpression& cte : node.ctes) {
    if (UsesJoinOrExpressionSubquery(*cte.query)) return true;
  }
  if (node.from && TableRefUsesJoin(*node.from)) return true;
  for (const ExprPtr& e : node.select_list) {
    if (ExpressionHasSubquery(*e)) return true;
  }
  return node.where && ExpressionHasSubquery(*node.where);
}

TEST(TsbsQueriesTest, GreptimeDevopsParseAfterRename) {
  const auto queries = ReadQueries("queries/greptime");
  EXPECT_EQ(queries.size(), 16u * 20u);
  for (const TsbsQuery& q : queries) {
    EXPECT_TRUE(ParsesAndRoundTrips(q, ReplaceAll(q.sql, "greptime_timestamp", "time")));
  }
}

TEST(TsbsQueriesTest, GreptimeIotParseAfterRename) {
  // GreptimeDB's fork sends InfluxQL-flavoured text for iot (GROUP BY time(10m), fill(0), INTO,
  // two statements in avg-daily-driving-session); the grammar accepts those pieces.
  const auto queries = ReadQueries("queries-iot/greptime");
  EXPECT_EQ(queries.size(), 13u * 10u);
  for (const TsbsQuery& q : queries) {
    const size_t statements = q.file == "avg-daily-driving-session.txt" ? 2 : 1;
    EXPECT_TRUE(
        ParsesAndRoundTrips(q, ReplaceAll(q.sql, "greptime_timestamp", "time"), statements));
  }
}

TEST(TsbsQueriesTest, TimescaleDevopsParseRaw) {
  const auto queries = ReadQueries("queries/timescaledb");
  EXPECT_EQ(queries.size(), 16u * 20u);
  int in_subqueries = 0;
  for (const TsbsQuery& q : queries) {
    EXPECT_TRUE(ParsesAndRoundTrips(q, q.sql));
    auto statement = ParseSql(q.sql);
    if (!statement.ok()) continue;
    const SelectNode& node = *(*statement)->As<SelectStatement>().node;
    // tags_id IN (SELECT id FROM tags WHERE hostname IN (...)) is an IN node with a subquery.
    if (q.sql.find("tags_id IN (SELECT") != std::string::npos) {
      ASSERT_NE(node.where, nullptr);
      bool found = false;
      for (const ExprPtr& c : node.where->As<ConjunctionExpression>().children) {
        if (c->expression_class == ExpressionClass::kIn && c->As<InExpression>().subquery) {
          found = true;
        }
      }
      EXPECT_TRUE(found) << q.sql;
      ++in_subqueries;
    }
  }
  EXPECT_GT(in_subqueries, 100);
}

TEST(TsbsQueriesTest, TimescaleIotParseRaw) {
  const auto queries = ReadQueries("queries-iot/timescaledb");
  EXPECT_EQ(queries.size(), 13u * 10u);
  for (const TsbsQuery& q : queries) EXPECT_TRUE(ParsesAndRoundTrips(q, q.sql));
}

// The rewrite for a table that keeps its tags (TimescaleDB's --timescale-use-tags=false form):
// the host filter becomes hostname IN (...), the double-groupby CTE groups by hostname instead of
// joining the tags table, and lastpoint uses DISTINCT ON over cpu.
std::string RewriteTagsInTable(const TsbsQuery& q) {
  static const std::regex kTagsFilter(
      R"(tags_id IN \(SELECT id FROM tags WHERE hostname IN \(([^)]*)\)\))");
  std::string sql = std::regex_replace(q.sql, kTagsFilter, "hostname IN ($1)");
  if (q.file.rfind("double-groupby", 0) == 0) {
    sql = ReplaceAll(sql, "JOIN tags ON cpu_avg.tags_id = tags.id", "");
    sql = ReplaceAll(sql, "tags.hostname", "hostname");
    sql = ReplaceAll(sql, "tags_id", "hostname");
  }
  if (q.file == "lastpoint.txt") {
    sql = "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC";
  }
  return sql;
}

TEST(TsbsQueriesTest, TimescaleDevopsParseAfterTagsRewrite) {
  for (const TsbsQuery& q : ReadQueries("queries/timescaledb")) {
    const std::string sql = RewriteTagsInTable(q);
    EXPECT_TRUE(ParsesAndRoundTrips(q, sql));
    auto statement = ParseSql(sql);
    if (!statement.ok()) continue;
    EXPECT_EQ(sql.find("tags"), std::string::npos) << sql;
    EXPECT_FALSE(UsesJoinOrExpressionSubquery(*(*statement)->As<SelectStatement>().node)) << sql;
  }
}

TEST(TsbsQueriesTest, UnnamedAggregatesKeepTheirText) {
  const auto queries = ReadQueries("queries/greptime");
  ASSERT_FALSE(queries.empty());
  auto statement = ParseSql(ReplaceAll(queries[0].sql, "greptime_timestamp", "time"));
  ASSERT_TRUE(statement.ok());
  const SelectNode& node = *(*statement)->As<SelectStatement>().node;
  EXPECT_EQ(SelectItemName(*node.select_list[0], **statement), "max(usage_user)");
  EXPECT_EQ(SelectItemName(*node.select_list.back(), **statement), "date_trunc('hour', time)");
}

}  // namespace
}  // namespace gnomon::query
