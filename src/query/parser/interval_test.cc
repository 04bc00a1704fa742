#include "src/query/parser/interval.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>

namespace gnomon::query {
namespace {

constexpr int64_t kSecond = 1000000000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

int64_t Parse(std::string_view text) {
  auto r = ParseInterval(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : -1;
}

TEST(IntervalTest, WordForms) {
  EXPECT_EQ(Parse("60 seconds"), 60 * kSecond);
  EXPECT_EQ(Parse("3600 seconds"), kHour);
  EXPECT_EQ(Parse("1 minute"), kMinute);
  EXPECT_EQ(Parse("5 minutes"), 5 * kMinute);
  EXPECT_EQ(Parse("10 mins"), 10 * kMinute);
  EXPECT_EQ(Parse("12 hours"), 12 * kHour);
  EXPECT_EQ(Parse("1 HOUR"), kHour);
  EXPECT_EQ(Parse("1 day"), kDay);
  EXPECT_EQ(Parse("24 hours"), kDay);
  EXPECT_EQ(Parse("1 week"), 7 * kDay);
  EXPECT_EQ(Parse("250 milliseconds"), 250000000);
  EXPECT_EQ(Parse("7 microseconds"), 7000);
  EXPECT_EQ(Parse("3 nanoseconds"), 3);
}

TEST(IntervalTest, CompactForms) {
  EXPECT_EQ(Parse("1h"), kHour);
  EXPECT_EQ(Parse("10s"), 10 * kSecond);
  EXPECT_EQ(Parse("10m"), 10 * kMinute);
  EXPECT_EQ(Parse("1d"), kDay);
  EXPECT_EQ(Parse("1w"), 7 * kDay);
  EXPECT_EQ(Parse("5ms"), 5000000);
  EXPECT_EQ(Parse("100us"), 100000);
  EXPECT_EQ(Parse("100\xc2\xb5s"), 100000);
  EXPECT_EQ(Parse("42ns"), 42);
  EXPECT_EQ(Parse("1h30m"), kHour + 30 * kMinute);
}

TEST(IntervalTest, CombinationsFractionsSigns) {
  EXPECT_EQ(Parse("1 hour 30 minutes"), kHour + 30 * kMinute);
  EXPECT_EQ(Parse("  1 day 2 hours  "), kDay + 2 * kHour);
  EXPECT_EQ(Parse("1.5 hours"), 90 * kMinute);
  EXPECT_EQ(Parse("0.000000001 seconds"), 1);
  EXPECT_EQ(Parse("0.0000000019 seconds"), 1);  // below 1 ns truncates
  EXPECT_EQ(Parse(".5 s"), kSecond / 2);
  EXPECT_EQ(Parse("-1 hour"), -kHour);
  EXPECT_EQ(Parse("-1 hour 30 minutes"), -30 * kMinute);  // PostgreSQL: signs per component
  EXPECT_EQ(Parse("+2 h"), 2 * kHour);
  EXPECT_EQ(Parse("60"), 60 * kSecond);
  EXPECT_EQ(Parse("1.5"), 1500000000);
}

TEST(IntervalTest, ClockForm) {
  EXPECT_EQ(Parse("01:30:00"), 90 * kMinute);
  EXPECT_EQ(Parse("1:30"), 90 * kMinute);
  EXPECT_EQ(Parse("00:00:00.5"), kSecond / 2);
  EXPECT_EQ(Parse("1 day 02:00:00"), kDay + 2 * kHour);
  EXPECT_FALSE(ParseInterval("01:60:00").ok());
  EXPECT_FALSE(ParseInterval("01:3").ok());
}

TEST(IntervalTest, Errors) {
  for (std::string_view bad : {"", "   ", "hour", "1 fortnight", "5 months", "1 year", "1 y",
                               "1h30", "60 60", "1..5 s", "- 1 h", "1 hour and 5 minutes"}) {
    auto r = ParseInterval(bad);
    EXPECT_FALSE(r.ok()) << bad;
  }
  EXPECT_EQ(ParseInterval("5 months").status().message(),
            "invalid interval '5 months': unit 'months' has no fixed length; use days or weeks");
  EXPECT_EQ(ParseInterval("300 years").status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ParseInterval("107000 days").status().code(), Status::Code::kOutOfRange);
  EXPECT_EQ(ParseInterval("99999999999999999999999 ns").status().code(),
            Status::Code::kOutOfRange);
  EXPECT_EQ(Parse("9223372036854775807 ns"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Parse("-9223372036854775807 ns -1 ns"), std::numeric_limits<int64_t>::min());
}

TEST(IntervalTest, FormatRoundTrips) {
  EXPECT_EQ(FormatInterval(0), "0 seconds");
  EXPECT_EQ(FormatInterval(kHour), "1 hour");
  EXPECT_EQ(FormatInterval(90 * kMinute), "1 hour 30 minutes");
  EXPECT_EQ(FormatInterval(2 * kDay + kSecond + kSecond / 2),
            "2 days 1 second 500 milliseconds");
  EXPECT_EQ(FormatInterval(1500), "1500 nanoseconds");
  EXPECT_EQ(FormatInterval(-90 * kMinute), "-1 hour -30 minutes");
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, kDay + 7, -kHour - 3000,
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    auto back = ParseInterval(FormatInterval(v));
    ASSERT_TRUE(back.ok()) << FormatInterval(v);
    EXPECT_EQ(*back, v) << FormatInterval(v);
  }
}

RC_GTEST_PROP(IntervalProperty, FormatThenParseIsIdentity, (int64_t nanos)) {
  auto back = ParseInterval(FormatInterval(nanos));
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == nanos);
}

}  // namespace
}  // namespace gnomon::query
