// The query generator reproduces TSBS's greptime query files (test/testdata/tsbs/queries/greptime), with the
// time column renamed from greptime_timestamp to time, and its influx ones byte for byte.
#include "src/bench/query_generator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

struct RefQuery {
  std::string label, description, sql;
};

// Parses a decoded TSBS query file: "-- query:", "-- label:", "-- description:", "-- http:", text.
std::vector<RefQuery> ReadReference(const std::string& path) {
  std::ifstream in(path);
  std::vector<RefQuery> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("-- query:", 0) == 0) {
      out.emplace_back();
    } else if (line.rfind("-- label: ", 0) == 0) {
      out.back().label = line.substr(10);
    } else if (line.rfind("-- description: ", 0) == 0) {
      out.back().description = line.substr(16);
    } else if (line.rfind("-- ", 0) == 0 || line.empty()) {
      continue;
    } else {
      if (!out.back().sql.empty()) out.back().sql += "\n";
      out.back().sql += line;
    }
  }
  return out;
}

std::string Rename(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

QueryGenConfig Config(const std::string& type) {
  QueryGenConfig c;
  c.query_type = type;
  c.scale = 100;
  c.seed = 123;
  c.start_ns = *ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *ParseRfc3339Nanos("2023-06-12T00:00:01Z");
  c.queries = 20;
  return c;
}

class QueryGeneratorGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(QueryGeneratorGoldenTest, MatchesTsbsGreptimeFile) {
  const std::string type = GetParam();
  std::vector<RefQuery> ref =
      ReadReference(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/greptime/" + type + ".txt");
  ASSERT_EQ(ref.size(), 20u);
  auto got = GenerateQueries(Config(type));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ((*got)[i].label, ref[i].label) << type << " #" << i + 1;
    EXPECT_EQ((*got)[i].description, ref[i].description) << type << " #" << i + 1;
    EXPECT_EQ((*got)[i].sql, Rename(ref[i].sql, "greptime_timestamp", "time")) << type << " #" << i + 1;
  }
  // With the Greptime column name the text is the file's verbatim.
  QueryGenConfig g = Config(type);
  g.time_column = "greptime_timestamp";
  auto greptime = GenerateQueries(g);
  ASSERT_TRUE(greptime.ok());
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_EQ((*greptime)[i].sql, ref[i].sql);
}

TEST_P(QueryGeneratorGoldenTest, MatchesTsbsInfluxFile) {
  const std::string type = GetParam();
  std::vector<RefQuery> ref =
      ReadReference(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries/influx/" + type + ".txt");
  ASSERT_EQ(ref.size(), 20u);
  QueryGenConfig c = Config(type);
  c.influxql = true;
  auto got = GenerateQueries(c);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ((*got)[i].label, ref[i].label) << type << " #" << i + 1;
    EXPECT_EQ((*got)[i].sql, ref[i].sql) << type << " #" << i + 1;
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevopsTypes, QueryGeneratorGoldenTest,
                         ::testing::ValuesIn(DevopsQueryTypes()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) if (ch == '-') ch = '_';
                           return n;
                         });

TEST(QueryGeneratorTest, FormatsBlocks) {
  std::vector<GeneratedQuery> qs = {{"L", "L: cpu", "select 1"}};
  EXPECT_EQ(FormatQueries(qs), "-- query: 1\n-- label: L\n-- description: L: cpu\nselect 1\n\n");
}

TEST(QueryGeneratorTest, RejectsBadInput) {
  QueryGenConfig c = Config("no-such-type");
  EXPECT_TRUE(GenerateQueries(c).status().IsInvalidArgument());
  c = Config("cpu-max-all-32-24");
  c.scale = 10;  // fewer hosts than the query needs
  EXPECT_TRUE(GenerateQueries(c).status().IsInvalidArgument());
  c = Config("double-groupby-1");
  c.end_ns = c.start_ns + 3600LL * 1000000000;  // shorter than the 12 h window
  EXPECT_TRUE(GenerateQueries(c).status().IsInvalidArgument());
}

}  // namespace
}  // namespace gnomon::bench
