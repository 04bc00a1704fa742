#include "src/bench/time_parse.h"

#include <gtest/gtest.h>

namespace gnomon::bench {
namespace {

TEST(TimeParseTest, Rfc3339) {
  EXPECT_EQ(*ParseRfc3339Nanos("2023-06-11T00:00:00Z"), 1686441600000000000);
  EXPECT_EQ(*ParseRfc3339Nanos("2016-01-01T00:00:00Z"), 1451606400000000000);
  EXPECT_EQ(*ParseRfc3339Nanos("2023-06-11T02:00:00+02:00"), 1686441600000000000);
  EXPECT_EQ(*ParseRfc3339Nanos("2023-06-10T22:30:00-01:30"), 1686441600000000000);
  EXPECT_EQ(*ParseRfc3339Nanos("2023-06-11T00:00:00.5Z"), 1686441600500000000);
  EXPECT_EQ(*ParseRfc3339Nanos("2023-06-11T00:00:00.000000001Z"), 1686441600000000001);
  EXPECT_EQ(*ParseRfc3339Nanos("1969-12-31T23:59:59Z"), -1000000000);
}

TEST(TimeParseTest, Rfc3339RejectsBadInput) {
  for (const char* bad : {"", "2023-06-11", "2023-06-11T00:00:00", "2023-13-01T00:00:00Z",
                          "2023-02-29T00:00:00Z", "2023-06-11T24:00:00Z", "2023-06-11T00:00:00Zx",
                          "2023-06-11 00:00:00Z", "2023-06-11T00:00:00.Z"}) {
    auto r = ParseRfc3339Nanos(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsInvalidArgument());
    }
  }
  EXPECT_TRUE(ParseRfc3339Nanos("2024-02-29T00:00:00Z").ok());
}

TEST(TimeParseTest, GoDurations) {
  EXPECT_EQ(*ParseGoDuration("10s"), 10000000000);
  EXPECT_EQ(*ParseGoDuration("1m30s"), 90000000000);
  EXPECT_EQ(*ParseGoDuration("1.5h"), 5400000000000);
  EXPECT_EQ(*ParseGoDuration("500ms"), 500000000);
  EXPECT_EQ(*ParseGoDuration("3us"), 3000);
  EXPECT_EQ(*ParseGoDuration("7ns"), 7);
  EXPECT_EQ(*ParseGoDuration("0"), 0);
  EXPECT_EQ(*ParseGoDuration("-2s"), -2000000000);
  for (const char* bad : {"", "10", "s", "10x", "1..5s", "-"}) {
    EXPECT_FALSE(ParseGoDuration(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace gnomon::bench
