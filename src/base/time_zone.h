// TimeZone: an IANA time zone from the system's zoneinfo (through CCTZ), for buckets that follow
// local wall-clock time and for instants rendered with their UTC offset (InfluxQL's tz()).
// Immutable once loaded; shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon {

class TimeZone {
 public:
  // "America/Chicago", "UTC", ... InvalidArgument when the system has no such zone (or the name
  // is not a zone name: only letters, digits, '_', '-', '+' and '/' between names, no "..").
  static Result<std::shared_ptr<const TimeZone>> Load(std::string_view name);
  ~TimeZone();

  const std::string& name() const { return name_; }
  // UTC itself, or a zone that has never been anything else.
  bool is_utc() const { return utc_; }

  // Seconds east of UTC at instant `nanos`.
  int64_t OffsetSeconds(int64_t nanos) const;
  // Wall-clock time at `nanos`, as nanoseconds since 1970-01-01 00:00 on this zone's clocks.
  int64_t WallNanos(int64_t nanos) const { return nanos + OffsetSeconds(nanos) * 1'000'000'000; }
  // The earliest instant whose wall-clock time is `wall_nanos` or later: the first of a repeated
  // time, and the transition itself for a time the clocks skip.
  int64_t FirstInstantAtOrAfter(int64_t wall_nanos) const;
  // The latest offset change at or before `nanos`: its instant and how far the clocks moved
  // (seconds, negative when they went back). False when the zone has none.
  bool PreviousShift(int64_t nanos, int64_t* at_nanos, int64_t* shift_seconds) const;
  // RFC 3339 in this zone's wall-clock time with its offset, as Go's RFC3339Nano renders it:
  // "2023-03-12T01:00:00-06:00", and "Z" for a zero offset.
  void AppendRfc3339(std::string* out, int64_t nanos) const;

 private:
  struct Impl;
  TimeZone(std::string name, std::unique_ptr<Impl> impl);

  std::string name_;
  std::unique_ptr<Impl> impl_;
  bool utc_ = false;
};

}  // namespace gnomon
