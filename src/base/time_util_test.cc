#include "src/base/time_util.h"

#include <gtest/gtest.h>

namespace gnomon {
namespace {

TEST(TimeUtilTest, FormatsTsbsStart) {
  EXPECT_EQ(FormatRfc3339(1686441600000000000LL), "2023-06-11T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(1686527990000000000LL), "2023-06-11T23:59:50Z");
}

TEST(TimeUtilTest, TrimsFraction) {
  EXPECT_EQ(FormatRfc3339(500000000LL), "1970-01-01T00:00:00.5Z");
  EXPECT_EQ(FormatRfc3339(1000LL), "1970-01-01T00:00:00.000001Z");
  EXPECT_EQ(FormatRfc3339(1LL), "1970-01-01T00:00:00.000000001Z");
}

TEST(TimeUtilTest, BeforeEpoch) {
  EXPECT_EQ(FormatRfc3339(-1LL), "1969-12-31T23:59:59.999999999Z");
  EXPECT_EQ(FloorDiv(-1, 10), -1);
  EXPECT_EQ(FloorDiv(-10, 10), -1);
  EXPECT_EQ(FloorDiv(9, 10), 0);
}

TEST(TimeUtilTest, NanosOfDayAtTheInt64Ends) {
  EXPECT_EQ(NanosOfDay(0), 0);
  EXPECT_EQ(NanosOfDay(kNanosPerDay + 5), 5);
  EXPECT_EQ(NanosOfDay(-1), kNanosPerDay - 1);
  EXPECT_EQ(NanosOfDay(-kNanosPerDay), 0);
  const int64_t at_min = NanosOfDay(INT64_MIN);
  EXPECT_GE(at_min, 0);
  EXPECT_LT(at_min, kNanosPerDay);
  EXPECT_EQ((static_cast<__int128>(INT64_MIN) - at_min) % kNanosPerDay, 0);
  EXPECT_EQ(NanosOfDay(INT64_MAX), INT64_MAX % kNanosPerDay);
}

TEST(TimeUtilTest, CivilRoundTrip) {
  for (int64_t days = -800000; days < 800000; days += 997) {
    int64_t y;
    unsigned m, d;
    CivilFromDays(days, &y, &m, &d);
    EXPECT_EQ(DaysFromCivil(y, m, d), days);
  }
}

}  // namespace
}  // namespace gnomon
