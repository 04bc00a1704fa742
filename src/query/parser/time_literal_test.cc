#include "src/query/parser/time_literal.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "src/base/time_util.h"

namespace gnomon::query {
namespace {

constexpr int64_t kSecond = 1000000000;
// 2023-06-11T00:00:00Z, the TSBS data start.
constexpr int64_t kStart = 1686441600 * kSecond;

int64_t Parse(std::string_view text) {
  auto r = ParseTimeLiteral(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : -1;
}

TEST(TimeLiteralTest, TsbsForms) {
  const int64_t t = kStart + (2 * 3600 + 17 * 60 + 8) * kSecond;
  EXPECT_EQ(Parse("2023-06-11T02:17:08Z"), t);
  EXPECT_EQ(Parse("2023-06-11 02:17:08"), t);
  EXPECT_EQ(Parse("2023-06-11 02:17:08.646325 +0000"), t + 646325000);
  EXPECT_EQ(Parse("2023-06-11 00:00:00.646325 +0000"), kStart + 646325000);
}

TEST(TimeLiteralTest, FractionDigits) {
  EXPECT_EQ(Parse("2023-06-11T00:00:00.5Z"), kStart + 500000000);
  EXPECT_EQ(Parse("2023-06-11T00:00:00.12345Z"), kStart + 123450000);
  EXPECT_EQ(Parse("2023-06-11T00:00:00.123456Z"), kStart + 123456000);
  EXPECT_EQ(Parse("2023-06-11T00:00:00.123456789Z"), kStart + 123456789);
  EXPECT_EQ(Parse("2023-06-11T00:00:00,25Z"), kStart + 250000000);
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00.1234567891Z").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00.Z").ok());
}

TEST(TimeLiteralTest, Offsets) {
  EXPECT_EQ(Parse("2023-06-11T02:00:00+02:00"), kStart);
  EXPECT_EQ(Parse("2023-06-11T02:00:00+0200"), kStart);
  EXPECT_EQ(Parse("2023-06-11T02:00:00+02"), kStart);
  EXPECT_EQ(Parse("2023-06-10T19:30:00-04:30"), kStart);
  EXPECT_EQ(Parse("2023-06-10 19:30:00 -0430"), kStart);
  EXPECT_EQ(Parse("2023-06-11 00:00:00 UTC"), kStart);
  EXPECT_EQ(Parse("2023-06-11t00:00:00z"), kStart);
  EXPECT_EQ(Parse("  2023-06-11T00:00:00Z  "), kStart);
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00+16:00").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00+02:60").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00+2").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-06-11T00:00:00 PST").ok());
}

TEST(TimeLiteralTest, DatesAndLeapYears) {
  EXPECT_EQ(Parse("2023-06-11"), kStart);
  EXPECT_EQ(Parse("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(Parse("2024-02-29T00:00:00Z"), 1709164800 * kSecond);
  EXPECT_EQ(Parse("2000-02-29"), 951782400 * kSecond);
  EXPECT_FALSE(ParseTimeLiteral("2023-02-29").ok());
  EXPECT_FALSE(ParseTimeLiteral("1900-02-29").ok());  // divisible by 100, not by 400
  EXPECT_FALSE(ParseTimeLiteral("2023-04-31").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-13-01").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-00-01").ok());
  EXPECT_FALSE(ParseTimeLiteral("2023-01-00").ok());
  EXPECT_EQ(Parse("2023-12-31T23:59:59.999999999Z") + 1, Parse("2024-01-01"));
}

TEST(TimeLiteralTest, BeforeEpochAndRange) {
  EXPECT_EQ(Parse("1969-12-31T23:59:59.5Z"), -500000000);
  EXPECT_EQ(Parse("1677-09-21T00:12:43.145224192Z"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Parse("2262-04-11T23:47:16.854775807Z"), std::numeric_limits<int64_t>::max());
  auto low = ParseTimeLiteral("1677-09-21T00:12:43.145224191Z");
  EXPECT_EQ(low.status().code(), Status::Code::kOutOfRange);
  auto high = ParseTimeLiteral("2262-04-11T23:47:16.854775808Z");
  EXPECT_EQ(high.status().code(), Status::Code::kOutOfRange);
  EXPECT_EQ(ParseTimeLiteral("9999-12-31").status().code(), Status::Code::kOutOfRange);
}

TEST(TimeLiteralTest, MalformedTextIsAnError) {
  for (std::string_view bad : {"", "2023", "2023-6-11", "23-06-11", "2023-06-11X00:00:00",
                               "2023-06-11T24:00:00Z", "2023-06-11T00:60:00Z",
                               "2023-06-11T00:00:60Z", "2023-06-11T0:00:00Z",
                               "2023-06-11T00:00:00Zjunk", "now", "2023-06-11T00"}) {
    auto r = ParseTimeLiteral(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(r.status().IsInvalidArgument()) << bad;
  }
  EXPECT_EQ(ParseTimeLiteral("2023-02-30").status().message(),
            "invalid timestamp '2023-02-30': day out of range for the month");
}

RC_GTEST_PROP(TimeLiteralProperty, ReadsWhatFormatRfc3339Writes, (int64_t nanos)) {
  auto parsed = ParseTimeLiteral(FormatRfc3339(nanos));
  RC_ASSERT(parsed.ok());
  RC_ASSERT(*parsed == nanos);
}

RC_GTEST_PROP(TimeLiteralProperty, OffsetsShiftByTheirValue, (int32_t seconds_in, int hh, int mm)) {
  // A wall time written with an offset equals the UTC instant minus that offset.
  const int64_t base = kStart + static_cast<int64_t>(seconds_in % 86400) * kSecond;
  const int h = std::abs(hh % 16);
  const int m = std::abs(mm % 60);
  const std::string utc = FormatRfc3339(base);  // "...Z"
  char zone[8];
  std::snprintf(zone, sizeof(zone), "+%02d:%02d", h, m);
  auto shifted = ParseTimeLiteral(utc.substr(0, utc.size() - 1) + zone);
  RC_ASSERT(shifted.ok());
  RC_ASSERT(*shifted == base - (h * 3600 + m * 60) * kSecond);
}

}  // namespace
}  // namespace gnomon::query
