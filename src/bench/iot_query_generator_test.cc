// The IoT query generator against TSBS's own files (test/testdata/tsbs/queries-iot, seed 123,
// scale 100, 10 queries per type): the InfluxQL form byte for byte (label, description, text),
// and the SQL form drawing the same fleets, trucks and windows as TSBS's TimescaleDB builder.
#include "src/bench/iot_query_generator.h"

#include <gtest/gtest.h>

#include <regex>

#include "src/bench/iot_query_text.h"
#include "src/bench/query_file.h"
#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

QueryGenConfig Config(const std::string& type) {
  QueryGenConfig c;
  c.query_type = type;
  c.scale = 100;
  c.seed = 123;
  c.start_ns = *ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *ParseRfc3339Nanos("2023-06-12T00:00:01Z");
  c.queries = 10;
  return c;
}

std::vector<QueryRecord> Reference(const std::string& format, const std::string& type) {
  auto r = ReadQueryFile(std::string(GNOMON_TESTDATA_DIR) + "/tsbs/queries-iot/" + format + "/" + type + ".txt");
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::vector<QueryRecord>{};
}

// The random choices a query's text shows: its quoted literals (fleets, trucks, time bounds).
std::vector<std::string> Literals(const std::string& text) {
  static const std::regex kLiteral("'((East|West|North|South)|truck_\\d+|\\d{4}-\\d\\d-\\d\\d [0-9:.]+ \\+0000)'");
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), kLiteral), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

class IotQueryGeneratorTest : public ::testing::TestWithParam<std::string> {};

TEST_P(IotQueryGeneratorTest, InfluxQlMatchesTsbsByteForByte) {
  const std::string type = GetParam();
  const std::vector<QueryRecord> ref = Reference("influx", type);
  ASSERT_EQ(ref.size(), 10u);
  auto got = GenerateIotQueries(Config(type), IotQueryFormat::kInflux);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ((*got)[i].label, ref[i].label) << type << " #" << i + 1;
    EXPECT_EQ((*got)[i].description, ref[i].description) << type << " #" << i + 1;
    EXPECT_EQ((*got)[i].sql, ref[i].text) << type << " #" << i + 1;
  }
}

TEST_P(IotQueryGeneratorTest, SqlDrawsWhatTimescaleDbDraws) {
  const std::string type = GetParam();
  const std::vector<QueryRecord> ref = Reference("timescaledb", type);
  ASSERT_EQ(ref.size(), 10u);
  auto got = GenerateIotQueries(Config(type), IotQueryFormat::kSql);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(Literals((*got)[i].sql), Literals(ref[i].text)) << type << " #" << i + 1 << "\n" << (*got)[i].sql;
  }
}

INSTANTIATE_TEST_SUITE_P(AllIotTypes, IotQueryGeneratorTest, ::testing::ValuesIn(IotQueryTypes()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n) ch = ch == '-' ? '_' : ch;
                           return n;
                         });

TEST(IotQueryGeneratorTest, TimescaleTimeTrimsTheFraction) {
  EXPECT_EQ(TimescaleTime(*ParseRfc3339Nanos("2023-06-11T23:44:53.646325999Z")), "2023-06-11 23:44:53.646325 +0000");
  EXPECT_EQ(TimescaleTime(*ParseRfc3339Nanos("2023-06-11T23:44:53.6Z")), "2023-06-11 23:44:53.6 +0000");
  EXPECT_EQ(TimescaleTime(*ParseRfc3339Nanos("2023-06-11T23:44:53Z")), "2023-06-11 23:44:53 +0000");
}

TEST(IotQueryGeneratorTest, RejectsBadInput) {
  QueryGenConfig c = Config("no-such-type");
  EXPECT_FALSE(GenerateIotQueries(c, IotQueryFormat::kSql).ok());
  c = Config("stationary-trucks");
  c.end_ns = c.start_ns + 60 * 1000000000LL;  // shorter than the 10-minute window
  EXPECT_FALSE(GenerateIotQueries(c, IotQueryFormat::kSql).ok());
  c = Config("single-last-loc");
  c.scale = 0;
  EXPECT_FALSE(GenerateIotQueries(c, IotQueryFormat::kSql).ok());
}

}  // namespace
}  // namespace gnomon::bench
