#include "src/server/ingest/precision.h"

#include <gtest/gtest.h>

namespace gnomon::server {
namespace {

TEST(PrecisionTest, ParsesEveryAcceptedSpelling) {
  struct Case {
    const char* text;
    Precision want;
  };
  for (const Case& c : {Case{"", Precision::kNanosecond}, Case{"ns", Precision::kNanosecond},
                        Case{"n", Precision::kNanosecond}, Case{"us", Precision::kMicrosecond},
                        Case{"u", Precision::kMicrosecond},
                        Case{"\xC2\xB5s", Precision::kMicrosecond},
                        Case{"\xCE\xBCs", Precision::kMicrosecond},
                        Case{"ms", Precision::kMillisecond}, Case{"s", Precision::kSecond}}) {
    for (bool v1 : {false, true}) {
      Result<Precision> p = ParsePrecision(c.text, v1);
      ASSERT_TRUE(p.ok()) << c.text;
      EXPECT_EQ(*p, c.want) << c.text;
    }
  }
}

TEST(PrecisionTest, MinutesAndHoursOnlyForV1) {
  EXPECT_EQ(*ParsePrecision("m", true), Precision::kMinute);
  EXPECT_EQ(*ParsePrecision("h", true), Precision::kHour);
  EXPECT_TRUE(ParsePrecision("m", false).status().IsInvalidArgument());
  EXPECT_TRUE(ParsePrecision("h", false).status().IsInvalidArgument());
}

TEST(PrecisionTest, UnknownValueIsNamedInTheError) {
  for (const char* bad : {"sec", "NS", "x", "mm", " s", "s "}) {
    Result<Precision> p = ParsePrecision(bad, true);
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_TRUE(p.status().IsInvalidArgument());
    EXPECT_NE(p.status().message().find(std::string("\"") + bad + "\""), std::string::npos)
        << p.status().message();
  }
  EXPECT_EQ(ParsePrecision("d", false).status().message(),
            "invalid precision \"d\": expected one of ns, us, ms, s");
  EXPECT_EQ(ParsePrecision("d", true).status().message(),
            "invalid precision \"d\": expected one of ns, us, ms, s, m, h");
}

TEST(PrecisionTest, ScalesToNanoseconds) {
  int64_t ns = 0;
  ASSERT_TRUE(ScaleToNanos(1686441600, Precision::kSecond, &ns));
  EXPECT_EQ(ns, 1686441600000000000);
  ASSERT_TRUE(ScaleToNanos(-3, Precision::kMillisecond, &ns));
  EXPECT_EQ(ns, -3000000);
  ASSERT_TRUE(ScaleToNanos(7, Precision::kMicrosecond, &ns));
  EXPECT_EQ(ns, 7000);
  ASSERT_TRUE(ScaleToNanos(2, Precision::kMinute, &ns));
  EXPECT_EQ(ns, 120'000'000'000);
  ASSERT_TRUE(ScaleToNanos(-2, Precision::kHour, &ns));
  EXPECT_EQ(ns, -7'200'000'000'000);
  ASSERT_TRUE(ScaleToNanos(12345, Precision::kNanosecond, &ns));
  EXPECT_EQ(ns, 12345);
}

TEST(PrecisionTest, OverflowAndReservedEndsAreRejected) {
  int64_t ns = 42;
  // The largest second count whose nanoseconds fit, and one more.
  EXPECT_TRUE(ScaleToNanos(9223372036, Precision::kSecond, &ns));
  EXPECT_FALSE(ScaleToNanos(9223372037, Precision::kSecond, &ns));
  EXPECT_FALSE(ScaleToNanos(-9223372037, Precision::kSecond, &ns));
  EXPECT_FALSE(ScaleToNanos(INT64_MAX, Precision::kHour, &ns));
  EXPECT_FALSE(ScaleToNanos(INT64_MIN, Precision::kMicrosecond, &ns));
  // InfluxDB reserves the two values at each end of the int64 range.
  EXPECT_FALSE(ScaleToNanos(INT64_MAX, Precision::kNanosecond, &ns));
  EXPECT_TRUE(ScaleToNanos(INT64_MAX - 1, Precision::kNanosecond, &ns));
  EXPECT_FALSE(ScaleToNanos(INT64_MIN, Precision::kNanosecond, &ns));
  EXPECT_FALSE(ScaleToNanos(INT64_MIN + 1, Precision::kNanosecond, &ns));
  EXPECT_TRUE(ScaleToNanos(INT64_MIN + 2, Precision::kNanosecond, &ns));
  EXPECT_EQ(ns, INT64_MIN + 2);
}

TEST(PrecisionTest, Names) {
  EXPECT_EQ(PrecisionName(Precision::kMicrosecond), "us");
  EXPECT_EQ(PrecisionName(Precision::kHour), "h");
  EXPECT_EQ(NanosPerUnit(Precision::kHour), 3'600'000'000'000);
}

}  // namespace
}  // namespace gnomon::server
