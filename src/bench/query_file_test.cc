#include "src/bench/query_file.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "src/bench/url.h"

namespace gnomon::bench {
namespace {

std::vector<std::string> TxtFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".txt") files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Header(const QueryRecord& q, const std::string& key) {
  for (const auto& [k, v] : q.headers) {
    if (k == key) return v;
  }
  return "";
}

// Every real greptime file: 20 queries numbered 1..20, one label per file, and the text equals the
// URL-decoded `sql` parameter of the request TSBS sends (the "-- http:" header).
TEST(QueryFileTest, ParsesRealGreptimeFiles) {
  std::vector<std::string> files = TxtFiles(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/greptime");
  ASSERT_EQ(files.size(), 16u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto queries = ReadQueryFile(file);
    ASSERT_TRUE(queries.ok()) << queries.status().ToString();
    ASSERT_EQ(queries->size(), 20u);
    for (size_t i = 0; i < queries->size(); ++i) {
      const QueryRecord& q = (*queries)[i];
      EXPECT_EQ(q.number, i + 1);
      EXPECT_EQ(q.label, (*queries)[0].label);
      EXPECT_EQ(q.description.substr(0, q.label.size()), q.label);
      std::string http = Header(q, "http");
      const std::string prefix = "POST /v1/sql?sql=";
      ASSERT_EQ(http.substr(0, prefix.size()), prefix);
      auto sql = FormUrlDecode(http.substr(prefix.size()));
      ASSERT_TRUE(sql.ok());
      EXPECT_EQ(q.text, *sql);
    }
  }
}

TEST(QueryFileTest, LabelsMatchTsbs) {
  auto q = ReadQueryFile(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/greptime/single-groupby-1-1-1.txt");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ((*q)[0].label, "Influx 1 cpu metric(s), random    1 hosts, random 1h0m0s by 1m");
}

// ClickHouse texts start with a newline and indentation, and span many lines; TimescaleDB and IoT
// texts span several lines too. All must come back verbatim (query count and first characters).
TEST(QueryFileTest, ParsesMultiLineTextsVerbatim) {
  auto ch = ReadQueryFile(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/clickhouse/double-groupby-1.txt");
  ASSERT_TRUE(ch.ok()) << ch.status().ToString();
  ASSERT_EQ(ch->size(), 20u);
  EXPECT_EQ(Header((*ch)[0], "table"), "cpu");
  EXPECT_EQ((*ch)[0].text.substr(0, 23), "\n        SELECT\n       ");
  EXPECT_NE((*ch)[0].text.find("ANY INNER JOIN tags USING (id)"), std::string::npos);
  EXPECT_NE((*ch)[0].text.back(), '\n');
  for (const char* dir : {"/tsbs/queries/timescaledb", "/tsbs/queries/influx", "/tsbs/queries-iot/timescaledb",
                          "/tsbs/queries-iot/greptime"}) {
    for (const std::string& file : TxtFiles(std::string(GNOMON_TESTDATA_DIR) + dir)) {
      auto q = ReadQueryFile(file);
      ASSERT_TRUE(q.ok()) << file << ": " << q.status().ToString();
      EXPECT_TRUE(q->size() == 20u || q->size() == 10u) << file;
    }
  }
}

TEST(QueryFileTest, ParsesGeneratorOutputShape) {
  std::string text =
      "-- query: 1\n-- label: L one\n-- description: L one: t\nSELECT 1\n\n"
      "-- query: 2\n-- label: L two\n-- description: d\nSELECT a,\n  b\nFROM t\n\n";
  auto q = ParseQueryFile(text);
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->size(), 2u);
  EXPECT_EQ((*q)[0].text, "SELECT 1");
  EXPECT_EQ((*q)[1].label, "L two");
  EXPECT_EQ((*q)[1].text, "SELECT a,\n  b\nFROM t");
  EXPECT_EQ((*q)[1].line, 6u);
  // CRLF files and a missing final blank line.
  auto crlf = ParseQueryFile("-- query: 1\r\n-- label: x\r\nSELECT 2\r\n");
  ASSERT_TRUE(crlf.ok());
  EXPECT_EQ((*crlf)[0].text, "SELECT 2");
  EXPECT_TRUE(ParseQueryFile("").ok());
}

TEST(QueryFileTest, RejectsMalformedFiles) {
  EXPECT_FALSE(ParseQueryFile("SELECT 1\n").ok());
  EXPECT_FALSE(ParseQueryFile("-- query: x\n-- label: a\nSELECT 1\n").ok());
  EXPECT_FALSE(ParseQueryFile("-- query: 1\nSELECT 1\n").ok());              // no label
  EXPECT_FALSE(ParseQueryFile("-- query: 1\n-- label: a\n\n\n").ok());        // no text
  auto s = ParseQueryFile("-- query: 1\n-- label: a\nSELECT 1\n\n-- query: 2\n-- label: b\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("query 2 (line 5)"), std::string::npos) << s.status().message();
  EXPECT_FALSE(ReadQueryFile("/nonexistent/q.txt").ok());
}

}  // namespace
}  // namespace gnomon::bench
