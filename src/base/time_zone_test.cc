// TimeZone: offsets, wall-clock times across daylight-saving changes (a skipped and a repeated
// hour in America/Chicago, 2023), the shift before an instant, and RFC 3339 with offsets.
#include "src/base/time_zone.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "src/base/time_util.h"

namespace gnomon {
namespace {

constexpr int64_t kHour = 3'600'000'000'000;
constexpr int64_t kMinute = 60'000'000'000;

// "YYYY-MM-DDThh:mm:ss[.ff]Z" as nanoseconds.
int64_t At(const char* rfc3339) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0;
  double s = 0;
  EXPECT_EQ(std::sscanf(rfc3339, "%d-%d-%dT%d:%d:%lfZ", &y, &mo, &d, &h, &mi, &s), 6) << rfc3339;
  return DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * kNanosPerDay +
         (h * 3600LL + mi * 60LL) * 1'000'000'000 + static_cast<int64_t>(s * 1e9 + 0.5);
}

std::string Local(const TimeZone& zone, int64_t ns) {
  std::string s;
  zone.AppendRfc3339(&s, ns);
  return s;
}

TEST(TimeZoneTest, UnknownAndMalformedNamesAreRefused) {
  EXPECT_EQ(TimeZone::Load("Nowhere/City").status().message(), "unable to find time zone Nowhere/City");
  EXPECT_FALSE(TimeZone::Load("../../etc/passwd").ok());
  EXPECT_FALSE(TimeZone::Load("/etc/localtime").ok());
  EXPECT_FALSE(TimeZone::Load("").ok());
  EXPECT_FALSE(TimeZone::Load("America").ok());   // a directory of zones
  EXPECT_FALSE(TimeZone::Load("zone.tab").ok());  // a file of the directory that is no zone
  auto utc = TimeZone::Load("UTC");
  ASSERT_TRUE(utc.ok());
  EXPECT_TRUE((*utc)->is_utc());
  auto chicago = TimeZone::Load("America/Chicago");
  ASSERT_TRUE(chicago.ok());
  EXPECT_FALSE((*chicago)->is_utc());
}

TEST(TimeZoneTest, OffsetsAndRfc3339FollowDaylightSaving) {
  auto zone = *TimeZone::Load("America/Chicago");
  EXPECT_EQ(zone->OffsetSeconds(At("2023-03-12T07:59:59Z")), -6 * 3600);
  EXPECT_EQ(zone->OffsetSeconds(At("2023-03-12T08:00:00Z")), -5 * 3600);
  EXPECT_EQ(Local(*zone, At("2023-03-12T07:40:00Z")), "2023-03-12T01:40:00-06:00");
  EXPECT_EQ(Local(*zone, At("2023-03-12T08:00:00.25Z")), "2023-03-12T03:00:00.25-05:00");
  EXPECT_EQ(Local(*zone, At("2023-11-05T06:30:00Z")), "2023-11-05T01:30:00-05:00");
  EXPECT_EQ(Local(*zone, At("2023-11-05T07:30:00Z")), "2023-11-05T01:30:00-06:00");
  auto kolkata = *TimeZone::Load("Asia/Kolkata");
  EXPECT_EQ(Local(*kolkata, At("2023-03-12T07:00:00Z")), "2023-03-12T12:30:00+05:30");
  auto london = *TimeZone::Load("Europe/London");
  EXPECT_EQ(Local(*london, At("2023-01-10T07:00:00Z")), "2023-01-10T07:00:00Z");  // Go's "Z07:00"
}

TEST(TimeZoneTest, FirstInstantOfAWallTime) {
  auto zone = *TimeZone::Load("America/Chicago");
  const int64_t day = At("2023-03-12T00:00:00Z");  // as a wall time: local midnight
  EXPECT_EQ(zone->FirstInstantAtOrAfter(day), At("2023-03-12T06:00:00Z"));
  EXPECT_EQ(zone->FirstInstantAtOrAfter(day + 90 * kMinute), At("2023-03-12T07:30:00Z"));
  // 02:00-03:00 does not exist that night: its wall times start at the transition.
  EXPECT_EQ(zone->FirstInstantAtOrAfter(day + 2 * kHour), At("2023-03-12T08:00:00Z"));
  EXPECT_EQ(zone->FirstInstantAtOrAfter(day + 150 * kMinute), At("2023-03-12T08:00:00Z"));
  EXPECT_EQ(zone->FirstInstantAtOrAfter(day + 3 * kHour), At("2023-03-12T08:00:00Z"));
  // 01:00-02:00 happens twice on 2023-11-05: the first time counts.
  const int64_t fall = At("2023-11-05T00:00:00Z");
  EXPECT_EQ(zone->FirstInstantAtOrAfter(fall + 90 * kMinute), At("2023-11-05T06:30:00Z"));
  EXPECT_EQ(zone->FirstInstantAtOrAfter(fall + 2 * kHour), At("2023-11-05T08:00:00Z"));
}

TEST(TimeZoneTest, PreviousShift) {
  auto zone = *TimeZone::Load("America/Chicago");
  int64_t at = 0, shift = 0;
  ASSERT_TRUE(zone->PreviousShift(At("2023-03-12T08:00:00Z"), &at, &shift));  // at the instant itself
  EXPECT_EQ(at, At("2023-03-12T08:00:00Z"));
  EXPECT_EQ(shift, 3600);
  ASSERT_TRUE(zone->PreviousShift(At("2023-12-01T00:00:00Z"), &at, &shift));
  EXPECT_EQ(at, At("2023-11-05T07:00:00Z"));
  EXPECT_EQ(shift, -3600);
  EXPECT_FALSE((*TimeZone::Load("UTC"))->PreviousShift(At("2023-12-01T00:00:00Z"), &at, &shift));
}

}  // namespace
}  // namespace gnomon
