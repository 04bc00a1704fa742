#include "src/server/api/influxql_statement.h"

#include <gtest/gtest.h>

namespace gnomon::server::api {
namespace {

using Kind = InfluxqlStatement::Kind;

std::vector<InfluxqlStatement> MustParse(std::string_view q) {
  auto r = ParseInfluxql(q);
  EXPECT_TRUE(r.ok()) << q << ": " << r.status().ToString();
  return r.ok() ? *r : std::vector<InfluxqlStatement>{};
}

TEST(InfluxqlStatementTest, DatabaseStatements) {
  auto s = MustParse("show databases");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kind, Kind::kShowDatabases);

  s = MustParse("CREATE DATABASE benchmark WITH REPLICATION 1");  // what TSBS sends
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kind, Kind::kCreateDatabase);
  EXPECT_EQ(s[0].database, "benchmark");
  EXPECT_EQ(s[0].retention_ns, 0);

  s = MustParse("create database \"my db\" with duration 7d shard duration 1d name \"rp\"");
  EXPECT_EQ(s[0].database, "my db");
  EXPECT_EQ(s[0].retention_ns, 7ll * 24 * 3600 * 1000000000);

  s = MustParse("CREATE DATABASE x WITH DURATION INF");
  EXPECT_EQ(s[0].retention_ns, 0);
  s = MustParse("CREATE DATABASE x WITH DURATION 1h30m");
  EXPECT_EQ(s[0].retention_ns, 90ll * 60 * 1000000000);

  s = MustParse("drop database benchmark");
  EXPECT_EQ(s[0].kind, Kind::kDropDatabase);
  EXPECT_EQ(s[0].database, "benchmark");
}

TEST(InfluxqlStatementTest, SeveralStatements) {
  auto s = MustParse("CREATE DATABASE a; CREATE DATABASE \"b;c\";SHOW DATABASES;");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].database, "a");
  EXPECT_EQ(s[1].database, "b;c");
  EXPECT_EQ(s[1].text, "CREATE DATABASE \"b;c\"");
  EXPECT_EQ(s[2].kind, Kind::kShowDatabases);
}

TEST(InfluxqlStatementTest, ShowMeasurements) {
  auto s = MustParse("SHOW MEASUREMENTS");
  EXPECT_EQ(s[0].kind, Kind::kShowMeasurements);
  EXPECT_EQ(s[0].database, "");
  s = MustParse("SHOW MEASUREMENTS ON telegraf");
  EXPECT_EQ(s[0].database, "telegraf");
  s = MustParse("SHOW MEASUREMENTS ON telegraf LIMIT 5");
  EXPECT_EQ(s[0].kind, Kind::kUnsupported);
}

TEST(InfluxqlStatementTest, OtherStatementsAreUnsupportedNotErrors) {
  for (std::string_view q : {"SELECT mean(usage_user) FROM cpu WHERE time > now() - 1h",
                             "SHOW TAG KEYS", "DELETE FROM cpu", "CREATE USER a WITH PASSWORD 'x'",
                             "DROP MEASUREMENT cpu", "SHOW RETENTION POLICIES ON db"}) {
    auto s = MustParse(q);
    ASSERT_EQ(s.size(), 1u) << q;
    EXPECT_EQ(s[0].kind, Kind::kUnsupported) << q;
    EXPECT_EQ(s[0].text, q);
  }
  EXPECT_EQ(MustParse("SHOW RETENTION POLICIES ON db")[0].database, "db");
}

TEST(InfluxqlStatementTest, ParseErrorsNamePosition) {
  auto r = ParseInfluxql("CREATE DATABASE");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "found EOF, expected identifier at line 1, char 16");
  r = ParseInfluxql("HELLO world");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "found HELLO, expected SELECT, DELETE, SHOW, CREATE, DROP, EXPLAIN, GRANT, REVOKE, "
            "ALTER, SET, KILL at line 1, char 1");
  EXPECT_FALSE(ParseInfluxql("CREATE DATABASE x WITH").ok());
  EXPECT_FALSE(ParseInfluxql("CREATE DATABASE x WITH DURATION 7x").ok());
  EXPECT_FALSE(ParseInfluxql("DROP DATABASE a b").ok());
  EXPECT_FALSE(ParseInfluxql("SHOW DATABASES; ; SHOW DATABASES").ok());
  EXPECT_FALSE(ParseInfluxql(";").ok());
  EXPECT_FALSE(ParseInfluxql("CREATE DATABASE \"unterminated").ok());
  auto multi = ParseInfluxql("SHOW DATABASES;\nDROP DATABASE");
  ASSERT_FALSE(multi.ok());
  EXPECT_NE(multi.status().message().find("line 2, char 14"), std::string::npos)
      << multi.status().message();
}

}  // namespace
}  // namespace gnomon::server::api
