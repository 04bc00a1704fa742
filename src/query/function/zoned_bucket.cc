// date_bin(width, ts, origin, 'zone'): fixed-width buckets of a time zone's wall-clock time, as
// InfluxQL's GROUP BY time(width, offset) tz('zone') buckets them (behaviour recorded from
// InfluxDB 1.6, test/influxql/timezones.test).
//
// Bucket boundaries are the wall times origin + k * width. A boundary becomes the earliest
// instant showing that wall time or later: a boundary the clocks skip moves to the transition,
// one they repeat takes its first occurrence. So a day bucket of a spring-forward day lasts 23
// hours and one of a fall-back day 25, and a 90-minute bucket that holds the repeated hour runs
// long. Where a clock change is at least as large as the width (an hour-wide or narrower bucket
// around a one-hour change), buckets follow absolute time instead, each starting width-aligned at
// its own offset: the repeated hour is two buckets and a skipped one none, as InfluxDB does.
#include <algorithm>

#include "src/base/time_util.h"
#include "src/base/time_zone.h"
#include "src/query/function/scalar_functions.h"

namespace gnomon::query {

int64_t TimeBucketFn::ZonedStart(int64_t t) const {
  const int64_t wall = zone->WallNanos(t);
  const int64_t into = wall - (FloorDiv(wall - origin, width) * width + origin);
  const int64_t absolute = t - into;  // the boundary at t's own offset
  int64_t at = 0, shift = 0;
  // No clock change since the boundary (and, after a fall-back, none whose repeated wall times
  // reach it): the bucket started at t's offset.
  if (!zone->PreviousShift(t, &at, &shift)) return absolute;
  const int64_t shift_ns = (shift < 0 ? -shift : shift) * kNanosPerSecond;
  if (at <= absolute - shift_ns || shift_ns >= width) return absolute;
  // The latest boundary whose first instant is at or before t. The boundary of t's own wall
  // time always qualifies; after a fall-back a later one may too (t shows a repeated time that
  // the clocks already passed once).
  int64_t boundary = wall - into;
  int64_t start = zone->FirstInstantAtOrAfter(boundary);
  for (;;) {
    const int64_t next = zone->FirstInstantAtOrAfter(boundary + width);
    if (next > t) return start;
    start = next;
    boundary += width;
  }
}

int64_t TimeBucketFn::ZonedEnd(int64_t bucket_start) const {
  if (bucket_start > INT64_MAX - width) return INT64_MAX;
  // Usually the next bucket starts a width later; else the end lies within a clock change of
  // there (a bucket is at most a width plus the largest change long), found by bisection.
  const int64_t guess = bucket_start + width;
  if (ZonedStart(guess - 1) == bucket_start && ZonedStart(guess) != bucket_start) return guess;
  constexpr int64_t kLargestShift = 26 * 3600 * kNanosPerSecond;
  int64_t lo = bucket_start;  // in the bucket
  int64_t hi = guess > INT64_MAX - kLargestShift ? INT64_MAX : guess + kLargestShift;  // past it
  if (ZonedStart(hi) == bucket_start) return hi;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ZonedStart(mid) == bucket_start) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

}  // namespace gnomon::query
